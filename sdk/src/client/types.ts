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
 * Each type is declared once, where the client handles it, and named here:
 * - an answer's type is what its reader in `schemas/` yields
 *   (`ReadOf<typeof reader>`): the fields, wire names, optionality and
 *   member docs are the reader's;
 * - a request's type is the input of its zod check in `requests.ts`
 *   (`RequestOf<Op>`), which also maps each field to its wire name;
 * - the client's options are in `options.ts`, the allowed values in
 *   `vocabulary.ts`.
 */
import type { CallOptions } from "./options.js";
import type { companyInfoFields, InputOf, RequestOf } from "./requests.js";
import type { certificateDownload, certificateMaterial, certificateStatus, domainStatus } from "./schemas/certificates.js";
import type { cancelOrderResult, createOrderResult, upstreamCancel } from "./schemas/orders.js";
import type { namedCode, product, productPage, productSignatureAlgorithm, productTerm } from "./schemas/products.js";
import type { Filled, ObjectOf, ReadOf } from "./schemas/read.js";
import type { applySignResult, changeVerificationMethodResult, dnsRecord, emailRecord, httpRecord, recordLists, recordSet } from "./schemas/records.js";
import type { accountFunds, accountUser, apiKeyInfo, userData } from "./schemas/user.js";

// The allowed values (and the CertStatus/OrderStatus/... constants) are part of this module's surface too.
export * from "./vocabulary.js";
export type { Money } from "./money.js";
export type { PartnerOperation } from "./operations.js";
export type { CallOptions, PartnerClientLogger, PartnerClientOptions, RetryEvent, RetryOptions } from "./options.js";

/**
 * A date-time as the service sends it: `YYYY-MM-DD HH:MM:SS` (e.g.
 * `serverTime`), or ISO 8601 with a UTC offset where the service says so
 * (`fetchedAt`, `checkedAt`).
 *
 * @example
 * const now: DateTimeString = (await client.getUserData()).serverTime;
 */
export type DateTimeString = string;

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
export type AccountUser = ReadOf<typeof accountUser>;

/**
 * The account's money (`data.account`, spec 2.1), every amount a {@link Money} string.
 *
 * @example
 * const { account } = await client.getUserData();
 * console.log(`available: ${account.totalAvailable}`); // balance + creditAvailable
 */
export type AccountFunds = ReadOf<typeof accountFunds>;

/**
 * The API key as the service reports it (`data.api_key`): never the secret.
 *
 * @example
 * const { apiKey } = await client.getUserData(); console.log(apiKey.appId, apiKey.lastUsedIp);
 */
export type ApiKeyInfo = ReadOf<typeof apiKeyInfo>;

/**
 * GetUserData result (spec 2.1).
 *
 * @example
 * const me: UserData = await client.getUserData();
 * console.log(me.user.username, me.account.totalAvailable, me.serverTime);
 */
export type UserData = ReadOf<typeof userData>;

// ---------------------------------------------------------------------------
// Product list (GetUserProduct)
// ---------------------------------------------------------------------------

/**
 * Filters of the product list (all optional; `page`/`limit` for paging).
 *
 * @example
 * await client.listProducts({ brandCode: "sandbox", verificationType: "dv", page: 2, limit: 50 });
 */
export type ListProductsFilter = RequestOf<"GetUserProduct">;

/**
 * A `{ name, code }` pair as the product list uses it.
 *
 * @example
 * const codes = product.hashAlgorithms.map((h: NamedCode) => h.code);
 */
export type NamedCode = ReadOf<typeof namedCode>;

/**
 * A signature algorithm a product supports, with its key specs.
 *
 * @example
 * const ecc = product.signatureAlgorithms.find((a: ProductSignatureAlgorithm) => a.code === "ecc");
 * const specs = ecc?.encryptionStrengths.map((s) => s.code); // ["p-256", "p-384"]
 */
export type ProductSignatureAlgorithm = ReadOf<typeof productSignatureAlgorithm>;

/**
 * One purchasable term of a product and its prices.
 *
 * @example
 * const oneYear = product.validYears.find((t: ProductTerm) => t.months === 12);
 */
export type ProductTerm = ReadOf<typeof productTerm>;

/**
 * One product of the product list.
 *
 * @example
 * const p: Product = (await client.listProducts({ productCode: "sandbox-dv-single" })).items[0];
 * if (isDomainTypeCode(p.domainTypeCode)) console.log(p.domainTypeCode);
 */
export type Product = ReadOf<typeof product>;

/**
 * One page of the product list. Items that could not be read are left out
 * (and reported to the client's `logger.warn`).
 *
 * @example
 * const page: ProductPage = await client.listProducts({ page: 1 });
 * console.log(`${page.items.length} of ${page.total}`);
 */
export type ProductPage = ReadOf<typeof productPage>;

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
export type CompanyInfo = InputOf<typeof companyInfoFields>;

/** The fields of CreateOrder as its check declares them (every one optional but `domain`). */
type CreateOrderFields = RequestOf<"CreateOrder">;
/** A CreateOrder field's type when given. */
type CreateOrderField<K extends keyof CreateOrderFields> = Exclude<CreateOrderFields[K], undefined>;

/**
 * The product to buy: by code or by id, exactly one.
 *
 * @example
 * const byCode: ProductRef = { productCode: "sandbox-dv-multi" };
 */
export type ProductRef =
  | { productCode: CreateOrderField<"productCode">; productId?: never }
  | { productId: CreateOrderField<"productId">; productCode?: never };

/**
 * Coupon: by id (`couponType: "coupon"`) or by code (`couponType: "code"`), or none.
 *
 * @example
 * const coupon: CouponRef = { couponType: "code", couponCode: "WELCOME10" };
 */
export type CouponRef =
  | { couponType?: undefined; couponId?: undefined; couponCode?: undefined }
  | { couponType: Extract<CreateOrderField<"couponType">, "coupon">; couponId: CreateOrderField<"couponId">; couponCode?: undefined }
  | { couponType: Extract<CreateOrderField<"couponType">, "code">; couponCode: CreateOrderField<"couponCode">; couponId?: undefined };

/**
 * CreateOrder request (spec 4.3). **Moves money**: the account is charged at
 * once and a repeated call buys a second certificate (the API has no
 * idempotency key). Fields left out are not sent; the service then applies
 * its defaults (12 months, rsa, the algorithm's key spec, sha256, the
 * product's method, balance).
 *
 * The fields are those of the request's check; {@link ProductRef} and
 * {@link CouponRef} add the combinations it allows (one product reference,
 * a coupon kind with its own field).
 *
 * @example
 * const req: CreateOrderRequest = {
 *   productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["www.example.com"],
 *   months: 12, verificationMethod: "dns", paymentMethod: "credit",
 * };
 */
export type CreateOrderRequest = ProductRef & CouponRef & Omit<CreateOrderFields, keyof ProductRef | keyof CouponRef>;

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
export type CreateOrderResult = ReadOf<typeof createOrderResult>;

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
export type DnsRecord = ReadOf<typeof dnsRecord>;

/**
 * An element of `http_records` (file validation, spec 2.5): serve `content`
 * at `path`.
 *
 * @example
 * for (const r of records.httpRecords) console.log(`serve ${JSON.stringify(r.content)} at ${r.path}`);
 */
export type HttpRecord = ReadOf<typeof httpRecord>;

/**
 * An element of `email_records`. The specification does not show its shape,
 * so it is handed over as the service sent it (wire names, unchecked).
 *
 * @example
 * for (const r of records.emailRecords) console.log(JSON.stringify(r));
 */
export type EmailRecord = ReadOf<typeof emailRecord>;

/**
 * The three record lists of ApplySign, GetRecord and ChangeVertificationMethod.
 * A list the answer omits reads as `[]`; an element that cannot be read is
 * left out (and reported to the client's `logger.warn`).
 *
 * @example
 * const { dnsRecords, httpRecords, emailRecords }: ValidationRecords = await client.getRecord({ orderNo });
 */
export type ValidationRecords = ObjectOf<typeof recordLists>;

/**
 * ApplySign result (spec 4.4): the certificate is submitted and awaits
 * validation with the returned records. The submission happened when this
 * answer arrives, so only `orderNo` (the requested one when the answer
 * lacks it) and the record lists are guaranteed.
 *
 * @example
 * const { requestId, dnsRecords } = await client.applySign({ orderNo });
 */
export type ApplySignResult = Filled<ReadOf<typeof applySignResult>, "orderNo">;

/**
 * ChangeVertificationMethod result (spec 4.5): the records of the new method;
 * the other lists are empty. Only `orderNo` and the lists are guaranteed
 * (the change happened when this answer arrives).
 *
 * @example
 * const changed: ChangeVerificationMethodResult = await client.changeVerificationMethod({ orderNo, method: "file" });
 * console.log(changed.httpRecords);
 */
export type ChangeVerificationMethodResult = Filled<ReadOf<typeof changeVerificationMethodResult>, "orderNo">;

/**
 * GetRecord result (spec 4.6; stored records only, empty before ApplySign).
 *
 * @example
 * const set: RecordSet = await client.getRecord({ orderNo });
 * console.log(set.allDomains, set.dnsRecords.length, set.fetchedAt);
 */
export type RecordSet = ReadOf<typeof recordSet>;

// ---------------------------------------------------------------------------
// Requests keyed by order
// ---------------------------------------------------------------------------

/**
 * Identifies an order.
 *
 * @example
 * await client.getRecord({ orderNo: "CERT202607041730001234" });
 */
export type OrderRef = RequestOf<"GetRecord">;

/**
 * ChangeVertificationMethod request (spec 4.5; only while the certificate is
 * issuing, at most once per 5 minutes). `email_suffix` is sent empty: the
 * `email-<suffix>` method codes already name the mailbox.
 *
 * @example
 * await client.changeVerificationMethod({ orderNo, method: "email-admin" });
 */
export type ChangeVerificationMethodRequest = RequestOf<"ChangeVertificationMethod">;

/**
 * CancelOrder request (spec 4.7). **Moves money** (refund): never retried.
 * `reason` is at most {@link CANCEL_REASON_MAX_LENGTH} characters.
 *
 * @example
 * await client.cancelOrder({ orderNo, reason: "stack destroyed" });
 */
export type CancelOrderRequest = RequestOf<"CancelOrder">;

/**
 * DownloadCertificate request: the earliest issued certificate unless
 * `certId` or `installmentNo` picks another (not both).
 *
 * @example
 * await client.downloadCertificate({ orderNo, installmentNo: 2 });
 */
export type DownloadCertificateRequest = RequestOf<"DownloadCertificate">;

// ---------------------------------------------------------------------------
// CancelOrder (spec 2.6, 4.7)
// ---------------------------------------------------------------------------

/**
 * Outcome of the cancel at the upstream certificate provider (`upstream_cancel`).
 *
 * @example
 * if (result.upstreamCancel?.skipped) console.log("nothing had been sent upstream");
 */
export type UpstreamCancel = ReadOf<typeof upstreamCancel>;

/**
 * CancelOrder result (spec 2.6). The refund happened when this answer
 * arrives (code 200), so every field but `orderNo` (the requested one when
 * the answer lacks it) is optional: one that is missing or unreadable is
 * left out (and reported to the client's `logger.warn`). In `audit` mode
 * the refund awaits an administrator (`refundStatus` 0, no `refundOrderNo`).
 *
 * @example
 * const c: CancelOrderResult = await client.cancelOrder({ orderNo });
 * if (c.refundMode === "audit") console.warn("refund queued for review");
 */
export type CancelOrderResult = Filled<ReadOf<typeof cancelOrderResult>, "orderNo">;

// ---------------------------------------------------------------------------
// GetCertificateStatus
// ---------------------------------------------------------------------------

/**
 * Validation state of one name.
 *
 * @example
 * const pending = status.domainStatuses.filter((d: DomainStatus) => !d.verified);
 */
export type DomainStatus = ReadOf<typeof domainStatus>;

/**
 * GetCertificateStatus result. Rate limit: one read per order per
 * `cooldownSeconds` (180); earlier reads fail with kind `rate_limited` and
 * `retryAfter`.
 *
 * @example
 * const s: CertificateStatus = await client.getCertificateStatus({ orderNo });
 * if (s.certStatus === CertStatus.Issued) console.log(s.serialNumber);
 */
export type CertificateStatus = ReadOf<typeof certificateStatus>;

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
export type CertificateMaterial = ReadOf<typeof certificateMaterial>;

/**
 * DownloadCertificate result (only when the certificate is issued).
 *
 * @example
 * const d: CertificateDownload = await client.downloadCertificate({ orderNo });
 * writeFileSync("fullchain.pem", d.certificate.certificateChain);
 */
export type CertificateDownload = ReadOf<typeof certificateDownload>;

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
