import type { ServerResponse } from "node:http";

export interface Envelope {
  code: number;
  message: string;
  data: unknown;
  request_id: string;
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
