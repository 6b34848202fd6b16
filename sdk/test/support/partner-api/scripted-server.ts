/**
 * The sdk tests' one scripted Partner API: a real HTTP server on
 * 127.0.0.1:0 that records each request and answers from a script. For what
 * the sandbox does not do on purpose: exact wire bodies, a catalogue with a
 * domain type outside the specification, a proxy's HTML error page in place
 * of the API, slow or dropped connections. The answers' builders are in
 * ./answers.ts; import both through ./index.ts.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { htmlPage } from "./answers.js";

/** One request as the server saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The Partner API operation: the path segment after `/partner/` (the path itself for any other path). */
  operation: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** Body fields: form pairs in order (repeated keys kept), or the JSON object. */
  form: [string, string][];
  /** The form pairs as URLSearchParams (`params.get("order_no")`); empty for a non-form body. */
  params: URLSearchParams;
  json: unknown;
  at: number;
  socket: Socket;
}

/** What a script answers: a status, headers, and a body (object → JSON, string → as is). */
export interface ScriptedAnswer {
  /** Default 200 (the API's envelope travels under HTTP 200). */
  status?: number;
  /** Default `content-type: application/json`. */
  headers?: Record<string, string>;
  body?: unknown;
  /** Wait before answering (a slow server). */
  delayMs?: number;
  /** Destroy the socket instead of answering (after reading the request). */
  drop?: boolean;
}

export type Script = (request: RecordedRequest) => ScriptedAnswer | Promise<ScriptedAnswer>;

/**
 * A script that answers each operation from its own function; an operation
 * without one gets `otherwise` (default: a proxy's HTML 404 page).
 */
export function byOperation(scripts: Partial<Record<string, Script>>, otherwise: ScriptedAnswer = htmlPage(404, "Not Found")): Script {
  return (request) => scripts[request.operation]?.(request) ?? otherwise;
}

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

  /** Starts a server; with `script`, answers from it (as `answer(script)`). */
  static async start(script?: Script): Promise<ScriptedServer> {
    const server = new ScriptedServer();
    if (script) server.#script = script;
    server.#server.listen(0, "127.0.0.1");
    await once(server.#server, "listening");
    return server;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** The operations requested since the last reset, in order of arrival. */
  get operations(): string[] {
    return this.requests.map((r) => r.operation);
  }

  /** Answer with `answers` in order; the last one repeats. */
  answer(...answers: (ScriptedAnswer | Script)[]): void {
    let index = 0;
    this.#script = (req) => {
      const next = answers[Math.min(index++, answers.length - 1)]!;
      return typeof next === "function" ? next(req) : next;
    };
  }

  /** Forgets the recorded requests (the script stays). */
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
    const path = req.url ?? "";
    const form: [string, string][] = type.startsWith("application/x-www-form-urlencoded") ? [...new URLSearchParams(body)] : [];
    const recorded: RecordedRequest = {
      method: req.method ?? "",
      path,
      operation: /^\/partner\/([A-Za-z]+)\//.exec(path)?.[1] ?? path,
      headers: req.headers,
      body,
      form,
      params: new URLSearchParams(form),
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
