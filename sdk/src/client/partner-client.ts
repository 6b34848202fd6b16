import { setTimeout as sleep } from "node:timers/promises";
import { isIP } from "node:net";
import type { z } from "zod";
import { encodeForm, encodeJson, type WireFields } from "./encoding.js";
import { PartnerApiError } from "./errors.js";
import { OPERATIONS, type PartnerOperation } from "./operations.js";
import { Redactor } from "./redact.js";
import { REQUESTS, type RequestOf, type RequestOperation } from "./requests.js";
import { interpretResponse, type ReadAnswer } from "./response.js";
import { nextRetryDelay, resolveRetryPolicy, type RetryPolicy } from "./retry.js";
import { RESPONSE_READERS, type Reader } from "./schemas/index.js";
import type { ReadOf } from "./schemas/read.js";
import { Transport, TransportError } from "./transport.js";
import type {
  ApplySignResult,
  CallOptions,
  CancelOrderRequest,
  CancelOrderResult,
  CertificateDownload,
  CertificateStatus,
  ChangeVerificationMethodRequest,
  ChangeVerificationMethodResult,
  CreateOrderRequest,
  CreateOrderResult,
  DownloadCertificateRequest,
  ListProductsFilter,
  OrderRef,
  PartnerApi,
  PartnerClientOptions,
  Product,
  ProductPage,
  RecordSet,
  UserData,
} from "./types.js";

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** listAllProducts stops here even if a service keeps announcing more pages. */
const MAX_PAGES = 1_000;

/**
 * Typed client of the Certificate Reseller Partner API: one method per
 * operation, camelCase types in and out, the API's own wire format
 * (snake_case, form-urlencoded by default) on the wire.
 *
 * - Requests are checked before sending (kind `invalid_argument`, naming
 *   the camelCase field and the rule) and sent under the specification's
 *   field names.
 * - Answers are read field by field, tolerantly: unknown fields are
 *   ignored, unlisted enum values pass through (see the `is…` guards of the
 *   vocabulary), a product or validation record that cannot be read is
 *   skipped and reported to `logger.warn` (the rest is returned). A read
 *   whose required fields are missing fails with kind `malformed_response`
 *   naming the wire path.
 * - Calls that already took effect when their answer arrives (CreateOrder
 *   with an `order_no`, ApplySign, ChangeVertificationMethod, CancelOrder
 *   with code 200) succeed with whatever else could be read; the rest is
 *   reported to `logger.warn`, never thrown.
 * - Only the API's own envelope decides `not_found`/`invalid_request`; an
 *   HTTP error page is `http_error` (it proves nothing about an order).
 * - Read-only calls retry network errors, timeouts, 5xx and 429 with
 *   jittered exponential backoff, honouring `retry_after`, within
 *   `retry.maxAttempts` and `retry.maxTotalMs`.
 * - `createOrder`, `applySign`, `changeVerificationMethod` and `cancelOrder`
 *   are never retried once a request may have reached the server.
 * - The API key never appears in errors, logs, `util.inspect` or JSON, and
 *   never crosses a network in clear text: `http://` is accepted only for
 *   loopback hosts unless `allowInsecureHttp` is set.
 * - One connection pool per client: call {@link PartnerClient.close} when done.
 *
 * @example
 * const client = new PartnerClient({ baseUrl: "http://127.0.0.1:8080", apiKey: process.env.CERTRESELLER_API_KEY! });
 * try {
 *   const order = await client.createOrder({ productCode: "sandbox-dv-single", domain: "example.com" });
 *   const { dnsRecords } = await client.applySign({ orderNo: order.orderNo });
 *   for (const r of dnsRecords) console.log(`${r.label}.${r.domain} ${r.recordType} ${r.value}`);
 * } catch (e) {
 *   if (e instanceof PartnerApiError && e.kind === "invalid_request") console.error(e.field, e.message);
 *   throw e;
 * } finally {
 *   await client.close();
 * }
 */
export class PartnerClient implements PartnerApi {
  readonly #baseUrl: URL;
  readonly #apiKey: string;
  readonly #keyPlacement: "body" | "header" | "bearer";
  readonly #encoding: "form" | "json";
  readonly #timeoutMs: number;
  readonly #retry: RetryPolicy;
  readonly #signal: AbortSignal | undefined;
  readonly #userAgent: string;
  readonly #onRetry: PartnerClientOptions["onRetry"];
  readonly #logger: PartnerClientOptions["logger"];
  readonly #redactor: Redactor;
  readonly #transport: Transport;
  #closed = false;

  /**
   * @throws TypeError when an option is invalid (the message names it, never the key's value).
   */
  constructor(options: PartnerClientOptions) {
    if (typeof options?.apiKey !== "string" || options.apiKey.trim() === "") {
      throw new TypeError("PartnerClient: apiKey must be a non-empty string");
    }
    this.#apiKey = options.apiKey;
    this.#redactor = new Redactor(options.apiKey);
    this.#baseUrl = parseBaseUrl(options.baseUrl, options.allowInsecureHttp ?? false, this.#redactor);
    this.#keyPlacement = oneOf("keyPlacement", options.keyPlacement ?? "body", ["body", "header", "bearer"]);
    this.#encoding = oneOf("encoding", options.encoding ?? "form", ["form", "json"]);
    this.#timeoutMs = positiveMs("timeoutMs", options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.#retry = resolveRetryPolicy(options.retry);
    this.#signal = options.signal;
    this.#userAgent = options.userAgent ?? `pulumi-certreseller (node ${process.versions.node})`;
    this.#onRetry = options.onRetry;
    this.#logger = options.logger;
    const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (!Number.isInteger(maxResponseBytes) || maxResponseBytes <= 0) throw new TypeError("PartnerClient: maxResponseBytes must be a positive whole number of bytes");
    this.#transport = new Transport(Math.min(this.#timeoutMs, 10_000), maxResponseBytes);
  }

  /**
   * The account, its money and the key behind the API key (GetUserData, spec 2.1). Read-only, retried.
   * @example const { user, account } = await client.getUserData(); console.log(user.username, account.totalAvailable);
   */
  getUserData(options?: CallOptions): Promise<UserData> {
    return this.#call("GetUserData", {}, RESPONSE_READERS.GetUserData, options);
  }

  /**
   * One page of the product list (GetUserProduct). Read-only, retried. A
   * product that cannot be read is left out of `items` and reported to
   * `logger.warn` (`skipped data.products.items[i] (product_code "…"): <rule>`).
   * @example const page = await client.listProducts({ verificationType: "dv", limit: 50 });
   */
  listProducts(filter: ListProductsFilter = {}, options?: CallOptions): Promise<ProductPage> {
    return this.#send("GetUserProduct", filter, options);
  }

  /**
   * Every product matching `filter`, walking all pages (`limit` per page, default 500).
   * @example const products = await client.listAllProducts({ brandCode: "sandbox" });
   */
  async listAllProducts(filter: Omit<ListProductsFilter, "page"> = {}, options?: CallOptions): Promise<Product[]> {
    const items: Product[] = [];
    const limit = filter.limit ?? 500;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const result = await this.listProducts({ ...filter, limit, page }, options);
      items.push(...result.items);
      if (result.items.length === 0 || page >= result.totalPages) return items;
    }
    throw new PartnerApiError(`GetUserProduct: the product list announces more than ${MAX_PAGES} pages`, {
      kind: "malformed_response",
      operation: "GetUserProduct",
      field: "data.products.total_pages",
      mayHaveReachedServer: true,
    });
  }

  /**
   * Buys a certificate (CreateOrder, spec 4.3). **Charges the account at
   * once** and is never retried once the request may have reached the server:
   * on an error with `mayHaveReachedServer`, the order may exist — see the
   * error's `orderNo`. An answer that gives the `order_no` is a success:
   * price fields that are missing or unreadable are left out of the result
   * and reported to `logger.warn`.
   * @example const order = await client.createOrder({ productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["www.example.com"] });
   */
  createOrder(request: CreateOrderRequest, options?: CallOptions): Promise<CreateOrderResult> {
    return this.#send("CreateOrder", request, options);
  }

  /**
   * Submits the order for issuance (ApplySign, spec 4.4; cert status 0 or 3 → 2) and
   * returns the validation records. Never retried. A code-200 answer is a
   * success: a record that cannot be read is skipped, a missing field left
   * out (`orderNo` then is the requested one), each reported to `logger.warn`.
   * @example const { requestId, dnsRecords, httpRecords } = await client.applySign({ orderNo });
   */
  async applySign(request: OrderRef, options?: CallOptions): Promise<ApplySignResult> {
    const result = await this.#send("ApplySign", request, options);
    return { ...result, orderNo: result.orderNo ?? request.orderNo };
  }

  /**
   * The stored validation records and the order's domains (GetRecord, spec
   * 4.6; the lists are empty before ApplySign). Read-only, retried. A record
   * that cannot be read is skipped and reported to `logger.warn`.
   * @example const { dnsRecords, allDomains } = await client.getRecord({ orderNo });
   */
  getRecord(request: OrderRef, options?: CallOptions): Promise<RecordSet> {
    return this.#send("GetRecord", request, options);
  }

  /**
   * Switches the validation method (ChangeVertificationMethod, spec 4.5; cert
   * status 2 only, at most once per 5 minutes). New tokens: publish the
   * returned records. Sends `email_suffix` empty (the `email-<suffix>` codes
   * name the mailbox). Never retried; a code-200 answer is a success, read
   * as ApplySign's.
   * @example const { httpRecords } = await client.changeVerificationMethod({ orderNo, method: "file" });
   */
  async changeVerificationMethod(request: ChangeVerificationMethodRequest, options?: CallOptions): Promise<ChangeVerificationMethodResult> {
    const result = await this.#send("ChangeVertificationMethod", request, options);
    return { ...result, orderNo: result.orderNo ?? request.orderNo };
  }

  /**
   * Cancels an order and refunds it (CancelOrder, spec 4.7; within 7 days of
   * payment, once). Never retried. A code-200 answer means the refund was
   * made: it is a success with whatever refund fields could be read (the
   * rest reported to `logger.warn`; `orderNo` defaults to the requested one).
   * `reason` is at most 200 characters and sent empty when not given.
   * @example const result = await client.cancelOrder({ orderNo, reason: "stack destroyed" });
   */
  async cancelOrder(request: CancelOrderRequest, options?: CallOptions): Promise<CancelOrderResult> {
    const result = await this.#send("CancelOrder", request, options);
    return { ...result, orderNo: result.orderNo ?? request.orderNo };
  }

  /**
   * Order and certificate state (GetCertificateStatus). Limited to one read per
   * order per 180 s: a 429 whose `retryAfter` exceeds the retry budget is
   * surfaced at once (kind `rate_limited`) for the caller to schedule.
   * @example const status = await client.getCertificateStatus({ orderNo });
   */
  getCertificateStatus(request: OrderRef, options?: CallOptions): Promise<CertificateStatus> {
    return this.#send("GetCertificateStatus", request, options);
  }

  /**
   * PEM material of an issued certificate (DownloadCertificate; cert status 1
   * only): the earliest issued one, or the one `certId` or `installmentNo` picks.
   * The result holds the private key: treat it as a secret. Read-only, retried.
   * @example const { certificate } = await client.downloadCertificate({ orderNo });
   */
  downloadCertificate(request: DownloadCertificateRequest, options?: CallOptions): Promise<CertificateDownload> {
    return this.#send("DownloadCertificate", request, options);
  }

  /**
   * Closes the connection pool (waits for calls in flight). Later calls fail with kind `aborted`.
   * @example await client.close();
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#transport.close();
  }

  /** What `util.inspect` shows: never the key. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `PartnerClient { baseUrl: '${this.#baseUrl.href}', keyPlacement: '${this.#keyPlacement}', encoding: '${this.#encoding}', apiKey: '[redacted]' }`;
  }

  /** What `JSON.stringify` shows: never the key. @example JSON.stringify(client) */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.#baseUrl.href, keyPlacement: this.#keyPlacement, encoding: this.#encoding, apiKey: "[redacted]" };
  }

  /**
   * The request checked by its operation's schema and encoded under wire
   * names, or the error naming the first field at fault. Typed by the
   * operation's request, and still checked at run time (JavaScript callers).
   */
  #checked<Op extends RequestOperation>(operation: Op, input: RequestOf<Op>): WireFields | PartnerApiError {
    const schema: z.ZodType<WireFields, unknown> = REQUESTS[operation];
    const parsed = schema.safeParse(input);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    let field = issue.path.map((s, i) => (typeof s === "number" ? `[${s}]` : i === 0 ? String(s) : `.${String(s)}`)).join("");
    let rule = issue.message;
    if (issue.code === "unrecognized_keys") {
      field = [field, issue.keys[0]].filter(Boolean).join(".");
      rule = "is not a known field";
    } else if (field === "") {
      field = "(request)";
      rule = "must be an object";
    }
    return new PartnerApiError(this.#redactor.text(`${operation}: invalid request: ${field} ${rule}`), {
      kind: "invalid_argument",
      operation,
      field,
      mayHaveReachedServer: false,
    });
  }

  /**
   * Runs a caller-supplied hook. A throwing logger must not turn an answered
   * call (possibly a paid CreateOrder) into a failure, so hook errors are dropped.
   */
  #notify(hook: () => void): void {
    try {
      hook();
    } catch {
      // deliberately ignored: see above
    }
  }

  /** An operation's call: the request checked and encoded by its schema, the answer read by its reader. */
  #send<Op extends RequestOperation>(operation: Op, request: RequestOf<Op>, options: CallOptions | undefined): Promise<ReadOf<(typeof RESPONSE_READERS)[Op]>> {
    return this.#call(operation, this.#checked(operation, request), RESPONSE_READERS[operation] as Reader<ReadOf<(typeof RESPONSE_READERS)[Op]>>, options);
  }

  async #call<T>(
    operation: PartnerOperation,
    fields: WireFields | PartnerApiError,
    reader: Reader<T>,
    options: CallOptions = {},
  ): Promise<T> {
    if (fields instanceof PartnerApiError) throw fields;
    const signals = [options.signal, this.#signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length === 1 ? signals[0]! : AbortSignal.any(signals);
    if (options.timeoutMs !== undefined && !(Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)) {
      throw new PartnerApiError(`${operation}: invalid call options: timeoutMs must be a positive number of milliseconds`, {
        kind: "invalid_argument",
        operation,
        field: "options.timeoutMs",
        mayHaveReachedServer: false,
      });
    }
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const spec = OPERATIONS[operation];
    const started = performance.now();
    // Whether any earlier attempt of this call may have reached the server.
    let reached = false;
    for (let attempt = 1; ; attempt++) {
      if (this.#closed || signal.aborted) {
        throw new PartnerApiError(`${operation}: ${this.#closed ? "the client is closed" : "the call was aborted"} before sending`, {
          kind: "aborted",
          operation,
          mayHaveReachedServer: reached,
          attempts: attempt - 1,
          cause: this.#redactor.error(signal.reason),
        });
      }
      let error: PartnerApiError;
      try {
        // A retry never runs past the call's total budget (the first attempt gets its full timeout).
        const remainingMs = this.#retry.maxTotalMs - (performance.now() - started);
        const attemptTimeoutMs = attempt === 1 ? timeoutMs : Math.max(1, Math.min(timeoutMs, remainingMs));
        const answer = await this.#attempt(operation, fields, reader, attemptTimeoutMs, signal);
        for (const warning of answer.warnings) this.#notify(() => this.#logger?.warn?.(this.#redactor.text(`${operation}: ${warning}`)));
        return answer.value;
      } catch (caught) {
        if (!(caught instanceof PartnerApiError)) throw caught;
        error = caught;
      }
      reached ||= error.mayHaveReachedServer;
      const elapsedMs = performance.now() - started;
      // The money-safety rule (no retry of a state-changing call that may have reached the server) lives in nextRetryDelay.
      const delayMs = nextRetryDelay(this.#retry, { error, attempt, elapsedMs, changesState: spec.changesState });
      if (delayMs === undefined) {
        if (attempt === 1) throw error;
        this.#notify(() => this.#logger?.warn?.(`${operation}: giving up after ${attempt} attempts (${describe(error)})`));
        throw error.withAttempts(attempt, reached);
      }
      this.#notify(() => this.#logger?.debug?.(`${operation}: attempt ${attempt} failed (${describe(error)}); retrying in ${delayMs} ms`));
      this.#notify(() => this.#onRetry?.({ operation, attempt, delayMs, error }));
      try {
        await sleep(delayMs, undefined, { signal });
      } catch {
        throw new PartnerApiError(`${operation}: the call was aborted while waiting to retry (${describe(error)})`, {
          kind: "aborted",
          operation,
          mayHaveReachedServer: reached,
          attempts: attempt,
          cause: error,
        });
      }
    }
  }

  async #attempt<T>(
    operation: PartnerOperation,
    fields: WireFields,
    reader: Reader<T>,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<ReadAnswer<T>> {
    const withKey: WireFields = this.#keyPlacement === "body" ? { ...fields, apikey: this.#apiKey } : fields;
    const { contentType, body } = this.#encoding === "json" ? encodeJson(withKey) : encodeForm(withKey);
    const headers: Record<string, string> = { "content-type": contentType, accept: "application/json", "user-agent": this.#userAgent };
    if (this.#keyPlacement === "header") headers["x-api-key"] = this.#apiKey;
    if (this.#keyPlacement === "bearer") headers.authorization = `Bearer ${this.#apiKey}`;
    const url = new URL(OPERATIONS[operation].path, this.#baseUrl);
    const started = performance.now();
    let response;
    try {
      response = await this.#transport.post({ url, headers, body, timeoutMs, signal });
    } catch (caught) {
      if (!(caught instanceof TransportError)) throw caught;
      throw new PartnerApiError(this.#redactor.text(`${operation}: ${caught.message} (${url.origin})`), {
        kind: caught.kind,
        operation,
        mayHaveReachedServer: caught.mayHaveReachedServer,
        cause: this.#redactor.error(caught.cause),
      });
    }
    const requestId = response.headers["x-request-id"];
    this.#notify(() =>
      this.#logger?.debug?.(
        this.#redactor.text(
          `${operation}: HTTP ${response.status} in ${Math.round(performance.now() - started)} ms${typeof requestId === "string" ? ` (request ${requestId})` : ""}`,
        ),
      ),
    );
    return interpretResponse(operation, response, reader, this.#redactor);
  }
}

function describe(error: PartnerApiError): string {
  const status = error.code ?? error.httpStatus;
  return status === undefined ? error.kind : `${error.kind}, code ${status}`;
}

function parseBaseUrl(value: string | URL, allowInsecureHttp: boolean, redactor: Redactor): URL {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new TypeError(redactor.text(`PartnerClient: baseUrl must be an absolute http(s) URL, got ${JSON.stringify(String(value))}`));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError("PartnerClient: baseUrl must use http or https");
  if (url.username || url.password) throw new TypeError("PartnerClient: baseUrl must not contain credentials");
  if (typeof allowInsecureHttp !== "boolean") throw new TypeError("PartnerClient: allowInsecureHttp must be a boolean");
  // Every request carries the API key: plain HTTP only where it cannot leave the machine.
  if (url.protocol === "http:" && !allowInsecureHttp && !isLoopback(url.hostname)) {
    throw new TypeError(
      `PartnerClient: baseUrl ${url.origin} uses plain http on a host that is not loopback; the API key would cross the network in clear text. Use https, or pass allowInsecureHttp: true`,
    );
  }
  // Operations resolve relative to the base: keep a trailing slash so a path prefix (/api/) is preserved.
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  url.search = "";
  url.hash = "";
  return url;
}

/**
 * 127.0.0.0/8, ::1 (also as IPv4-mapped ::ffff:127.x) and `localhost`.
 * `hostname` is as the WHATWG URL parser writes it (IPv6 in brackets and
 * compressed, IPv4 in dotted decimal). Subdomains of localhost are not
 * trusted: a resolver may send them to DNS.
 */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase().replace(/\.$/, "");
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  if (host === "::1") return true;
  // The URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
  return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
}

function oneOf<const T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new TypeError(`PartnerClient: ${name} must be one of ${allowed.join(", ")}`);
  return value as T;
}

function positiveMs(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`PartnerClient: ${name} must be a positive number of milliseconds`);
  return value;
}
