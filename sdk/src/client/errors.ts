import type { PartnerOperation } from "./operations.js";

/**
 * Why a Partner API call failed.
 *
 * The API-code kinds (`invalid_request` … `server`) are used only when the
 * body is the Partner API's own JSON envelope carrying that `code`: only the
 * API itself can say that an order does not exist or a request was refused.
 * An HTTP error status whose body is not the envelope (a reverse proxy's or
 * gateway's HTML error page) is `http_error`: it proves nothing about the
 * order.
 *
 * | kind | when |
 * |---|---|
 * | `invalid_argument` | the client refused the request before sending it (names the field and rule) |
 * | `invalid_request` | API envelope code 400: bad parameters, wrong state, insufficient funds, unsupported option |
 * | `unauthorized` | API envelope code 401: invalid API key |
 * | `forbidden` | API envelope code 403: key disabled/expired, IP not allowed, account banned |
 * | `not_found` | API envelope code 404: no such order/product for this key |
 * | `method_not_allowed` | API envelope code 405 |
 * | `rate_limited` | API envelope code 429, or HTTP 429 from anyone (see `retryAfter`) |
 * | `server` | API envelope code 5xx, or a code the API does not document |
 * | `http_error` | an HTTP error status (see `httpStatus`) without the API envelope — an error page, not the API: proves nothing about the order. Retried for read-only calls when 5xx |
 * | `network` | connection refused/reset, DNS… |
 * | `tls` | the TLS handshake failed: the endpoint answered plain HTTP (or something else than TLS), or its certificate is not trusted, expired or for another name. A configuration error (`baseUrl`), never retried; nothing was sent |
 * | `timeout` | no complete answer within the per-attempt timeout |
 * | `aborted` | the caller's signal fired, or the client was closed |
 * | `malformed_response` | HTTP 2xx but not JSON, not the envelope, or `data` breaks the contract (see `field`) |
 *
 * @example
 * try { await client.getRecord({ orderNo }); }
 * catch (e) { if (e instanceof PartnerApiError && e.kind === "not_found") return undefined; throw e; }
 */
export type PartnerErrorKind =
  | "invalid_argument"
  | "invalid_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "rate_limited"
  | "server"
  | "http_error"
  | "network"
  | "tls"
  | "timeout"
  | "aborted"
  | "malformed_response";

/**
 * Everything a {@link PartnerApiError} carries besides its message.
 *
 * @example
 * const init: PartnerApiErrorInit = { kind: "not_found", operation: "GetRecord", code: 404, httpStatus: 200, mayHaveReachedServer: true };
 */
export interface PartnerApiErrorInit {
  kind: PartnerErrorKind;
  operation: PartnerOperation;
  /** The API's `code` from the envelope, when one was read. */
  code?: number | undefined;
  /** The HTTP status, when a response arrived. */
  httpStatus?: number | undefined;
  /** Seconds the service asks to wait (`data.retry_after`). */
  retryAfter?: number | undefined;
  /** `data.cooldown_seconds` of a rate-limited status read. */
  cooldownSeconds?: number | undefined;
  /** `X-Request-Id` header or envelope `request_id`. */
  requestId?: string | undefined;
  /** The request field at fault (`data.field`), or the response field that broke the contract. */
  field?: string | undefined;
  /** The order concerned, when known — for CreateOrder, read from the answer even if it failed validation. */
  orderNo?: string | undefined;
  /**
   * False only when the request provably never left this process or was
   * refused before any byte was sent (e.g. connection refused, invalid
   * argument). When true, a state-changing call may have taken effect.
   */
  mayHaveReachedServer: boolean;
  /** How many attempts were made (1 unless retried). */
  attempts?: number | undefined;
  /** The underlying error, already redacted. */
  cause?: unknown;
}

/**
 * The one error type of the Partner API client. Tell failures apart with
 * `kind`; `mayHaveReachedServer` says whether a state-changing call might
 * have taken effect (money moved) despite the error.
 *
 * The API key never appears in its message, stack, `cause`, inspect output or
 * JSON.
 *
 * @example
 * try {
 *   await client.createOrder(req);
 * } catch (e) {
 *   if (e instanceof PartnerApiError && e.mayHaveReachedServer) {
 *     // the account may have been charged: record e.orderNo if present, do not retry blindly
 *   }
 *   throw e;
 * }
 */
// Marks instances across copies of this package (a Pulumi provider may load an
// older copy for resources it created), where `instanceof` would say no.
const BRAND = Symbol.for("pulumi-certreseller.PartnerApiError");

export class PartnerApiError extends Error {
  override readonly name = "PartnerApiError";
  declare readonly [BRAND]: true;
  readonly kind: PartnerErrorKind;
  readonly operation: PartnerOperation;
  readonly code: number | undefined;
  readonly httpStatus: number | undefined;
  readonly retryAfter: number | undefined;
  readonly cooldownSeconds: number | undefined;
  readonly requestId: string | undefined;
  readonly field: string | undefined;
  readonly orderNo: string | undefined;
  readonly mayHaveReachedServer: boolean;
  readonly attempts: number;

  constructor(message: string, init: PartnerApiErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.operation = init.operation;
    this.code = init.code;
    this.httpStatus = init.httpStatus;
    this.retryAfter = init.retryAfter;
    this.cooldownSeconds = init.cooldownSeconds;
    this.requestId = init.requestId;
    this.field = init.field;
    this.orderNo = init.orderNo;
    this.mayHaveReachedServer = init.mayHaveReachedServer;
    this.attempts = init.attempts ?? 1;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /**
   * A copy that records how many attempts were made, and whether any of them
   * may have reached the server (an earlier attempt may have, even when the
   * last one provably did not).
   * @example err.withAttempts(3, true).attempts === 3
   */
  withAttempts(attempts: number, anyReachedServer = this.mayHaveReachedServer): PartnerApiError {
    const copy = new PartnerApiError(this.message, { ...this.init(), attempts, mayHaveReachedServer: this.mayHaveReachedServer || anyReachedServer });
    copy.stack = this.stack;
    return copy;
  }

  /** Plain fields for logs and JSON (no stack; `cause` reduced to name and message). @example JSON.stringify(err) */
  toJSON(): Record<string, unknown> {
    const cause = this.cause instanceof Error ? { name: this.cause.name, message: this.cause.message } : this.cause;
    return { name: this.name, message: this.message, ...this.init(), cause };
  }

  private init(): PartnerApiErrorInit {
    return {
      kind: this.kind,
      operation: this.operation,
      code: this.code,
      httpStatus: this.httpStatus,
      retryAfter: this.retryAfter,
      cooldownSeconds: this.cooldownSeconds,
      requestId: this.requestId,
      field: this.field,
      orderNo: this.orderNo,
      mayHaveReachedServer: this.mayHaveReachedServer,
      attempts: this.attempts,
      cause: this.cause,
    };
  }
}

/**
 * True when `value` is a {@link PartnerApiError} (also one from another copy of
 * this package), optionally of one of `kinds`.
 *
 * @example
 * if (isPartnerApiError(e, "rate_limited")) await sleep((e.retryAfter ?? 1) * 1000);
 */
export function isPartnerApiError(value: unknown, ...kinds: PartnerErrorKind[]): value is PartnerApiError {
  const branded = value instanceof PartnerApiError || (value instanceof Error && (value as { [BRAND]?: unknown })[BRAND] === true);
  return branded && (kinds.length === 0 || kinds.includes((value as PartnerApiError).kind));
}
