import type { ServerResponse } from "node:http";

/** Spec 1: every answer, success or failure. The request id travels in the `X-Request-Id` header, not here. */
export interface Envelope {
  code: number;
  message: string;
  data: Record<string, unknown>;
}

export function sendJson(res: ServerResponse, httpStatus: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(httpStatus, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}
