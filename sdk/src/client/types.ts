/**
 * Public, camelCase types of the Partner API client.
 *
 * They mirror the specification field by field: every wire field
 * `snake_case` is the camelCase member here (`order_no` → `orderNo`,
 * `upstream_cancel.upstream_code` → `upstreamCancel.upstreamCode`), nested
 * where the wire nests. Money is always a {@link Money} string, never a float;
 * date-times stay strings in the service's format. Allowed values come from
 * `vocabulary.ts`; values an answer may carry beyond them are typed
 * `Open<…>` / `OpenInt<…>` and passed through.
 *
 * Where the pieces are: request checks and their mapping to wire names in
 * `requests.ts`, response readers in `schemas/`, the allowed values in
 * `vocabulary.ts`.
 */
import type {
  CertStatus,
  CouponType,
  DnsRecordType,
  DomainTypeCode,
  HashAlgorithm,
  HttpRecordType,
  KeySpec,
  Open,
  OpenInt,
  OrderStatus,
  PaymentMethod,
  PriceSource,
  RecordScope,
  RefundMode,
  RefundStatus,
  RefundTarget,
  SignatureAlgorithm,
  UserStatus,
  VerificationMethod,
  VerificationTypeCode,
} from "./vocabulary.js";

// The allowed values (and the CertStatus/OrderStatus/... constants) are part of this module's surface too.
export * from "./vocabulary.js";

// ---------------------------------------------------------------------------
// Scalars and operations
// ---------------------------------------------------------------------------

/**
 * A monetary amount as a decimal string with exactly two places.
 *
 * The specification sends amounts as JSON numbers (`120`, `120.5`); a
 * string (`"120.50"`) is accepted too. Both are normalised to `"120.50"`, so
 * money never goes through float arithmetic beyond reading the number.
 *
 * @example
 * const total: Money | undefined = order.totalAmount; // "120.00"
 */
export type Money = string;

/**
 * A date-time as the service sends it: `YYYY-MM-DD HH:MM:SS` (e.g.
 * `serverTime`), or ISO 8601 with a UTC offset where the service says so
 * (`fetchedAt`, `checkedAt`).
 *
 * @example
 * const now: DateTimeString = (await client.getUserData()).serverTime;
 */
export type DateTimeString = string;

/**
 * The nine Partner API operations, named as the service's paths name them.
 * The product list, status and download paths are `GetUserProduct`,
 * `GetCertificateStatus` and `DownloadCertificate`.
 *
 * @example
 * const op: PartnerOperation = "ChangeVertificationMethod";
 */
export type PartnerOperation =
  | "GetUserData"
  | "GetUserProduct"
  | "CreateOrder"
  | "ApplySign"
  | "GetRecord"
  | "ChangeVertificationMethod"
  | "CancelOrder"
  | "GetCertificateStatus"
  | "DownloadCertificate";

// ---------------------------------------------------------------------------
// Client construction and per-call options
// ---------------------------------------------------------------------------

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
  error: import("./errors.js").PartnerApiError;
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

// ---------------------------------------------------------------------------
// GetUserData (spec 2.1, 4.1)
// ---------------------------------------------------------------------------

/**
 * Identity of the account behind the API key (`data.user`, spec 2.1).
 *
 * @example
 * const { user } = await client.getUserData();
 * if (user.status !== UserStatus.Normal) console.warn(user.statusText);
 */
export interface AccountUser {
  id: number;
  userId: string;
  username: string;
  /** See {@link UserStatus}; an unlisted value is passed through. */
  status: OpenInt<UserStatus>;
  statusText: string;
  userType: string;
  partnerLevel: number;
  /** `null` when no phone is bound. */
  boundPhone: string | null;
  /** `null` when no e-mail is bound. */
  boundEmail: string | null;
}

/**
 * The account's money (`data.account`, spec 2.1), every amount a {@link Money} string.
 *
 * @example
 * const { account } = await client.getUserData();
 * console.log(`available: ${account.totalAvailable}`); // balance + creditAvailable
 */
export interface AccountFunds {
  balance: Money;
  creditLine: Money;
  creditUsed: Money;
  creditAvailable: Money;
  trustedBalance: Money;
  /** `balance + creditAvailable`. */
  totalAvailable: Money;
}

/**
 * The API key as the service reports it (`data.api_key`): never the secret.
 *
 * @example
 * const { apiKey } = await client.getUserData(); console.log(apiKey.appId, apiKey.lastUsedIp);
 */
export interface ApiKeyInfo {
  /** The key's identifier; `null` when the service has none to show. */
  appId: string | null;
  /** The IP address the key was last used from; `null` before first use. */
  lastUsedIp: string | null;
}

/**
 * GetUserData result (spec 2.1).
 *
 * @example
 * const me: UserData = await client.getUserData();
 * console.log(me.user.username, me.account.totalAvailable, me.serverTime);
 */
export interface UserData {
  user: AccountUser;
  account: AccountFunds;
  apiKey: ApiKeyInfo;
  /** `YYYY-MM-DD HH:MM:SS`. */
  serverTime: DateTimeString;
}

// ---------------------------------------------------------------------------
// Product list (GetUserProduct)
// ---------------------------------------------------------------------------

/**
 * Filters of the product list (all optional; `page`/`limit` for paging).
 *
 * @example
 * await client.listProducts({ brandCode: "sandbox", verificationType: "dv", page: 2, limit: 50 });
 */
export interface ListProductsFilter {
  domainType?: DomainTypeCode;
  brandCode?: string;
  verificationType?: VerificationTypeCode;
  /** Fuzzy match. */
  productName?: string;
  /** Exact match. */
  productCode?: string;
  /** 1-based, default 1. */
  page?: number;
  /** Default 100, max 500. */
  limit?: number;
}

/**
 * A `{ name, code }` pair as the product list uses it.
 *
 * @example
 * const codes = product.hashAlgorithms.map((h: NamedCode) => h.code);
 */
export interface NamedCode {
  name: string;
  code: string;
}

/**
 * A signature algorithm a product supports, with its key specs.
 *
 * @example
 * const ecc = product.signatureAlgorithms.find((a: ProductSignatureAlgorithm) => a.code === "ecc");
 * const specs = ecc?.encryptionStrengths.map((s) => s.code); // ["p-256", "p-384"]
 */
export interface ProductSignatureAlgorithm {
  name: string;
  /** A {@link SignatureAlgorithm} code, or one the service added since. */
  code: Open<SignatureAlgorithm>;
  category?: string | null;
  description?: string | null;
  /** `code` of each is a {@link KeySpec} (or a newer one). */
  encryptionStrengths: NamedCode[];
}

/**
 * One purchasable term of a product and its prices.
 *
 * @example
 * const oneYear = product.validYears.find((t: ProductTerm) => t.months === 12);
 */
export interface ProductTerm {
  years: number;
  months: number;
  /** Base price for this term (covers the main name only). */
  price: Money;
  priceSource?: Open<PriceSource> | null;
  /** Price per extra plain domain for this term. */
  sanPrice: Money | null;
  /** Price per extra wildcard for this term. */
  wildcardPrice: Money | null;
}

/**
 * One product of the product list.
 *
 * @example
 * const p: Product = (await client.listProducts({ productCode: "sandbox-dv-single" })).items[0];
 * if (isDomainTypeCode(p.domainTypeCode)) console.log(p.domainTypeCode);
 */
export interface Product {
  productName: string;
  productCode: string;
  productType?: string;
  /** `ssl`. */
  productTypeCode?: string;
  verificationType?: string;
  verificationTypeCode: Open<VerificationTypeCode>;
  domainType?: string;
  /** A spec 2.3 code; an unlisted one is passed through (see {@link isDomainTypeCode}). */
  domainTypeCode: Open<DomainTypeCode>;
  brand?: string;
  brandCode?: string;
  signatureAlgorithms: ProductSignatureAlgorithm[];
  /** `code` of each is a {@link HashAlgorithm} (or a newer one). */
  hashAlgorithms: NamedCode[];
  validYears: ProductTerm[];
  priceSource?: Open<PriceSource> | null;
  hasCustomPrice?: boolean;
  basePrice: Money;
  originalPrice?: Money | null;
  retailPrice?: Money | null;
  sanPrice: Money | null;
  wildcardPrice: Money | null;
  /** Plain domains allowed in total (the service also calls it `max_domains`). */
  maxSingleDomains: number;
  maxWildcards: number;
}

/**
 * One page of the product list. Items that could not be read are left out
 * (and reported to the client's `logger.warn`).
 *
 * @example
 * const page: ProductPage = await client.listProducts({ page: 1 });
 * console.log(`${page.items.length} of ${page.total}`);
 */
export interface ProductPage {
  total: number;
  page: number;
  limit: number;
  totalPages: number;
  items: Product[];
  /** The account summary the service includes (shape not fixed). */
  user?: Record<string, unknown> | null;
  /** The query as the service understood it (shape not fixed). */
  query?: Record<string, unknown> | null;
}

// ---------------------------------------------------------------------------
// CreateOrder (spec 4.3, 2.4)
// ---------------------------------------------------------------------------

/**
 * Company information (`company_info`, spec 2.4), for OV/EV products. Sent
 * under the specification's member names: `registrationNo` → `registration_no`,
 * `province` → `province_pinyin`, `city` → `city_pinyin`, the rest in
 * snake_case.
 *
 * @example
 * const company: CompanyInfo = {
 *   companyName: "Acme GmbH", countryCode: "DE", contactFirst: "Muster", contactLast: "Erika", email: "ops@acme.test",
 *   registrationNo: "HRB 1", province: "Berlin", city: "Berlin", address: "Main St 1", postalCode: "10115", phone: "+49 30 1234",
 * };
 */
export interface CompanyInfo {
  /** Full company name; with a custom CSR, the CSR's organisation must equal it. */
  companyName: string;
  /** Two-letter country/region code. */
  countryCode: string;
  /** Contact's family name. */
  contactFirst: string;
  /** Contact's given name. */
  contactLast: string;
  /** Contact e-mail. */
  email: string;
  /** Registration or business licence number (`registration_no`). */
  registrationNo?: string;
  countryName?: string;
  /** Province/state in pinyin or English (`province_pinyin`). */
  province?: string;
  /** City in pinyin or English (`city_pinyin`). */
  city?: string;
  address?: string;
  postalCode?: string;
  phone?: string;
  /** Contact's position. */
  contactTitle?: string;
  /** Contact's identity document number. */
  idNumber?: string;
}

/**
 * The product to buy: by code or by id, exactly one.
 *
 * @example
 * const byCode: ProductRef = { productCode: "sandbox-dv-multi" };
 */
export type ProductRef = { productCode: string; productId?: never } | { productId: number; productCode?: never };

/**
 * Coupon: by id (`couponType: "coupon"`) or by code (`couponType: "code"`), or none.
 *
 * @example
 * const coupon: CouponRef = { couponType: "code", couponCode: "WELCOME10" };
 */
export type CouponRef =
  | { couponType?: undefined; couponId?: undefined; couponCode?: undefined }
  | { couponType: Extract<CouponType, "coupon">; couponId: number; couponCode?: undefined }
  | { couponType: Extract<CouponType, "code">; couponCode: string; couponId?: undefined };

/**
 * CreateOrder request (spec 4.3). **Moves money**: the account is charged at
 * once and a repeated call buys a second certificate (the API has no
 * idempotency key). Fields left out are not sent; the service then applies
 * its defaults (12 months, rsa, the algorithm's key spec, sha256, the
 * product's method, balance).
 *
 * @example
 * const req: CreateOrderRequest = {
 *   productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["www.example.com"],
 *   months: 12, verificationMethod: "dns", paymentMethod: "credit",
 * };
 */
export type CreateOrderRequest = ProductRef &
  CouponRef & {
    /** Main domain, or the IP address of an ipv4/ipv6 product (spec 2.3). */
    domain: string;
    /** Additional plain domains. */
    sanDomains?: string[];
    /** Additional wildcard domains. */
    wildcardDomains?: string[];
    /** Own PEM CSR; when absent the service generates the key pair. */
    customCsr?: string;
    /** Term in months. Sent as given; the service reads `months` before `years`. */
    months?: number;
    /** Term in years. Sent as given, also together with `months`. */
    years?: number;
    signatureAlgorithm?: SignatureAlgorithm;
    /** Must belong to `signatureAlgorithm` when both are given. */
    keySpec?: KeySpec;
    hashAlgorithm?: HashAlgorithm;
    verificationMethod?: VerificationMethod;
    paymentMethod?: PaymentMethod;
    /** An existing company of the account (OV/EV); or give `companyInfo`. */
    companyId?: number;
    companyInfo?: CompanyInfo;
  };

/**
 * CreateOrder result (spec 4.3): the order number and the price breakdown.
 *
 * The account is charged when this answer arrives, so everything but
 * `orderNo` is optional: a field that is missing or unreadable is left out
 * (and reported to the client's `logger.warn`) rather than failing a
 * purchase that happened.
 *
 * @example
 * const order: CreateOrderResult = await client.createOrder(req);
 * console.log(order.orderNo, order.payableAmount ?? "amount not reported");
 */
export interface CreateOrderResult {
  /** `CERT<digits>`. */
  orderNo: string;
  totalAmount?: Money;
  discountAmount?: Money;
  payableAmount?: Money;
  unitPrice?: Money;
  sanPrice?: Money;
  wildcardPrice?: Money;
  extraSanCount?: number;
  extraWcCount?: number;
  /** How many certificates the order holds (more than 1 when the term exceeds one certificate's lifetime). */
  installmentsCount?: number;
  totalDomains?: number;
  years?: number;
  months?: number;
  paymentMethod?: Open<PaymentMethod>;
  deductAmount?: Money;
  isCustomCsr?: boolean;
}

// ---------------------------------------------------------------------------
// Validation records (spec 2.5; ApplySign, GetRecord, ChangeVertificationMethod)
// ---------------------------------------------------------------------------

/**
 * An element of `dns_records` (spec 2.5): publish `<label>.<domain>
 * <recordType> <value>`.
 *
 * @example
 * for (const r of records.dnsRecords) console.log(`${r.label}.${r.domain} ${r.recordType} ${r.value}`);
 */
export interface DnsRecord {
  domain: string;
  /** `main` or `san` (`wildcard` also occurs); an empty string also occurs. */
  type: Open<RecordScope>;
  /** Host label, relative to `domain`. */
  label: string;
  /** `TXT` (or `CNAME` for CNAME validation). */
  recordType: Open<DnsRecordType>;
  value: string;
  /** Instruction text (GetRecord). */
  hint?: string;
}

/**
 * An element of `http_records` (file validation, spec 2.5): serve `content`
 * at `path`.
 *
 * @example
 * for (const r of records.httpRecords) console.log(`serve ${JSON.stringify(r.content)} at ${r.path}`);
 */
export interface HttpRecord {
  domain: string;
  type: Open<RecordScope>;
  /** `FILE`. */
  recordType: Open<HttpRecordType>;
  /** File name. */
  label: string;
  /** `http://<domain>/.well-known/pki-validation/<file_name>`. */
  path: string;
  content: string;
  /** Protocol-relative form of the URL. */
  link: string;
}

/**
 * An element of `email_records`. The specification does not show its shape,
 * so it is handed over as the service sent it (wire names, unchecked).
 *
 * @example
 * for (const r of records.emailRecords) console.log(JSON.stringify(r));
 */
export type EmailRecord = Readonly<Record<string, unknown>>;

/**
 * The three record lists of ApplySign, GetRecord and ChangeVertificationMethod.
 * A list the answer omits reads as `[]`; an element that cannot be read is
 * left out (and reported to the client's `logger.warn`).
 *
 * @example
 * const { dnsRecords, httpRecords, emailRecords }: ValidationRecords = await client.getRecord({ orderNo });
 */
export interface ValidationRecords {
  dnsRecords: DnsRecord[];
  httpRecords: HttpRecord[];
  emailRecords: EmailRecord[];
}

/**
 * ApplySign result (spec 4.4): the certificate is submitted and awaits
 * validation with the returned records. The submission happened when this
 * answer arrives, so only `orderNo` and the record lists are guaranteed.
 *
 * @example
 * const { requestId, dnsRecords } = await client.applySign({ orderNo });
 */
export interface ApplySignResult extends ValidationRecords {
  orderNo: string;
  certStatus?: OpenInt<CertStatus>;
  /** A spec 4.5 code; the service may also answer `email` for the e-mail methods. */
  verificationMethod?: Open<VerificationMethod>;
  /** `SIG-<digits>-<suffix>`. */
  requestId?: string;
}

/**
 * ChangeVertificationMethod result (spec 4.5): the records of the new method;
 * the other lists are empty. Only `orderNo` and the lists are guaranteed
 * (the change happened when this answer arrives).
 *
 * @example
 * const changed: ChangeVerificationMethodResult = await client.changeVerificationMethod({ orderNo, method: "file" });
 * console.log(changed.httpRecords);
 */
export interface ChangeVerificationMethodResult extends ValidationRecords {
  orderNo: string;
  certStatus?: OpenInt<CertStatus>;
  verificationMethod?: Open<VerificationMethod>;
  requestId?: string;
}

/**
 * GetRecord result (spec 4.6; stored records only, empty before ApplySign).
 *
 * @example
 * const set: RecordSet = await client.getRecord({ orderNo });
 * console.log(set.allDomains, set.dnsRecords.length, set.fetchedAt);
 */
export interface RecordSet extends ValidationRecords {
  orderNo: string;
  certStatus: OpenInt<CertStatus>;
  verificationMethod: Open<VerificationMethod>;
  mainDomain: string;
  /** The API spells it `sans_domains`. */
  sansDomains: string[];
  wildcardDomains: string[];
  allDomains: string[];
  allDomainsCount: number;
  /** ISO 8601 with UTC offset. */
  fetchedAt: DateTimeString;
}

// ---------------------------------------------------------------------------
// Requests keyed by order
// ---------------------------------------------------------------------------

/**
 * Identifies an order.
 *
 * @example
 * await client.getRecord({ orderNo: "CERT202607041730001234" });
 */
export interface OrderRef {
  orderNo: string;
}

/**
 * ChangeVertificationMethod request (spec 4.5; only while the certificate is
 * issuing, at most once per 5 minutes). `email_suffix` is sent empty: the
 * `email-<suffix>` method codes already name the mailbox.
 *
 * @example
 * await client.changeVerificationMethod({ orderNo, method: "email-admin" });
 */
export interface ChangeVerificationMethodRequest extends OrderRef {
  method: VerificationMethod;
}

/**
 * CancelOrder request (spec 4.7). **Moves money** (refund): never retried.
 * `reason` is at most {@link CANCEL_REASON_MAX_LENGTH} characters.
 *
 * @example
 * await client.cancelOrder({ orderNo, reason: "stack destroyed" });
 */
export interface CancelOrderRequest extends OrderRef {
  reason?: string;
}

/**
 * Longest `reason` the client sends with CancelOrder. The service's limit is
 * not published; 200 characters stays below the common database column sizes.
 *
 * @example
 * const reason = text.slice(0, CANCEL_REASON_MAX_LENGTH);
 */
export const CANCEL_REASON_MAX_LENGTH = 200;

/**
 * DownloadCertificate request: the earliest issued certificate unless
 * `certId` or `installmentNo` picks another (not both).
 *
 * @example
 * await client.downloadCertificate({ orderNo, installmentNo: 2 });
 */
export interface DownloadCertificateRequest extends OrderRef {
  certId?: string;
  installmentNo?: number;
}

// ---------------------------------------------------------------------------
// CancelOrder (spec 2.6, 4.7)
// ---------------------------------------------------------------------------

/**
 * Outcome of the cancel at the upstream certificate provider (`upstream_cancel`).
 *
 * @example
 * if (result.upstreamCancel?.skipped) console.log("nothing had been sent upstream");
 */
export interface UpstreamCancel {
  success?: boolean;
  /** Name of the upstream certificate provider. */
  provider?: string;
  message?: string;
  upstreamCode?: string;
  /** True when nothing had been sent upstream, so there was nothing to cancel. */
  skipped?: boolean;
}

/**
 * CancelOrder result (spec 2.6). The refund happened when this answer
 * arrives (code 200), so every field but `orderNo` is optional: one that is
 * missing or unreadable is left out (and reported to the client's
 * `logger.warn`). In `audit` mode the refund awaits an administrator
 * (`refundStatus` 0, no `refundOrderNo`).
 *
 * @example
 * const c: CancelOrderResult = await client.cancelOrder({ orderNo });
 * if (c.refundMode === "audit") console.warn("refund queued for review");
 */
export interface CancelOrderResult {
  orderNo: string;
  refundId?: number;
  refundAmount?: Money;
  refundTo?: Open<RefundTarget>;
  /** `REFUND<digits>`; absent in `audit` mode. */
  refundOrderNo?: string;
  refundMode?: Open<RefundMode>;
  refundStatus?: OpenInt<RefundStatus>;
  upstreamCancel?: UpstreamCancel;
}

// ---------------------------------------------------------------------------
// GetCertificateStatus
// ---------------------------------------------------------------------------

/**
 * Validation state of one name.
 *
 * @example
 * const pending = status.domainStatuses.filter((d: DomainStatus) => !d.verified);
 */
export interface DomainStatus {
  domain: string;
  method?: string | null;
  verified: boolean;
}

/**
 * GetCertificateStatus result. Rate limit: one read per order per
 * `cooldownSeconds` (180); earlier reads fail with kind `rate_limited` and
 * `retryAfter`.
 *
 * @example
 * const s: CertificateStatus = await client.getCertificateStatus({ orderNo });
 * if (s.certStatus === CertStatus.Issued) console.log(s.serialNumber);
 */
export interface CertificateStatus {
  orderNo: string;
  orderStatus: OpenInt<OrderStatus>;
  orderStatusLabel?: string | null;
  /** UUID of the certificate this status describes. */
  certId: string | null;
  certStatus: OpenInt<CertStatus>;
  certStatusLabel?: string | null;
  caStatus: number | null;
  caStatusText: string | null;
  allDcvVerified: boolean;
  /** Elements that cannot be read are left out (and reported to `logger.warn`). */
  domainStatuses: DomainStatus[];
  serialNumber: string | null;
  startDate: DateTimeString | null;
  endDate: DateTimeString | null;
  requestId: string | null;
  certDownloaded: boolean;
  /** `ca` = asked upstream now, `local` = stored state. */
  source: string;
  /** ISO 8601 with offset. */
  checkedAt: string;
  cooldownSeconds: number;
}

// ---------------------------------------------------------------------------
// DownloadCertificate
// ---------------------------------------------------------------------------

/**
 * The PEM material of a certificate. `privateKey`/`key` are **secret** and
 * `null` when the order used a custom CSR.
 *
 * @example
 * const { certificateLeaf, intermediateCertificate, privateKey } = download.certificate;
 */
export interface CertificateMaterial {
  /** Leaf + intermediates. */
  certificateChain: string;
  certificateLeaf: string;
  intermediateCertificate: string;
  /** Secret. `null` when the order used a custom CSR (the service sends an empty string). */
  privateKey: string | null;
  /** `null` when the service sent none. */
  csr: string | null;
  /** Same as `certificateChain`. */
  crt?: string | null;
  /** Same as `privateKey` (secret). */
  key?: string | null;
  /** Same as `intermediateCertificate`. */
  caBundle?: string | null;
}

/**
 * DownloadCertificate result (only when the certificate is issued).
 *
 * @example
 * const d: CertificateDownload = await client.downloadCertificate({ orderNo });
 * writeFileSync("fullchain.pem", d.certificate.certificateChain);
 */
export interface CertificateDownload {
  orderNo: string;
  orderStatus?: OpenInt<OrderStatus>;
  certId: string;
  certStatus: OpenInt<CertStatus>;
  installmentNo?: number;
  installmentsCount?: number;
  productName?: string;
  brandName?: string;
  mainDomain?: string;
  /** The API spells it `sans_domains`. */
  sansDomains?: string[];
  wildcardDomains?: string[];
  domains?: string[];
  years?: number;
  signatureAlgorithm?: Open<SignatureAlgorithm>;
  hashAlgorithm?: Open<HashAlgorithm>;
  keySpec?: Open<KeySpec>;
  verificationMethod?: Open<VerificationMethod>;
  serialNumber: string;
  fingerprintSha256?: string | null;
  issuedAt?: DateTimeString | null;
  startDate?: DateTimeString | null;
  endDate?: DateTimeString | null;
  /** `YYYY-MM-DD`. */
  validFrom?: string | null;
  /** `YYYY-MM-DD`. */
  validTo?: string | null;
  certificate: CertificateMaterial;
  hasCertificate?: boolean;
  hasPrivateKey?: boolean;
  downloadedAt?: DateTimeString | null;
}

// ---------------------------------------------------------------------------
// The client's surface
// ---------------------------------------------------------------------------

/**
 * The operations of the Partner API, one method each. Implemented by
 * {@link PartnerClient}; code against this interface to substitute a fake in
 * unit tests.
 *
 * Every method rejects with a `PartnerApiError` (see its `kind`). Read-only
 * methods retry transient failures; `createOrder`, `applySign`,
 * `changeVerificationMethod` and `cancelOrder` never retry once a request may
 * have reached the server.
 *
 * @example
 * async function balance(api: PartnerApi): Promise<Money> {
 *   return (await api.getUserData()).account.totalAvailable;
 * }
 */
export interface PartnerApi {
  /** The account and key behind the API key. Read-only, retried. */
  getUserData(options?: CallOptions): Promise<UserData>;
  /** One page of the product list. Read-only, retried. */
  listProducts(filter?: ListProductsFilter, options?: CallOptions): Promise<ProductPage>;
  /** Every product matching the filter, walking all pages. Read-only, retried. */
  listAllProducts(filter?: Omit<ListProductsFilter, "page">, options?: CallOptions): Promise<Product[]>;
  /** Buys a certificate. Charges at once; never retried. */
  createOrder(request: CreateOrderRequest, options?: CallOptions): Promise<CreateOrderResult>;
  /** Submits the order for issuance (cert status 0 or 3 → 2). Never retried. */
  applySign(request: OrderRef, options?: CallOptions): Promise<ApplySignResult>;
  /** Stored validation records. Read-only, retried. */
  getRecord(request: OrderRef, options?: CallOptions): Promise<RecordSet>;
  /** Switches the validation method (cert status 2 only). Never retried. */
  changeVerificationMethod(request: ChangeVerificationMethodRequest, options?: CallOptions): Promise<ChangeVerificationMethodResult>;
  /** Cancels and refunds an order. Never retried. */
  cancelOrder(request: CancelOrderRequest, options?: CallOptions): Promise<CancelOrderResult>;
  /** Order/certificate state; rate limited per order. Read-only, retried within the budget. */
  getCertificateStatus(request: OrderRef, options?: CallOptions): Promise<CertificateStatus>;
  /** PEM material of an issued certificate. Read-only, retried. */
  downloadCertificate(request: DownloadCertificateRequest, options?: CallOptions): Promise<CertificateDownload>;
  /** Closes the client's connections; later calls fail. */
  close(): Promise<void>;
}
