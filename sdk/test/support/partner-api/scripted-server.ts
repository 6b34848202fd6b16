import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One request as the server saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** Body fields: form pairs in order (repeated keys kept), or the JSON object. */
  form: [string, string][];
  json: unknown;
  at: number;
  socket: Socket;
}

/** What a script answers: a status, headers, and a body (object → JSON, string → as is). */
export interface ScriptedAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Wait before answering (a slow server). */
  delayMs?: number;
  /** Destroy the socket instead of answering (after reading the request). */
  drop?: boolean;
}

export type Script = (request: RecordedRequest) => ScriptedAnswer | Promise<ScriptedAnswer>;

/**
 * A real HTTP server on 127.0.0.1:0 that records each request and answers
 * from a script: a queue of answers (last one repeats) or a function.
 */
export class ScriptedServer {
  readonly requests: RecordedRequest[] = [];
  #script: Script = () => ({ status: 500, body: "no script" });
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();

  private constructor() {
    this.#server = createServer((req, res) => void this.#handle(req, res));
    this.#server.on("connection", (socket) => {
      this.#sockets.add(socket);
      socket.on("close", () => this.#sockets.delete(socket));
    });
  }

  static async start(): Promise<ScriptedServer> {
    const server = new ScriptedServer();
    server.#server.listen(0, "127.0.0.1");
    await once(server.#server, "listening");
    return server;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Answer with `answers` in order; the last one repeats. */
  answer(...answers: (ScriptedAnswer | Script)[]): void {
    let index = 0;
    this.#script = (req) => {
      const next = answers[Math.min(index++, answers.length - 1)]!;
      return typeof next === "function" ? next(req) : next;
    };
  }

  reset(): void {
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    this.#server.close();
    await once(this.#server, "close");
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const type = req.headers["content-type"] ?? "";
    const recorded: RecordedRequest = {
      method: req.method ?? "",
      path: req.url ?? "",
      headers: req.headers,
      body,
      form: type.startsWith("application/x-www-form-urlencoded") ? [...new URLSearchParams(body)] : [],
      json: type.startsWith("application/json") && body ? JSON.parse(body) : undefined,
      at: performance.now(),
      socket: req.socket,
    };
    this.requests.push(recorded);
    const answer = await this.#script(recorded);
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (answer.drop) {
      req.socket.destroy();
      return;
    }
    const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body ?? null);
    res.writeHead(answer.status ?? 200, { "content-type": "application/json", ...answer.headers });
    res.end(text);
  }
}

/** A success envelope. */
export function ok(data: unknown, extra: Record<string, unknown> = {}): ScriptedAnswer {
  return { body: { code: 200, message: "ok", data, ...extra } };
}

/** An error envelope, with HTTP 200 (the API's default) or a mirrored status. */
export function apiError(code: number, message: string, data: unknown = null, mirror = false): ScriptedAnswer {
  return { status: mirror ? code : 200, body: { code, message, data } };
}
