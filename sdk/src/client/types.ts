/**
 * Public, camelCase types of the Partner API client.
 *
 * The wire format is the API's own (snake_case, see `docs/wire-format.md` and
 * `../shared/partner-api.md`); these types are what callers see on the
 * TypeScript side. Money is always a decimal string with two places
 * (`"199.00"`), never a float; date-times stay strings in the service's format.
 */

// ---------------------------------------------------------------------------
// Scalars and enumerations
// ---------------------------------------------------------------------------

/**
 * A monetary amount as a decimal string with exactly two places.
 *
 * The service may send `"199.00"`, `"199"` or `199`; the client normalises all
 * of them to `"199.00"` so that money never passes through a float.
 *
 * @example
 * const total: Money = order.price.total; // "120.00"
 */
export type Money = string;

/**
 * A date-time as the service sends it: `YYYY-MM-DD HH:MM:SS` in the service's
 * zone (ISO 8601 where the reference says so, e.g. `checkedAt`).
 *
 * @example
 * const paid: DateTimeString = order.paidAt ?? "never";
 */
export type DateTimeString = string;

/**
 * The nine Partner API operations, named as the service (and the sandbox's
 * fault injection and request log) name them.
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

/**
 * Per-certificate state (`cert_status`).
 *
 * @example
 * if (status.certStatus === CertStatus.Issued) await client.downloadCertificate({ orderNo });
 */
export const CertStatus = {
  AwaitingSubmission: 0,
  Issued: 1,
  Issuing: 2,
  IssuanceFailed: 3,
  Revoking: 4,
  Revoked: 5,
  RefundInProgress: 6,
} as const;
/** A `cert_status` value (0–6); see the {@link CertStatus} constants. @example const s: CertStatus = CertStatus.Issuing; */
export type CertStatus = (typeof CertStatus)[keyof typeof CertStatus];

/**
 * Order state (`order_status`).
 *
 * @example
 * const done = result.orderStatus === OrderStatus.Refunded;
 */
export const OrderStatus = {
  Unpaid: 0,
  Processing: 1,
  Completed: 2,
  Cancelled: 3,
  Refunded: 4,
} as const;
/** An `order_status` value (0–4); see the {@link OrderStatus} constants. @example const s: OrderStatus = OrderStatus.Processing; */
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus];

/**
 * Refund state (`refund_status`): 0 awaiting manual review, 3 approved.
 *
 * @example
 * if (cancel.refundStatus === RefundStatus.AwaitingReview) console.log("refund queued for an administrator");
 */
export const RefundStatus = { AwaitingReview: 0, Approved: 3 } as const;
/** A `refund_status` value; see the {@link RefundStatus} constants. @example const r: RefundStatus = RefundStatus.Approved; */
export type RefundStatus = (typeof RefundStatus)[keyof typeof RefundStatus];

/**
 * Account state (`user.status`): 0 banned, 1 normal, 2 awaiting e-mail check, 3 awaiting phone check.
 *
 * @example
 * if (me.user.status !== UserStatus.Normal) throw new Error("account not usable");
 */
export const UserStatus = { Banned: 0, Normal: 1, AwaitingEmailCheck: 2, AwaitingPhoneCheck: 3 } as const;
/** A `user.status` value; see the {@link UserStatus} constants. @example const s: UserStatus = UserStatus.Normal; */
export type UserStatus = (typeof UserStatus)[keyof typeof UserStatus];

/**
 * Domain-control validation method (seed 4.5 codes).
 *
 * @example
 * await client.changeVerificationMethod({ orderNo, method: "cname" });
 */
export type VerificationMethod = "dns" | "cname" | "file" | "https" | "email";

/**
 * Mailbox used by the `email` method: `<suffix>@<base domain>`.
 *
 * @example
 * await client.changeVerificationMethod({ orderNo, method: "email", emailSuffix: "hostmaster" });
 */
export type EmailSuffix = "admin" | "postmaster" | "webmaster" | "hostmaster";

/**
 * Which names a product covers (`domain_type_code`, see docs/wire-format.md).
 *
 * @example
 * const wildcardProducts = await client.listAllProducts({ domainType: "wildcard" });
 */
export type DomainTypeCode = "single" | "multi" | "wildcard" | "multi_wildcard" | "flex" | "ip" | "ip_multi";

/**
 * Validation level of a product.
 *
 * @example
 * const ovProducts = await client.listAllProducts({ verificationType: "ov" });
 */
export type VerificationTypeCode = "dv" | "ov" | "ev";

/**
 * Key algorithm family of a certificate.
 *
 * @example
 * await client.createOrder({ productCode, domain, signatureAlgorithm: "ecc", keySpec: "p-256" });
 */
export type SignatureAlgorithm = "rsa" | "ecc" | "sm2";

/**
 * Concrete key type; must match the {@link SignatureAlgorithm}.
 *
 * @example
 * const spec: KeySpec = "rsa-3072";
 */
export type KeySpec = "rsa-2048" | "rsa-3072" | "rsa-4096" | "p-256" | "p-384" | "sm2";

/**
 * Signature hash algorithm.
 *
 * @example
 * const hash: HashAlgorithm = "sha384";
 */
export type HashAlgorithm = "sha256" | "sha384";

/**
 * How an order is paid: account balance or credit line (no mixing).
 *
 * @example
 * await client.createOrder({ productCode, domain, paymentMethod: "credit" });
 */
export type PaymentMethod = "balance" | "credit";

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
  /** Service root; operations are `POST {baseUrl}/partner/<Name>/`. */
  baseUrl: string | URL;
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
// GetUserData
// ---------------------------------------------------------------------------

/**
 * The account behind the API key.
 *
 * @example
 * const { user } = await client.getUserData();
 * console.log(user.username, user.totalAvailable);
 */
export interface AccountUser {
  id?: number;
  username: string;
  email?: string | null;
  status: UserStatus;
  boundPhone: string | null;
  boundEmail: string | null;
  balance: Money;
  creditLimit?: Money;
  creditUsed?: Money;
  creditAvailable?: Money;
  /** `balance + creditAvailable`. */
  totalAvailable: Money;
  currency?: string;
  createdAt?: DateTimeString;
}

/**
 * The API key as the service reports it (never the secret).
 *
 * @example
 * const { apiKey } = await client.getUserData(); console.log(apiKey.appId);
 */
export interface ApiKeyInfo {
  appId: string | null;
  status?: number;
  lastUsedIp: string | null;
  lastUsedAt?: DateTimeString | null;
  expiresAt?: DateTimeString | null;
}

/**
 * GetUserData result.
 *
 * @example
 * const me: UserData = await client.getUserData();
 */
export interface UserData {
  user: AccountUser;
  apiKey: ApiKeyInfo;
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
 * A signature algorithm a product supports, with its key sizes.
 *
 * @example
 * const ecc = product.signatureAlgorithms.find((a: ProductSignatureAlgorithm) => a.code === "ecc");
 */
export interface ProductSignatureAlgorithm {
  name: string;
  code: string;
  category?: string | null;
  description?: string | null;
  encryptionStrengths: NamedCode[];
}

/**
 * One purchasable term of a product and its prices.
 *
 * @example
 * const twoYears = product.validYears.find((t: ProductTerm) => t.months === 24);
 */
export interface ProductTerm {
  years: number;
  months: number;
  /** Base price for this term (covers the main name only). */
  price: Money;
  priceSource?: string | null;
  /** Price per extra FQDN for this term. */
  sanPrice: Money | null;
  /** Price per extra wildcard for this term. */
  wildcardPrice: Money | null;
}

/**
 * One product of the product list.
 *
 * @example
 * const p: Product = (await client.listProducts({ productCode: "sandbox-dv-single" })).items[0];
 */
export interface Product {
  productName: string;
  productCode: string;
  productType?: string;
  productTypeCode?: string;
  verificationType?: string;
  verificationTypeCode: VerificationTypeCode;
  domainType?: string;
  domainTypeCode: DomainTypeCode;
  brand?: string;
  brandCode?: string;
  signatureAlgorithms: ProductSignatureAlgorithm[];
  hashAlgorithms: NamedCode[];
  validYears: ProductTerm[];
  priceSource?: string | null;
  hasCustomPrice?: boolean;
  basePrice: Money;
  originalPrice?: Money | null;
  retailPrice?: Money | null;
  sanPrice: Money | null;
  wildcardPrice: Money | null;
  maxSingleDomains: number;
  maxWildcards: number;
  /** *(extra)* the id CreateOrder's `productId` takes. */
  productId?: number;
  /** *(extra)* methods the product supports. */
  verificationMethods?: NamedCode[];
  /** *(extra)* the product's default method. */
  defaultVerificationMethod?: VerificationMethod;
  /** *(extra)* per-certificate maximum term; longer orders are split into installments. */
  maxMonthsPerCertificate?: number;
  /** *(extra)* true for OV/EV: CreateOrder needs `companyId` or `companyInfo`. */
  requiresCompany?: boolean;
}

/**
 * One page of the product list.
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
  /** The account summary the service includes (shape not fixed by the reference). */
  user?: Record<string, unknown> | null;
  /** The query as the service understood it. */
  query?: Record<string, unknown> | null;
}

// ---------------------------------------------------------------------------
// CreateOrder
// ---------------------------------------------------------------------------

/**
 * Organisation details for OV/EV products (all members required there).
 *
 * @example
 * const company: CompanyInfo = { companyName: "Acme", registrationNumber: "HRB 1", country: "DE", state: "BE",
 *   city: "Berlin", address: "Main St 1", postalCode: "10115", contactName: "Ops", contactEmail: "ops@acme.test",
 *   contactPhone: "+49 30 1234" };
 */
export interface CompanyInfo {
  companyName: string;
  registrationNumber: string;
  /** ISO 3166 alpha-2. */
  country: string;
  state: string;
  city: string;
  address: string;
  postalCode: string;
  contactName: string;
  contactEmail: string;
  contactPhone: string;
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
  | { couponType: "coupon"; couponId: number; couponCode?: undefined }
  | { couponType: "code"; couponCode: string; couponId?: undefined };

/**
 * CreateOrder request. **Moves money**: the account is charged at once and a
 * repeated call buys a second certificate (the API has no idempotency key).
 *
 * @example
 * const req: CreateOrderRequest = { productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["www.example.com"], months: 12 };
 */
export type CreateOrderRequest = ProductRef &
  CouponRef & {
    /** Main domain (FQDN, wildcard or IP depending on the product). */
    domain: string;
    sanDomains?: string[];
    wildcardDomains?: string[];
    /** Term in months (default 12; takes precedence over `years`). */
    months?: number;
    years?: number;
    signatureAlgorithm?: SignatureAlgorithm;
    keySpec?: KeySpec;
    hashAlgorithm?: HashAlgorithm;
    verificationMethod?: VerificationMethod;
    emailSuffix?: EmailSuffix;
    paymentMethod?: PaymentMethod;
    /** PEM CSR; the service then holds no private key for the order. */
    customCsr?: string;
    companyId?: number;
    companyInfo?: CompanyInfo;
    remark?: string;
  };

/**
 * Price breakdown of an order.
 *
 * @example
 * console.log(`${order.price.basePrice} + ${order.price.sanCount} × ${order.price.sanPrice} = ${order.price.total}`);
 */
export interface OrderPrice {
  basePrice: Money;
  sanCount: number;
  sanPrice: Money;
  sanTotal?: Money;
  wildcardCount: number;
  wildcardPrice: Money;
  wildcardTotal?: Money;
  discount: Money;
  total: Money;
}

/**
 * CreateOrder result.
 *
 * @example
 * const order: CreateOrderResult = await client.createOrder(req);
 * console.log(order.orderNo, order.price.total);
 */
export interface CreateOrderResult {
  orderNo: string;
  orderStatus: OrderStatus;
  certStatus: CertStatus;
  productCode?: string;
  productName?: string;
  domain?: string;
  sanDomains?: string[];
  wildcardDomains?: string[];
  months?: number;
  years?: number;
  /** How many certificates the order holds (1 unless the term exceeds the brand's maximum). */
  installmentsCount?: number;
  signatureAlgorithm?: string;
  keySpec?: string;
  hashAlgorithm?: string;
  verificationMethod?: VerificationMethod;
  paymentMethod?: PaymentMethod;
  price: OrderPrice;
  /** What was charged. */
  amount?: Money;
  balanceAfter?: Money | null;
  creditAvailableAfter?: Money | null;
  paidAt?: DateTimeString | null;
  createdAt?: DateTimeString | null;
}

// ---------------------------------------------------------------------------
// Validation records (ApplySign, GetRecord, ChangeVertificationMethod)
// ---------------------------------------------------------------------------

/**
 * What to publish to prove control of one name. A wildcard is validated at
 * its base name (`domain` is the base name, `type` is `"wildcard"`).
 *
 * DNS: publish `<label>.<domain> <recordType> <value>`. File/HTTPS: serve
 * `content` at `link` (path `path`). Email: a mail goes to `email`.
 *
 * @example
 * for (const r of records) if (r.recordType === "TXT") console.log(`${r.label}.${r.domain} TXT ${r.value}`);
 */
export interface ValidationRecord {
  domain: string;
  /** `main`, `san`, `wildcard` (an empty string has also been seen). */
  type: "main" | "san" | "wildcard" | "";
  method?: VerificationMethod;
  recordType: "TXT" | "CNAME" | null;
  /** Relative to `domain` (a file name for file/https). */
  label: string | null;
  value?: string | null;
  path?: string | null;
  content?: string | null;
  link?: string | null;
  email?: string | null;
}

/**
 * ApplySign result: the certificate is submitted (cert status 2) and awaits validation.
 *
 * @example
 * const { requestId, records } = await client.applySign({ orderNo });
 */
export interface ApplySignResult {
  orderNo: string;
  certStatus: CertStatus;
  requestId: string | null;
  verificationMethod?: VerificationMethod;
  records: ValidationRecord[];
  submittedAt?: DateTimeString | null;
}

/**
 * GetRecord result (stored records only; empty before ApplySign succeeded).
 *
 * @example
 * const { records } = await client.getRecord({ orderNo });
 */
export interface RecordSet {
  orderNo: string;
  certStatus?: CertStatus;
  verificationMethod?: VerificationMethod | null;
  emailSuffix?: EmailSuffix | null;
  requestId: string | null;
  records: ValidationRecord[];
}

/**
 * ChangeVertificationMethod result: new method, new tokens.
 *
 * @example
 * const changed = await client.changeVerificationMethod({ orderNo, method: "file" });
 * console.log(changed.records, changed.nextChangeAfter);
 */
export interface ChangeVerificationMethodResult {
  orderNo: string;
  certStatus?: CertStatus;
  verificationMethod: VerificationMethod;
  emailSuffix?: EmailSuffix | null;
  requestId?: string | null;
  records: ValidationRecord[];
  changedAt?: DateTimeString | null;
  /** Earliest time another change is accepted (earlier ones get 429). */
  nextChangeAfter?: DateTimeString | null;
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
 * ChangeVertificationMethod request (only in cert status 2; at most once per 5 minutes).
 *
 * @example
 * await client.changeVerificationMethod({ orderNo, method: "email", emailSuffix: "admin" });
 */
export interface ChangeVerificationMethodRequest extends OrderRef {
  method: VerificationMethod;
  /** Only with `method: "email"`. */
  emailSuffix?: EmailSuffix;
}

/**
 * CancelOrder request. **Moves money** (refund): never retried by the client.
 *
 * @example
 * await client.cancelOrder({ orderNo, reason: "stack destroyed" });
 */
export interface CancelOrderRequest extends OrderRef {
  reason?: string;
}

/**
 * DownloadCertificate request: the earliest issued certificate unless `certId`
 * or `installmentNo` picks another.
 *
 * @example
 * await client.downloadCertificate({ orderNo, installmentNo: 2 });
 */
export interface DownloadCertificateRequest extends OrderRef {
  certId?: string;
  installmentNo?: number;
}

// ---------------------------------------------------------------------------
// CancelOrder
// ---------------------------------------------------------------------------

/**
 * Outcome of the upstream (CA) cancel.
 *
 * @example
 * if (result.upstreamCancel.skipped) console.log("nothing had been sent upstream");
 */
export interface UpstreamCancel {
  skipped: boolean;
  success: boolean;
  message?: string | null;
}

/**
 * CancelOrder result. In `audit` mode the refund awaits an administrator
 * (`refundStatus` 0, no `refundOrderNo`).
 *
 * @example
 * const c: CancelOrderResult = await client.cancelOrder({ orderNo });
 * if (c.refundMode === "audit") console.warn("refund queued for review");
 */
export interface CancelOrderResult {
  orderNo: string;
  orderStatus: OrderStatus;
  certStatus: CertStatus;
  refundStatus: RefundStatus;
  refundMode: "direct" | "audit";
  refundTo?: "balance" | "credit" | null;
  refundAmount: Money | null;
  refundOrderNo: string | null;
  upstreamCancel: UpstreamCancel;
  cancelledAt?: DateTimeString | null;
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
  orderStatus: OrderStatus;
  orderStatusLabel?: string | null;
  /** UUID of the certificate this status describes. */
  certId: string | null;
  certStatus: CertStatus;
  certStatusLabel?: string | null;
  caStatus: number | null;
  caStatusText: string | null;
  allDcvVerified: boolean;
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
 * empty when the order used a custom CSR.
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
 * DownloadCertificate result (only when cert status is 1).
 *
 * @example
 * const d: CertificateDownload = await client.downloadCertificate({ orderNo });
 * writeFileSync("fullchain.pem", d.certificate.certificateChain);
 */
export interface CertificateDownload {
  orderNo: string;
  orderStatus?: OrderStatus;
  certId: string;
  certStatus: CertStatus;
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
  signatureAlgorithm?: string;
  hashAlgorithm?: string;
  keySpec?: string;
  verificationMethod?: string;
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
 *   return (await api.getUserData()).user.totalAvailable;
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
