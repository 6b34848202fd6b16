/**
 * Options of the Partner API client: how it is built (`PartnerClientOptions`,
 * its retry policy and logger) and per-call options. Handwritten: they are
 * the client's own, not the API's wire format.
 */
import type { PartnerApiError } from "./errors.js";
import type { PartnerOperation } from "./operations.js";

/**
 * Retry policy for read-only operations (network errors, 5xx, 429).
 * State-changing operations are never retried once a request may have reached
 * the server, whatever this says.
 *
 * @example
 * new PartnerClient({ baseUrl, apiKey, retry: { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 2_000, maxTotalMs: 20_000 } });
 */
export interface RetryOptions {
  /** Total attempts including the first (1 disables retries). Default 4. */
  maxAttempts?: number;
  /** First backoff ceiling; doubles per attempt (full jitter). Default 250 ms. */
  baseDelayMs?: number;
  /** Upper bound of one backoff delay (a server's `retry_after` may exceed it, within `maxTotalMs`). Default 5 000 ms. */
  maxDelayMs?: number;
  /** Budget for all attempts and waits of one call; no retry starts past it. Default 30 000 ms. */
  maxTotalMs?: number;
}

/**
 * What the client reports before it waits for a retry.
 *
 * @example
 * onRetry: (e) => console.log(`${e.operation}: attempt ${e.attempt} failed (${e.error.kind}), retrying in ${e.delayMs} ms`)
 */
export interface RetryEvent {
  operation: PartnerOperation;
  /** The attempt that just failed (1-based). */
  attempt: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** Why the attempt failed (already redacted). */
  error: PartnerApiError;
}

/**
 * Optional sink for the client's progress lines. Messages never contain the
 * API key or a request/response body.
 *
 * `warn` also receives what tolerant reading left out of an answer: a product
 * or validation record that could not be read (skipped, the rest returned),
 * or a field of a successful CreateOrder/ApplySign/ChangeVertificationMethod/
 * CancelOrder answer that was missing or unreadable (left absent). Each line
 * names the operation and the wire path, e.g.
 * `GetUserProduct: skipped data.products.items[3]: domain_type_code: expected a string`.
 *
 * @example
 * new PartnerClient({ baseUrl, apiKey, logger: { debug: (m) => pulumi.log.debug(m), warn: (m) => pulumi.log.warn(m) } });
 */
export interface PartnerClientLogger {
  debug?(message: string): void;
  warn?(message: string): void;
}

/**
 * Options of {@link PartnerClient}.
 *
 * @example
 * const client = new PartnerClient({
 *   baseUrl: "https://partner.example.com",
 *   apiKey: process.env.CERTRESELLER_API_KEY!,
 *   keyPlacement: "header",
 *   timeoutMs: 15_000,
 * });
 */
export interface PartnerClientOptions {
  /**
   * Service root; operations are `POST {baseUrl}/partner/<Name>/`. Must be
   * `https://`, or `http://` on a loopback host (127.0.0.0/8, `::1`,
   * `localhost`) unless {@link PartnerClientOptions.allowInsecureHttp} is set.
   */
  baseUrl: string | URL;
  /**
   * Accept a plain `http://` base URL on a non-loopback host. Off by default:
   * every request carries the API key, which must not cross a network in
   * clear text.
   */
  allowInsecureHttp?: boolean;
  /** `app_id:api_secret` (or the secret alone). Never echoed anywhere by the client. */
  apiKey: string;
  /**
   * Where the key travels: the body field `apikey` (default), the `X-API-Key`
   * header, or `Authorization: Bearer` (for gateways that strip unknown headers
   * and must not see bodies).
   */
  keyPlacement?: "body" | "header" | "bearer";
  /** Body encoding: `application/x-www-form-urlencoded` (default) or JSON. */
  encoding?: "form" | "json";
  /** Per-attempt timeout covering connect, send and the whole response. Default 30 000 ms. */
  timeoutMs?: number;
  /**
   * Largest answer body accepted, in bytes; a bigger one fails as
   * `malformed_response` without being buffered. Default 8 MiB (a 500-product
   * page is about 1 MiB).
   */
  maxResponseBytes?: number;
  /** Retry policy for read-only operations, or `false` for none. */
  retry?: RetryOptions | false;
  /** Aborts every call of this client (e.g. on shutdown). */
  signal?: AbortSignal;
  /** `User-Agent` header. Default `pulumi-certreseller/<version>`. */
  userAgent?: string;
  /** Called before every retry wait. */
  onRetry?: (event: RetryEvent) => void;
  /** Progress lines (requests, retries). */
  logger?: PartnerClientLogger;
}

/**
 * Per-call options.
 *
 * @example
 * await client.getRecord({ orderNo }, { timeoutMs: 5_000, signal: AbortSignal.timeout(60_000) });
 */
export interface CallOptions {
  /** Aborts this call (and its retries). */
  signal?: AbortSignal;
  /** Per-attempt timeout for this call, overriding the client's. */
  timeoutMs?: number;
}

