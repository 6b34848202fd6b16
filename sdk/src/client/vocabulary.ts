/**
 * Every list of allowed values of the Partner API, declared once.
 *
 * The public types, the request checks and the response readers of the
 * client derive from these arrays, and so may other layers (rules, policy,
 * docs): import them instead of repeating a value.
 *
 * Two directions, two attitudes:
 * - **Requests** are checked against these lists before anything is sent:
 *   a value outside them is refused (`invalid_argument`).
 * - **Responses** may carry values that are not listed here (a new domain
 *   type, method or state). They are passed through as they came, never an
 *   error; the `is…` guards below tell a listed value from an unknown one.
 *
 * Sources: the specification (sections named per list) and, for what it
 * leaves "not shown", the service's fuller documentation.
 *
 * @example
 * import { VERIFICATION_METHODS, isVerificationMethod } from "pulumi-certreseller";
 * const known = VERIFICATION_METHODS.includes("dns"); // true
 * if (!isVerificationMethod(record.method)) console.warn(`unknown method ${record.method}`);
 */

// ---------------------------------------------------------------------------
// Open value types: a listed value or anything the service sends later
// ---------------------------------------------------------------------------

/**
 * A string from a list of known values, or any other string the service
 * sends. `Open<"a" | "b">` keeps editor completion for the known values while
 * accepting new ones; narrow with the list's `is…` guard.
 *
 * @example
 * const m: Open<VerificationMethod> = "email"; // an unlisted value is allowed
 */
export type Open<Known extends string> = Known | (string & {});

/**
 * A number from a list of known values, or any other number the service
 * sends (e.g. a new `cert_status`).
 *
 * @example
 * const s: OpenInt<CertStatus> = 7;
 */
export type OpenInt<Known extends number> = Known | (number & {});

function guard<const V extends readonly (string | number)[]>(values: V) {
  return (value: unknown): value is V[number] => (values as readonly unknown[]).includes(value);
}

// ---------------------------------------------------------------------------
// Products
// ---------------------------------------------------------------------------

/**
 * Domain types of a product (`domain_type_code`, spec 2.3):
 *
 * | code | names |
 * |---|---|
 * | `single` | exactly one plain domain; no `san_domains`, no `wildcard_domains` |
 * | `wildcard` | the main domain is `*.<domain>`; no extra domains |
 * | `multiple-single` | main domain and `san_domains` are plain domains; no wildcards |
 * | `multiple-wildcard` | main domain and `wildcard_domains` are wildcards |
 * | `multiple-mix` | plain and wildcard domains mixed |
 * | `ipv4` | the main domain field holds an IPv4 address; no extra domains |
 * | `ipv6` | the main domain field holds an IPv6 address; no extra domains |
 *
 * @example
 * const multi = DOMAIN_TYPE_CODES.filter((c) => c.startsWith("multiple-"));
 */
export const DOMAIN_TYPE_CODES = ["single", "wildcard", "multiple-single", "multiple-wildcard", "multiple-mix", "ipv4", "ipv6"] as const;
/** One of {@link DOMAIN_TYPE_CODES}. @example const t: DomainTypeCode = "multiple-mix"; */
export type DomainTypeCode = (typeof DOMAIN_TYPE_CODES)[number];
/** True for a listed domain type code. @example if (!isDomainTypeCode(p.domainTypeCode)) skip(p); */
export const isDomainTypeCode = guard(DOMAIN_TYPE_CODES);

/**
 * Validation levels of a product (`verification_type_code`, and the
 * `verification_type` filter of the product list).
 *
 * @example
 * const needsCompany = (code: VerificationTypeCode) => code !== "dv";
 */
export const VERIFICATION_TYPE_CODES = ["dv", "ov", "ev"] as const;
/** One of {@link VERIFICATION_TYPE_CODES}. @example const v: VerificationTypeCode = "ov"; */
export type VerificationTypeCode = (typeof VERIFICATION_TYPE_CODES)[number];
/** True for a listed validation level. @example isVerificationTypeCode("dv") === true */
export const isVerificationTypeCode = guard(VERIFICATION_TYPE_CODES);

/**
 * Where a product's price comes from (`price_source`).
 *
 * @example
 * const custom = product.priceSource === "user";
 */
export const PRICE_SOURCES = ["user", "partner", "default"] as const;
/** One of {@link PRICE_SOURCES}. @example const s: PriceSource = "partner"; */
export type PriceSource = (typeof PRICE_SOURCES)[number];
/** True for a listed price source. @example isPriceSource("default") === true */
export const isPriceSource = guard(PRICE_SOURCES);

// ---------------------------------------------------------------------------
// Keys and signatures (CreateOrder, spec 4.3)
// ---------------------------------------------------------------------------

/**
 * Key algorithm families (`signature_algorithm`). The service's default is `rsa`.
 *
 * @example
 * await client.createOrder({ productCode, domain, signatureAlgorithm: "ecc" });
 */
export const SIGNATURE_ALGORITHMS = ["rsa", "ecc", "sm2"] as const;
/** One of {@link SIGNATURE_ALGORITHMS}. @example const a: SignatureAlgorithm = "rsa"; */
export type SignatureAlgorithm = (typeof SIGNATURE_ALGORITHMS)[number];
/** True for a listed signature algorithm. @example isSignatureAlgorithm("ecc") === true */
export const isSignatureAlgorithm = guard(SIGNATURE_ALGORITHMS);

/**
 * Concrete key types (`key_spec`) allowed with each signature algorithm.
 * The product list says which of them a product offers
 * (`signatureAlgorithms[].encryptionStrengths[].code`).
 *
 * @example
 * KEY_SPECS_BY_ALGORITHM.ecc // ["p-256", "p-384"]
 */
export const KEY_SPECS_BY_ALGORITHM = {
  rsa: ["rsa-2048", "rsa-3072", "rsa-4096"],
  ecc: ["p-256", "p-384"],
  sm2: ["sm2"],
} as const satisfies { readonly [A in SignatureAlgorithm]: readonly string[] };

/**
 * Every key spec of {@link KEY_SPECS_BY_ALGORITHM}, in one list.
 *
 * @example
 * KEY_SPECS.includes("rsa-3072") // true
 */
export const KEY_SPECS = [...KEY_SPECS_BY_ALGORITHM.rsa, ...KEY_SPECS_BY_ALGORITHM.ecc, ...KEY_SPECS_BY_ALGORITHM.sm2] as const;
/** One of {@link KEY_SPECS}. @example const k: KeySpec = "p-256"; */
export type KeySpec = (typeof KEY_SPECS)[number];
/** True for a listed key spec. @example isKeySpec("rsa-2048") === true */
export const isKeySpec = guard(KEY_SPECS);

/**
 * The key spec the service derives when `key_spec` is sent empty.
 *
 * @example
 * const spec = request.keySpec ?? DEFAULT_KEY_SPEC[request.signatureAlgorithm ?? "rsa"]; // "rsa-2048"
 */
export const DEFAULT_KEY_SPEC = { rsa: "rsa-2048", ecc: "p-256", sm2: "sm2" } as const satisfies {
  readonly [A in SignatureAlgorithm]: (typeof KEY_SPECS_BY_ALGORITHM)[A][number];
};

/**
 * True when `keySpec` belongs to `algorithm`.
 *
 * @example
 * keySpecFits("ecc", "rsa-2048") === false
 */
export function keySpecFits(algorithm: SignatureAlgorithm, keySpec: string): boolean {
  return (KEY_SPECS_BY_ALGORITHM[algorithm] as readonly string[]).includes(keySpec);
}

/**
 * Signature hash algorithms (`hash_algorithm`). The service's default is `sha256`.
 *
 * @example
 * await client.createOrder({ productCode, domain, hashAlgorithm: "sha384" });
 */
export const HASH_ALGORITHMS = ["sha256", "sha384"] as const;
/** One of {@link HASH_ALGORITHMS}. @example const h: HashAlgorithm = "sha256"; */
export type HashAlgorithm = (typeof HASH_ALGORITHMS)[number];
/** True for a listed hash algorithm. @example isHashAlgorithm("sha1") === false */
export const isHashAlgorithm = guard(HASH_ALGORITHMS);

// ---------------------------------------------------------------------------
// Domain validation (spec 4.5, 2.5)
// ---------------------------------------------------------------------------

/**
 * Domain-control validation methods (`verification_method` of CreateOrder,
 * `method` of ChangeVertificationMethod; spec 4.5):
 *
 * | code | meaning |
 * |---|---|
 * | `dns` | DNS TXT record |
 * | `cname` | CNAME record (the product must support it) |
 * | `file` | file over HTTP |
 * | `email-admin` | e-mail to admin / administrator |
 * | `email-postmaster` | e-mail to postmaster |
 * | `email-webmaster` | e-mail to webmaster |
 * | `email-hostmaster` | e-mail to hostmaster |
 * | `dcv` | DCV validation (the product must support it) |
 *
 * Answers may name other methods (e.g. plain `email` after an e-mail method
 * was chosen); those pass through as strings.
 *
 * @example
 * await client.changeVerificationMethod({ orderNo, method: "email-hostmaster" });
 */
export const VERIFICATION_METHODS = [
  "dns",
  "cname",
  "file",
  "email-admin",
  "email-postmaster",
  "email-webmaster",
  "email-hostmaster",
  "dcv",
] as const;
/** One of {@link VERIFICATION_METHODS}. @example const m: VerificationMethod = "file"; */
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];
/** True for a listed validation method. @example isVerificationMethod("https") === false */
export const isVerificationMethod = guard(VERIFICATION_METHODS);

/**
 * Mailbox names of e-mail validation: the `email-<suffix>` methods, and the
 * values the service's fuller documentation gives for `email_suffix`.
 *
 * @example
 * const mailbox = `${EMAIL_SUFFIXES[0]}@example.com`; // admin@example.com
 */
export const EMAIL_SUFFIXES = ["admin", "postmaster", "webmaster", "hostmaster"] as const;
/** One of {@link EMAIL_SUFFIXES}. @example const s: EmailSuffix = "postmaster"; */
export type EmailSuffix = (typeof EMAIL_SUFFIXES)[number];
/** True for a listed e-mail suffix. @example isEmailSuffix("root") === false */
export const isEmailSuffix = guard(EMAIL_SUFFIXES);

/**
 * The mailbox an e-mail validation method writes to, or `undefined` for a
 * method that is not e-mail.
 *
 * @example
 * emailSuffixOf("email-webmaster") === "webmaster"
 */
export function emailSuffixOf(method: string): EmailSuffix | undefined {
  const suffix = method.startsWith("email-") ? method.slice("email-".length) : undefined;
  return suffix !== undefined && isEmailSuffix(suffix) ? suffix : undefined;
}

/**
 * Which name of the order a validation record is for (`type` of a record,
 * spec 2.5). An empty string also occurs.
 *
 * @example
 * const mainRecords = records.dnsRecords.filter((r) => r.type === "main");
 */
export const RECORD_SCOPES = ["main", "san", "wildcard", ""] as const;
/** One of {@link RECORD_SCOPES}. @example const s: RecordScope = "san"; */
export type RecordScope = (typeof RECORD_SCOPES)[number];
/** True for a listed record scope. @example isRecordScope("") === true */
export const isRecordScope = guard(RECORD_SCOPES);

/**
 * DNS record types of `dns_records[].record_type` (spec 2.5 shows `TXT`;
 * CNAME validation publishes `CNAME`).
 *
 * @example
 * for (const r of records.dnsRecords) if (r.recordType === "TXT") publishTxt(r);
 */
export const DNS_RECORD_TYPES = ["TXT", "CNAME"] as const;
/** One of {@link DNS_RECORD_TYPES}. @example const t: DnsRecordType = "TXT"; */
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];
/** True for a listed DNS record type. @example isDnsRecordType("MX") === false */
export const isDnsRecordType = guard(DNS_RECORD_TYPES);

/**
 * Record types of `http_records[].record_type` (spec 2.5).
 *
 * @example
 * HTTP_RECORD_TYPES[0] === "FILE"
 */
export const HTTP_RECORD_TYPES = ["FILE"] as const;
/** One of {@link HTTP_RECORD_TYPES}. @example const t: HttpRecordType = "FILE"; */
export type HttpRecordType = (typeof HTTP_RECORD_TYPES)[number];

// ---------------------------------------------------------------------------
// Payment, coupons, refunds
// ---------------------------------------------------------------------------

/**
 * How an order is paid (`payment_method`): account balance (the service's
 * default) or credit line; no mixing.
 *
 * @example
 * await client.createOrder({ productCode, domain, paymentMethod: "credit" });
 */
export const PAYMENT_METHODS = ["balance", "credit"] as const;
/** One of {@link PAYMENT_METHODS}. @example const p: PaymentMethod = "balance"; */
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** True for a listed payment method. @example isPaymentMethod("card") === false */
export const isPaymentMethod = guard(PAYMENT_METHODS);

/**
 * Coupon kinds (`coupon_type`): `coupon` goes with `coupon_id`, `code` with `coupon_code`.
 *
 * @example
 * await client.createOrder({ productCode, domain, couponType: "code", couponCode: "WELCOME10" });
 */
export const COUPON_TYPES = ["coupon", "code"] as const;
/** One of {@link COUPON_TYPES}. @example const c: CouponType = "code"; */
export type CouponType = (typeof COUPON_TYPES)[number];
/** True for a listed coupon kind. @example isCouponType("coupon") === true */
export const isCouponType = guard(COUPON_TYPES);

/**
 * How a cancellation was refunded (`refund_mode`): `direct` (refunded at
 * once) or `audit` (the upstream cancel failed; a refund request awaits an
 * administrator, and there is no `refund_order_no`).
 *
 * @example
 * if (result.refundMode === "audit") console.warn("refund awaits review");
 */
export const REFUND_MODES = ["direct", "audit"] as const;
/** One of {@link REFUND_MODES}. @example const m: RefundMode = "direct"; */
export type RefundMode = (typeof REFUND_MODES)[number];
/** True for a listed refund mode. @example isRefundMode("audit") === true */
export const isRefundMode = guard(REFUND_MODES);

/**
 * Where a refund goes (`refund_to`).
 *
 * @example
 * const toCredit = result.refundTo === "credit";
 */
export const REFUND_TARGETS = ["balance", "credit"] as const;
/** One of {@link REFUND_TARGETS}. @example const t: RefundTarget = "credit"; */
export type RefundTarget = (typeof REFUND_TARGETS)[number];
/** True for a listed refund target. @example isRefundTarget("balance") === true */
export const isRefundTarget = guard(REFUND_TARGETS);

// ---------------------------------------------------------------------------
// Limits of request fields
// ---------------------------------------------------------------------------

/**
 * Longest `reason` the client sends with CancelOrder. The service's limit is
 * not published; 200 characters stays below the common database column sizes.
 *
 * @example
 * const reason = text.slice(0, CANCEL_REASON_MAX_LENGTH);
 */
export const CANCEL_REASON_MAX_LENGTH = 200;

// ---------------------------------------------------------------------------
// States: value, constant name and meaning
// ---------------------------------------------------------------------------

/**
 * One value of an integer state, with the constant name the client gives it
 * and its meaning.
 *
 * @example
 * const issued: StateValue = CERT_STATUSES[1]; // { value: 1, name: "Issued", meaning: "issued" }
 */
export interface StateValue {
  readonly value: number;
  readonly name: string;
  readonly meaning: string;
}

type Constants<T extends readonly StateValue[]> = { readonly [E in T[number] as E["name"]]: E["value"] };

function constants<const T extends readonly StateValue[]>(states: T): Constants<T> {
  return Object.freeze(Object.fromEntries(states.map((s) => [s.name, s.value]))) as Constants<T>;
}

/** A guard for the listed values of a state table. */
function stateGuard<const T extends readonly StateValue[]>(states: T) {
  return guard(states.map((s) => s.value) as readonly T[number]["value"][]);
}

function describer(states: readonly StateValue[]) {
  return (value: number): string => states.find((s) => s.value === value)?.meaning ?? `unknown (${value})`;
}

/**
 * Per-certificate states (`cert_status`). An order's first certificate starts
 * at 0; ApplySign (allowed in 0 and 3) moves it to 2; passing validation to 1.
 *
 * @example
 * CERT_STATUSES.map((s) => `${s.value} ${s.meaning}`)
 */
export const CERT_STATUSES = [
  { value: 0, name: "AwaitingSubmission", meaning: "awaiting submission" },
  { value: 1, name: "Issued", meaning: "issued" },
  { value: 2, name: "Issuing", meaning: "issuing (submitted, awaiting domain validation)" },
  { value: 3, name: "IssuanceFailed", meaning: "issuance failed" },
  { value: 4, name: "Revoking", meaning: "revoking" },
  { value: 5, name: "Revoked", meaning: "revoked/refunded" },
  { value: 6, name: "RefundInProgress", meaning: "refund in progress" },
] as const satisfies readonly StateValue[];

/**
 * Per-certificate state (`cert_status`) constants.
 *
 * @example
 * if (status.certStatus === CertStatus.Issued) await client.downloadCertificate({ orderNo });
 */
export const CertStatus = constants(CERT_STATUSES);
/** A listed `cert_status` value (0–6); see {@link CertStatus}. @example const s: CertStatus = CertStatus.Issuing; */
export type CertStatus = (typeof CERT_STATUSES)[number]["value"];
/** True for a listed `cert_status`. @example isCertStatus(7) === false */
export const isCertStatus = stateGuard(CERT_STATUSES);
/** The meaning of a `cert_status`, or `unknown (n)`. @example describeCertStatus(2) // "issuing (submitted, awaiting domain validation)" */
export const describeCertStatus = describer(CERT_STATUSES);

/**
 * Order states (`order_status`).
 *
 * @example
 * ORDER_STATUSES.find((s) => s.value === 4)?.meaning // "refunded"
 */
export const ORDER_STATUSES = [
  { value: 0, name: "Unpaid", meaning: "unpaid" },
  { value: 1, name: "Processing", meaning: "processing" },
  { value: 2, name: "Completed", meaning: "completed" },
  { value: 3, name: "Cancelled", meaning: "cancelled" },
  { value: 4, name: "Refunded", meaning: "refunded" },
] as const satisfies readonly StateValue[];

/**
 * Order state (`order_status`) constants.
 *
 * @example
 * const done = status.orderStatus === OrderStatus.Refunded;
 */
export const OrderStatus = constants(ORDER_STATUSES);
/** A listed `order_status` value (0–4); see {@link OrderStatus}. @example const s: OrderStatus = OrderStatus.Processing; */
export type OrderStatus = (typeof ORDER_STATUSES)[number]["value"];
/** True for a listed `order_status`. @example isOrderStatus(2) === true */
export const isOrderStatus = stateGuard(ORDER_STATUSES);
/** The meaning of an `order_status`, or `unknown (n)`. @example describeOrderStatus(3) // "cancelled" */
export const describeOrderStatus = describer(ORDER_STATUSES);

/**
 * Refund states (`refund_status`; spec section 3 shows 3 after a cancellation).
 *
 * @example
 * REFUND_STATUSES.map((s) => s.value) // [0, 3]
 */
export const REFUND_STATUSES = [
  { value: 0, name: "AwaitingReview", meaning: "awaiting manual review" },
  { value: 3, name: "Approved", meaning: "approved" },
] as const satisfies readonly StateValue[];

/**
 * Refund state (`refund_status`) constants.
 *
 * @example
 * if (cancel.refundStatus === RefundStatus.AwaitingReview) console.log("refund queued for an administrator");
 */
export const RefundStatus = constants(REFUND_STATUSES);
/** A listed `refund_status` value; see {@link RefundStatus}. @example const r: RefundStatus = RefundStatus.Approved; */
export type RefundStatus = (typeof REFUND_STATUSES)[number]["value"];
/** True for a listed `refund_status`. @example isRefundStatus(3) === true */
export const isRefundStatus = stateGuard(REFUND_STATUSES);
/** The meaning of a `refund_status`, or `unknown (n)`. @example describeRefundStatus(0) // "awaiting manual review" */
export const describeRefundStatus = describer(REFUND_STATUSES);

/**
 * Account states (`user.status` of GetUserData).
 *
 * @example
 * USER_STATUSES.find((s) => s.value === me.user.status)?.meaning
 */
export const USER_STATUSES = [
  { value: 0, name: "Banned", meaning: "banned" },
  { value: 1, name: "Normal", meaning: "normal" },
  { value: 2, name: "AwaitingEmailCheck", meaning: "awaiting e-mail check" },
  { value: 3, name: "AwaitingPhoneCheck", meaning: "awaiting phone check" },
] as const satisfies readonly StateValue[];

/**
 * Account state (`user.status`) constants.
 *
 * @example
 * if (me.user.status !== UserStatus.Normal) throw new Error("account not usable");
 */
export const UserStatus = constants(USER_STATUSES);
/** A listed `user.status` value; see {@link UserStatus}. @example const s: UserStatus = UserStatus.Normal; */
export type UserStatus = (typeof USER_STATUSES)[number]["value"];
/** True for a listed `user.status`. @example isUserStatus(1) === true */
export const isUserStatus = stateGuard(USER_STATUSES);
/** The meaning of a `user.status`, or `unknown (n)`. @example describeUserStatus(0) // "banned" */
export const describeUserStatus = describer(USER_STATUSES);
