import { z } from "zod";
import { wireName, type WireFields } from "./encoding.js";
import type { PartnerOperation } from "./operations.js";
import {
  CANCEL_REASON_MAX_LENGTH,
  COUPON_TYPES,
  DOMAIN_TYPE_CODES,
  HASH_ALGORITHMS,
  KEY_SPECS,
  keySpecFits,
  PAYMENT_METHODS,
  SIGNATURE_ALGORITHMS,
  VERIFICATION_METHODS,
  VERIFICATION_TYPE_CODES,
} from "./vocabulary.js";

// Request checks and the mapping to the specification's wire fields, one
// declaration per request: its zod fields (a plain object, whose member docs
// reach the public type) are what a strict zod object checks and what the
// request's public type is (`InputOf`; types.ts names them through
// `RequestOf<Op>`: `CreateOrderRequest` & co.). They are declared in the
// order the specification lists and the client sends them, each under its
// name in snake_case unless an exception says otherwise ({@link toWire}).
//
// Every bad input is refused here, before a byte is sent (and before any money
// moves), with the field (camelCase, as the caller wrote it) and the rule.
// Objects are strict: an unknown field (a typo such as `sanDomain`) is
// refused rather than silently dropped from a purchase. Fields the caller
// leaves out are not sent, except where the specification lists a field
// that "may be sent empty" and the client has nothing to put in it
// (`email_suffix`, `reason`): those go out empty.

const required = (what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : `must be ${what}`);

const text = z
  .string({ error: required("a string") })
  .refine((s) => s.trim().length > 0, "must not be empty")
  .refine((s) => s === s.trim(), "must not have leading or trailing whitespace");

const orderNo = text.refine((s) => s.length <= 64 && /^[\x21-\x7e]+$/.test(s), "must be at most 64 printable ASCII characters");

const positiveInt = z.number({ error: required("a number") }).int("must be an integer").positive("must be positive");

const names = z.array(text, { error: "must be an array of strings" });

/** A zod enum over a vocabulary list whose message lists the allowed values. */
function oneOf<const V extends readonly [string, ...string[]]>(values: V) {
  return z.enum(values, { error: `must be one of ${values.join(", ")}` });
}

const emailAddress = text.refine((s) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(s), "must be an e-mail address");

/** The zod fields of a request (plain objects, so that their TSDoc reaches the request types, also in `.d.ts`). */
type Fields = z.core.$ZodLooseShape;

/** The camelCase request the zod fields `F` accept: what a caller passes. */
export type InputOf<F extends Fields> = z.input<z.ZodObject<F, z.core.$strict>>;

/** A request's check and encoding: the camelCase request of `F` in, its wire fields out. */
export type RequestSchema<F extends Fields> = z.ZodType<WireFields, InputOf<F>>;

/** Fields the specification names other than by the snake_case rule, by field. */
type WireExceptions<F extends Fields> = { readonly [K in keyof F]?: string };

/**
 * `value`'s fields under their wire names (`orderNo` → `order_no`, or the
 * exception), in the order `fields` declares them; values as given
 * (`undefined` is not sent).
 *
 * @example
 * toWire({ orderNo, certId }, { orderNo: "A1", certId: "c" }) // { order_no: "A1", cert_id: "c" }
 */
function toWire<F extends Fields, V extends { readonly [K in keyof F]?: unknown }>(fields: F, value: V, exceptions: WireExceptions<F> = {}): { [wire: string]: V[keyof V] } {
  const out: { [wire: string]: V[keyof V] } = {};
  for (const key of Object.keys(fields) as (keyof F & keyof V & string)[]) {
    out[exceptions[key] ?? wireName(key)] = value[key];
  }
  return out;
}

/** Spec 2.4; sent under the specification's member names. */
export const companyInfoFields = {
  /** Full company name; with a custom CSR, the CSR's organisation must equal it. */
  companyName: text,
  /** Two-letter country/region code. */
  countryCode: z.string({ error: required("a string") }).regex(/^[A-Za-z]{2}$/, "must be a two-letter country/region code, e.g. DE"),
  /** Contact's family name. */
  contactFirst: text,
  /** Contact's given name. */
  contactLast: text,
  /** Contact e-mail. */
  email: emailAddress,
  /** Registration or business licence number (`registration_no`). */
  registrationNo: text.optional(),
  countryName: text.optional(),
  /** Province/state in pinyin or English (`province_pinyin`). */
  province: text.optional(),
  /** City in pinyin or English (`city_pinyin`). */
  city: text.optional(),
  address: text.optional(),
  postalCode: text.optional(),
  phone: text.optional(),
  /** Contact's position. */
  contactTitle: text.optional(),
  /** Contact's identity document number. */
  idNumber: text.optional(),
};
const companyInfo: z.ZodObject<typeof companyInfoFields, z.core.$strict> = z.strictObject(companyInfoFields, {
  error: "must be an object with companyName, countryCode, contactFirst, contactLast, email (and optional members of spec 2.4)",
});

/** `company_info` as sent: the members given, under the specification's names. */
function companyInfoWire(c: z.output<typeof companyInfo>): { [key: string]: string } {
  const wire = toWire(companyInfoFields, c, { province: "province_pinyin", city: "city_pinyin" });
  return Object.fromEntries(Object.entries(wire).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Order-keyed operations: ApplySign, GetRecord, GetCertificateStatus. */
const orderRefFields = { orderNo };
export const orderRefInput: RequestSchema<typeof orderRefFields> = z
  .strictObject(orderRefFields)
  .transform((r): WireFields => toWire(orderRefFields, r));

/** Product list filters. */
const listProductsFields = {
  domainType: oneOf(DOMAIN_TYPE_CODES).optional(),
  brandCode: text.optional(),
  verificationType: oneOf(VERIFICATION_TYPE_CODES).optional(),
  /** Fuzzy match. */
  productName: text.optional(),
  /** Exact match. */
  productCode: text.optional(),
  /** 1-based, default 1. */
  page: positiveInt.optional(),
  /** Default 100, max 500. */
  limit: positiveInt.max(500, "must be at most 500").optional(),
};
export const listProductsInput: RequestSchema<typeof listProductsFields> = z
  .strictObject(listProductsFields)
  .transform((f): WireFields => toWire(listProductsFields, f));

/** CreateOrder (spec 4.3). */
const createOrderFields = {
  productCode: text.optional(),
  productId: positiveInt.optional(),
  /** Main domain, or the IP address of an ipv4/ipv6 product (spec 2.3). */
  domain: text,
  /** An existing company of the account (OV/EV); or give `companyInfo`. */
  companyId: positiveInt.optional(),
  companyInfo: companyInfo.optional(),
  /** Additional plain domains. */
  sanDomains: names.optional(),
  /** Additional wildcard domains. */
  wildcardDomains: names.optional(),
  /** Own PEM CSR; when absent the service generates the key pair. */
  customCsr: z
    .string({ error: "must be a string" })
    .refine((s) => /-----BEGIN (NEW )?CERTIFICATE REQUEST-----/.test(s), "must be a PEM certificate signing request")
    .optional(),
  /** Term in months. Sent as given; the service reads `months` before `years`. */
  months: positiveInt.optional(),
  /** Term in years. Sent as given, also together with `months`. */
  years: positiveInt.optional(),
  signatureAlgorithm: oneOf(SIGNATURE_ALGORITHMS).optional(),
  /** Must belong to `signatureAlgorithm` when both are given. */
  keySpec: oneOf(KEY_SPECS).optional(),
  hashAlgorithm: oneOf(HASH_ALGORITHMS).optional(),
  verificationMethod: oneOf(VERIFICATION_METHODS).optional(),
  paymentMethod: oneOf(PAYMENT_METHODS).optional(),
  couponType: oneOf(COUPON_TYPES).optional(),
  couponId: positiveInt.optional(),
  couponCode: text.optional(),
};
export const createOrderInput: RequestSchema<typeof createOrderFields> = z
  .strictObject(createOrderFields)
  .superRefine((r, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if ((r.productCode === undefined) === (r.productId === undefined)) {
      issue("productCode", "exactly one of productCode and productId is required");
    }
    if (r.keySpec !== undefined && r.signatureAlgorithm !== undefined && !keySpecFits(r.signatureAlgorithm, r.keySpec)) {
      issue("keySpec", `must be a key spec of signatureAlgorithm ${r.signatureAlgorithm}`);
    }
    if (r.companyId !== undefined && r.companyInfo !== undefined) issue("companyInfo", "give companyId or companyInfo, not both");
    if (r.couponType === "coupon" && (r.couponId === undefined || r.couponCode !== undefined)) {
      issue("couponId", 'couponType "coupon" requires couponId (and no couponCode)');
    }
    if (r.couponType === "code" && (r.couponCode === undefined || r.couponId !== undefined)) {
      issue("couponCode", 'couponType "code" requires couponCode (and no couponId)');
    }
    if (r.couponType === undefined && (r.couponId !== undefined || r.couponCode !== undefined)) {
      issue("couponType", "is required with couponId or couponCode");
    }
  })
  .transform((r): WireFields => toWire(createOrderFields, { ...r, companyInfo: r.companyInfo && companyInfoWire(r.companyInfo) }));

/**
 * ChangeVertificationMethod (spec 4.5). `email_suffix` is sent empty: the
 * specification allows that and does not say what it means, and the
 * `email-<suffix>` method codes already name the mailbox.
 */
const changeVerificationMethodFields = { orderNo, method: oneOf(VERIFICATION_METHODS) };
export const changeVerificationMethodInput: RequestSchema<typeof changeVerificationMethodFields> = z
  .strictObject(changeVerificationMethodFields)
  .transform((r): WireFields => ({ ...toWire(changeVerificationMethodFields, r), email_suffix: "" }));

/**
 * CancelOrder (spec 4.7). `reason` is sent empty when not given (the
 * specification allows it) and capped: the service's limit is not published.
 */
const cancelOrderFields = {
  orderNo,
  reason: z
    .string({ error: "must be a string" })
    .max(CANCEL_REASON_MAX_LENGTH, `must be at most ${CANCEL_REASON_MAX_LENGTH} characters`)
    .optional(),
};
export const cancelOrderInput: RequestSchema<typeof cancelOrderFields> = z
  .strictObject(cancelOrderFields)
  .transform((r): WireFields => toWire(cancelOrderFields, { ...r, reason: r.reason ?? "" }));

/** DownloadCertificate: one certificate of the order by `cert_id` or `installment_no`, or the earliest. */
const downloadCertificateFields = { orderNo, certId: text.optional(), installmentNo: positiveInt.optional() };
export const downloadCertificateInput: RequestSchema<typeof downloadCertificateFields> = z
  .strictObject(downloadCertificateFields)
  .superRefine((r, ctx) => {
    if (r.certId !== undefined && r.installmentNo !== undefined) {
      ctx.addIssue({ code: "custom", path: ["installmentNo"], message: "give certId or installmentNo, not both" });
    }
  })
  .transform((r): WireFields => toWire(downloadCertificateFields, r));

/** Each operation's request check and encoding, by operation (GetUserData sends no fields). */
export const REQUESTS = {
  GetUserProduct: listProductsInput,
  CreateOrder: createOrderInput,
  ApplySign: orderRefInput,
  GetRecord: orderRefInput,
  ChangeVertificationMethod: changeVerificationMethodInput,
  CancelOrder: cancelOrderInput,
  GetCertificateStatus: orderRefInput,
  DownloadCertificate: downloadCertificateInput,
} as const satisfies { readonly [Op in Exclude<PartnerOperation, "GetUserData">]: z.ZodType<WireFields, unknown> };

/** An operation that takes request fields. */
export type RequestOperation = keyof typeof REQUESTS;

/** The request (camelCase) an operation's check accepts: the input type of its schema. */
export type RequestOf<Op extends RequestOperation> = z.input<(typeof REQUESTS)[Op]>;
