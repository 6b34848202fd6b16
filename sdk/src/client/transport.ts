import { Agent } from "undici";

/** One HTTP attempt. */
export interface HttpRequest {
  url: URL;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** The caller's (and the client's) cancellation. */
  signal: AbortSignal;
}

/** A complete HTTP answer (the body read in full). */
export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Why an attempt produced no HTTP answer. */
export type TransportFailureKind = "network" | "timeout" | "aborted" | "malformed_response";

/**
 * An attempt that produced no HTTP answer. `mayHaveReachedServer` is false
 * only for failures that happen before a connection exists, so the request
 * provably never left.
 */
export class TransportError extends Error {
  override readonly name = "TransportError";
  constructor(
    readonly kind: TransportFailureKind,
    readonly mayHaveReachedServer: boolean,
    message: string,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

// Errors raised while connecting: no byte of the request was written.
// Deliberately a short allow-list; anything else counts as "may have reached".
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/**
 * HTTP for one client: a single undici `Agent` (connections kept alive and
 * reused), per-attempt timeout covering connect, headers and body, and
 * cancellation.
 */
export class Transport {
  readonly #agent: Agent;
  readonly #maxResponseBytes: number;

  constructor(connectTimeoutMs: number, maxResponseBytes: number) {
    // undici's default idle keep-alive (4 s, shortened by the server's Keep-Alive hint) stays
    // below common server idle timeouts: a request written to a socket the server is closing
    // fails as "may have reached the server", which for CreateOrder is a false alarm to avoid.
    // The largest real answer (a download with a 4096-bit key and its chain) is a few tens of KiB;
    // the cap keeps a misbehaving proxy from making a provider process buffer without limit.
    this.#agent = new Agent({ connect: { timeout: connectTimeoutMs }, maxResponseSize: maxResponseBytes });
    this.#maxResponseBytes = maxResponseBytes;
  }

  /** Sends one POST and reads the whole answer, or rejects with a {@link TransportError}. */
  async post(request: HttpRequest): Promise<HttpResponse> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), request.timeoutMs);
    const signal = AbortSignal.any([request.signal, timeout.signal]);
    try {
      const response = await this.#agent.request({
        origin: request.url.origin,
        path: `${request.url.pathname}${request.url.search}`,
        method: "POST",
        headers: request.headers,
        body: request.body,
        signal,
      });
      const text = await response.body.text();
      return { status: response.statusCode, headers: response.headers, text };
    } catch (error) {
      if (request.signal.aborted) throw new TransportError("aborted", true, "the call was aborted", { cause: error });
      if (timeout.signal.aborted) {
        throw new TransportError("timeout", true, `no complete answer within ${request.timeoutMs} ms`, { cause: error });
      }
      if (errorCode(error) === "UND_ERR_RES_EXCEEDED_MAX_SIZE") {
        throw new TransportError("malformed_response", true, `the answer exceeded ${this.#maxResponseBytes} bytes (maxResponseBytes)`, { cause: error });
      }
      const sent = !neverSent(error);
      if (errorCode(error) === "UND_ERR_CONNECT_TIMEOUT") throw new TransportError("timeout", false, "connect timed out", { cause: error });
      throw new TransportError("network", sent, describeNetworkError(error), { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes the pooled connections; in-flight requests finish first. */
  async close(): Promise<void> {
    await this.#agent.close();
  }
}

/** The `code` of a Node or undici error (`ECONNREFUSED`, `UND_ERR_RES_EXCEEDED_MAX_SIZE`...). */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function neverSent(error: unknown): boolean {
  // Happy-eyeballs connects raise an AggregateError: never sent only if every attempt failed to connect.
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.every(neverSent);
  const code = errorCode(error);
  return code !== undefined && NOT_SENT_CODES.has(code);
}

/** A network failure as a message: its code only, never the URL or what undici put in its text. */
export function describeNetworkError(error: unknown): string {
  const code = errorCode(error);
  return code ? `network error (${code})` : "network error";
}
