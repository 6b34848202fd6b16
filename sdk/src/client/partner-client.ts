import { setTimeout as sleep } from "node:timers/promises";
import type { z } from "zod";
import { encodeForm, encodeJson, type WireFields } from "./encoding.js";
import { PartnerApiError } from "./errors.js";
import { OPERATIONS } from "./operations.js";
import { Redactor } from "./redact.js";
import {
  cancelOrderInput,
  changeVerificationMethodInput,
  createOrderInput,
  downloadCertificateInput,
  listProductsInput,
  orderRefInput,
} from "./requests.js";
import { interpretResponse } from "./response.js";
import { nextRetryDelay, resolveRetryPolicy, type RetryPolicy } from "./retry.js";
import { RESPONSE_SCHEMAS } from "./schemas/index.js";
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
  PartnerOperation,
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
 * - Every response is validated; contract breaks fail with kind
 *   `malformed_response` naming the field.
 * - Read-only calls retry network errors, timeouts, 5xx and 429 with
 *   jittered exponential backoff, honouring `retry_after`, within
 *   `retry.maxAttempts` and `retry.maxTotalMs`.
 * - `createOrder`, `applySign`, `changeVerificationMethod` and `cancelOrder`
 *   are never retried once a request may have reached the server.
 * - The API key never appears in errors, logs, `util.inspect` or JSON.
 * - One connection pool per client: call {@link PartnerClient.close} when done.
 *
 * @example
 * const client = new PartnerClient({ baseUrl: "http://127.0.0.1:8080", apiKey: process.env.CERTRESELLER_API_KEY! });
 * try {
 *   const order = await client.createOrder({ productCode: "sandbox-dv-single", domain: "example.com" });
 *   const { records } = await client.applySign({ orderNo: order.orderNo });
 *   console.log(records);
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
    this.#baseUrl = parseBaseUrl(options.baseUrl, this.#redactor);
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
   * The account and key behind the API key (GetUserData). Read-only, retried.
   * @example const { user } = await client.getUserData(); console.log(user.totalAvailable);
   */
  getUserData(options?: CallOptions): Promise<UserData> {
    return this.#call("GetUserData", {}, RESPONSE_SCHEMAS.GetUserData, options);
  }

  /**
   * One page of the product list (GetUserProduct). Read-only, retried.
   * @example const page = await client.listProducts({ verificationType: "dv", limit: 50 });
   */
  listProducts(filter: ListProductsFilter = {}, options?: CallOptions): Promise<ProductPage> {
    return this.#call("GetUserProduct", this.#checked("GetUserProduct", listProductsInput, filter), RESPONSE_SCHEMAS.GetUserProduct, options);
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
   * Buys a certificate (CreateOrder). **Charges the account at once** and is
   * never retried once the request may have reached the server: on an error
   * with `mayHaveReachedServer`, the order may exist — see the error's `orderNo`.
   * @example const order = await client.createOrder({ productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["www.example.com"] });
   */
  createOrder(request: CreateOrderRequest, options?: CallOptions): Promise<CreateOrderResult> {
    return this.#call("CreateOrder", this.#checked("CreateOrder", createOrderInput, request), RESPONSE_SCHEMAS.CreateOrder, options);
  }

  /**
   * Submits the order for issuance (ApplySign; cert status 0 or 3 → 2) and returns the validation records. Never retried.
   * @example const { requestId, records } = await client.applySign({ orderNo });
   */
  applySign(request: OrderRef, options?: CallOptions): Promise<ApplySignResult> {
    return this.#call("ApplySign", this.#checked("ApplySign", orderRefInput, request), RESPONSE_SCHEMAS.ApplySign, options);
  }

  /**
   * The stored validation records (GetRecord; empty before ApplySign). Read-only, retried.
   * @example const { records } = await client.getRecord({ orderNo });
   */
  getRecord(request: OrderRef, options?: CallOptions): Promise<RecordSet> {
    return this.#call("GetRecord", this.#checked("GetRecord", orderRefInput, request), RESPONSE_SCHEMAS.GetRecord, options);
  }

  /**
   * Switches the validation method (ChangeVertificationMethod; cert status 2 only,
   * at most once per 5 minutes). New tokens: publish the returned records. Never retried.
   * @example await client.changeVerificationMethod({ orderNo, method: "email", emailSuffix: "admin" });
   */
  changeVerificationMethod(request: ChangeVerificationMethodRequest, options?: CallOptions): Promise<ChangeVerificationMethodResult> {
    return this.#call(
      "ChangeVertificationMethod",
      this.#checked("ChangeVertificationMethod", changeVerificationMethodInput, request),
      RESPONSE_SCHEMAS.ChangeVertificationMethod,
      options,
    );
  }

  /**
   * Cancels an order and refunds it (CancelOrder; within 7 days of payment, once). Never retried.
   * @example const result = await client.cancelOrder({ orderNo, reason: "stack destroyed" });
   */
  cancelOrder(request: CancelOrderRequest, options?: CallOptions): Promise<CancelOrderResult> {
    return this.#call("CancelOrder", this.#checked("CancelOrder", cancelOrderInput, request), RESPONSE_SCHEMAS.CancelOrder, options);
  }

  /**
   * Order and certificate state (GetCertificateStatus). Limited to one read per
   * order per 180 s: a 429 whose `retryAfter` exceeds the retry budget is
   * surfaced at once (kind `rate_limited`) for the caller to schedule.
   * @example const status = await client.getCertificateStatus({ orderNo });
   */
  getCertificateStatus(request: OrderRef, options?: CallOptions): Promise<CertificateStatus> {
    return this.#call(
      "GetCertificateStatus",
      this.#checked("GetCertificateStatus", orderRefInput, request),
      RESPONSE_SCHEMAS.GetCertificateStatus,
      options,
    );
  }

  /**
   * PEM material of an issued certificate (DownloadCertificate; cert status 1 only).
   * The result holds the private key: treat it as a secret. Read-only, retried.
   * @example const { certificate } = await client.downloadCertificate({ orderNo });
   */
  downloadCertificate(request: DownloadCertificateRequest, options?: CallOptions): Promise<CertificateDownload> {
    return this.#call(
      "DownloadCertificate",
      this.#checked("DownloadCertificate", downloadCertificateInput, request),
      RESPONSE_SCHEMAS.DownloadCertificate,
      options,
    );
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

  #checked(operation: PartnerOperation, schema: z.ZodType<WireFields, unknown>, input: unknown): WireFields | PartnerApiError {
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

  async #call<T>(
    operation: PartnerOperation,
    fields: WireFields | PartnerApiError,
    schema: z.ZodType<T, unknown>,
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
        return await this.#attempt(operation, fields, schema, attemptTimeoutMs, signal);
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
    schema: z.ZodType<T, unknown>,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<T> {
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
    return interpretResponse(operation, response, schema, this.#redactor);
  }
}

function describe(error: PartnerApiError): string {
  const status = error.code ?? error.httpStatus;
  return status === undefined ? error.kind : `${error.kind}, code ${status}`;
}

function parseBaseUrl(value: string | URL, redactor: Redactor): URL {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new TypeError(redactor.text(`PartnerClient: baseUrl must be an absolute http(s) URL, got ${JSON.stringify(String(value))}`));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError("PartnerClient: baseUrl must use http or https");
  if (url.username || url.password) throw new TypeError("PartnerClient: baseUrl must not contain credentials");
  // Operations resolve relative to the base: keep a trailing slash so a path prefix (/api/) is preserved.
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  url.search = "";
  url.hash = "";
  return url;
}

function oneOf<const T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new TypeError(`PartnerClient: ${name} must be one of ${allowed.join(", ")}`);
  return value as T;
}

function positiveMs(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`PartnerClient: ${name} must be a positive number of milliseconds`);
  return value;
}
