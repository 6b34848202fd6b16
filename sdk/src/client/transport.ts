import * as net from "node:net";
import { Agent, buildConnector } from "undici";

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
export type TransportFailureKind = "network" | "tls" | "timeout" | "aborted" | "malformed_response";

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

// A server certificate OpenSSL or Node refused while verifying it, during the handshake.
const CERTIFICATE_CODES = new Set([
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "INVALID_CA",
  "CERT_SIGNATURE_FAILURE",
  "UNABLE_TO_DECRYPT_CERT_SIGNATURE",
  "UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY",
  "CERT_CHAIN_TOO_LONG",
  "PATH_LENGTH_EXCEEDED",
  "INVALID_PURPOSE",
  "CERT_REVOKED",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "ERROR_IN_CERT_NOT_BEFORE_FIELD",
  "ERROR_IN_CERT_NOT_AFTER_FIELD",
  "HOSTNAME_MISMATCH",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/**
 * HTTP for one client: a single undici `Agent` (connections kept alive and
 * reused), per-attempt timeout covering connect, headers and body, and
 * cancellation.
 */
export class Transport {
  readonly #agent: Agent;
  readonly #maxResponseBytes: number;
  /**
   * Errors undici's connector reported before handing over a connection:
   * undici writes a request only to a connection the connector returned, so
   * none of the request left with them.
   */
  readonly #connectFailures = new WeakSet<object>();

  constructor(connectTimeoutMs: number, maxResponseBytes: number) {
    // undici's default idle keep-alive (4 s, shortened by the server's Keep-Alive hint) stays
    // below common server idle timeouts: a request written to a socket the server is closing
    // fails as "may have reached the server", which for CreateOrder is a false alarm to avoid.
    // The largest real answer (a download with a 4096-bit key and its chain) is a few tens of KiB;
    // the cap keeps a misbehaving proxy from making a provider process buffer without limit.
    const connect = buildConnector({ timeout: connectTimeoutMs });
    this.#agent = new Agent({
      connect: (options, callback) =>
        connect(options, (...args) => {
          if (args[0]) this.#connectFailures.add(args[0]);
          callback(...args);
        }),
      maxResponseSize: maxResponseBytes,
    });
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
      if (request.url.protocol === "https:" && isObject(error) && this.#connectFailures.has(error) && isTlsFailure(error)) {
        // A configuration error (wrong scheme or port, an untrusted certificate), not an outage; nothing was sent.
        throw new TransportError("tls", false, await describeTlsFailure(error, request.url, Math.min(2_000, request.timeoutMs)), { cause: error });
      }
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

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}

/** A handshake that failed on TLS itself: the protocol (OpenSSL's `ERR_SSL_*`, or `EPROTO`) or the server's certificate. */
function isTlsFailure(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && (code === "EPROTO" || code.startsWith("ERR_SSL_") || CERTIFICATE_CODES.has(code));
}

/**
 * A failed TLS handshake as a message: its code and what it means, never
 * the peer's text. "Wrong version number" is what OpenSSL says when the
 * answer is not TLS at all: one plain-HTTP request (`HEAD /`, nothing of the
 * call) tells whether the port speaks plain HTTP.
 *
 * @example
 * await describeTlsFailure(wrongVersion, new URL("https://127.0.0.1:8080/"), 2000)
 * // "TLS handshake failed (ERR_SSL_WRONG_VERSION_NUMBER): the endpoint answered plain HTTP, not TLS: use its http:// URL, or the port that serves https"
 */
export async function describeTlsFailure(error: unknown, url: URL, probeTimeoutMs: number): Promise<string> {
  const code = errorCode(error) ?? "TLS";
  const said = `TLS handshake failed (${code})`;
  if (code === "ERR_SSL_WRONG_VERSION_NUMBER" || /wrong version number/i.test(String((error as Error).message))) {
    return (await answersPlainHttp(url, probeTimeoutMs))
      ? `${said}: the endpoint answered plain HTTP, not TLS: use its http:// URL, or the port that serves https`
      : `${said}: the endpoint does not answer in TLS: check the scheme and port`;
  }
  if (code === "CERT_HAS_EXPIRED" || code === "CERT_NOT_YET_VALID") return `${said}: the server's certificate is outside its validity period`;
  if (code === "ERR_TLS_CERT_ALTNAME_INVALID" || code === "HOSTNAME_MISMATCH") return `${said}: the server's certificate does not name ${url.hostname}`;
  if (CERTIFICATE_CODES.has(code)) {
    return `${said}: the server's certificate does not chain to a CA this Node.js trusts (a private CA's certificate goes in NODE_EXTRA_CA_CERTS)`;
  }
  return said;
}

/** True when `url`'s host and port answer a plain-HTTP `HEAD /` with an HTTP status line within `timeoutMs`. */
function answersPlainHttp(url: URL, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname.replace(/^\[|\]$/g, ""), port: Number(url.port || 443) });
    let head = "";
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on("error", () => done(false));
    socket.on("connect", () => socket.write(`HEAD / HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`));
    socket.on("data", (chunk: Buffer) => {
      head += chunk.toString("latin1");
      if (head.length >= 9) done(/^HTTP\/\d/.test(head));
    });
    socket.on("end", () => done(/^HTTP\/\d/.test(head)));
  });
}

/** A network failure as a message: its code only, never the URL or what undici put in its text. */
export function describeNetworkError(error: unknown): string {
  const code = errorCode(error);
  return code ? `network error (${code})` : "network error";
}
