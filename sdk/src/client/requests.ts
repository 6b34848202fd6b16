import { z } from "zod";
import type { WireFields } from "./encoding.js";
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
// `RequestOf<Op>`: `CreateOrderRequest` & co.); its wire-name map, typed by
// the same fields, says under which name and in which order each is sent.
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

/**
 * The wire name of every field of a request, in the order the fields are
 * sent. Typed by the request's fields: a field missing here, or one here that
 * the request does not have, does not compile.
 */
type WireNames<F extends Fields> = { readonly [K in keyof F]-?: string };

/** `value`'s fields under their wire names, in the order of `names`; values as given (`undefined` is not sent). */
function toWire<T extends object>(names: { readonly [K in keyof NoInfer<T>]-?: string }, value: T): { [wire: string]: T[keyof T] } {
  const out: { [wire: string]: T[keyof T] } = {};
  for (const key of Object.keys(names) as (keyof T & string)[]) out[names[key]] = value[key];
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

const COMPANY_INFO_WIRE: WireNames<typeof companyInfoFields> = {
  companyName: "company_name",
  countryCode: "country_code",
  contactFirst: "contact_first",
  contactLast: "contact_last",
  email: "email",
  registrationNo: "registration_no",
  countryName: "country_name",
  province: "province_pinyin",
  city: "city_pinyin",
  address: "address",
  postalCode: "postal_code",
  phone: "phone",
  contactTitle: "contact_title",
  idNumber: "id_number",
};

/** `company_info` as sent: the members given, under the specification's names. */
function companyInfoWire(c: z.output<typeof companyInfo>): { [key: string]: string } {
  return Object.fromEntries(Object.entries(toWire(COMPANY_INFO_WIRE, c)).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Order-keyed operations: ApplySign, GetRecord, GetCertificateStatus. */
const orderRefFields = { orderNo };
const ORDER_REF_WIRE: WireNames<typeof orderRefFields> = { orderNo: "order_no" };
export const orderRefInput: RequestSchema<typeof orderRefFields> = z
  .strictObject(orderRefFields)
  .transform((r): WireFields => toWire(ORDER_REF_WIRE, r));

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
const LIST_PRODUCTS_WIRE: WireNames<typeof listProductsFields> = {
  domainType: "domain_type",
  brandCode: "brand_code",
  verificationType: "verification_type",
  productName: "product_name",
  productCode: "product_code",
  page: "page",
  limit: "limit",
};
export const listProductsInput: RequestSchema<typeof listProductsFields> = z
  .strictObject(listProductsFields)
  .transform((f): WireFields => toWire(LIST_PRODUCTS_WIRE, f));

/** CreateOrder (spec 4.3). */
const createOrderFields = {
  productCode: text.optional(),
  productId: positiveInt.optional(),
  /** Main domain, or the IP address of an ipv4/ipv6 product (spec 2.3). */
  domain: text,
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
  /** An existing company of the account (OV/EV); or give `companyInfo`. */
  companyId: positiveInt.optional(),
  companyInfo: companyInfo.optional(),
  couponType: oneOf(COUPON_TYPES).optional(),
  couponId: positiveInt.optional(),
  couponCode: text.optional(),
};
const CREATE_ORDER_WIRE: WireNames<typeof createOrderFields> = {
  productCode: "product_code",
  productId: "product_id",
  domain: "domain",
  companyId: "company_id",
  companyInfo: "company_info",
  sanDomains: "san_domains",
  wildcardDomains: "wildcard_domains",
  customCsr: "custom_csr",
  months: "months",
  years: "years",
  signatureAlgorithm: "signature_algorithm",
  keySpec: "key_spec",
  hashAlgorithm: "hash_algorithm",
  verificationMethod: "verification_method",
  paymentMethod: "payment_method",
  couponType: "coupon_type",
  couponId: "coupon_id",
  couponCode: "coupon_code",
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
  .transform((r): WireFields => toWire(CREATE_ORDER_WIRE, { ...r, companyInfo: r.companyInfo && companyInfoWire(r.companyInfo) }));

/**
 * ChangeVertificationMethod (spec 4.5). `email_suffix` is sent empty: the
 * specification allows that and does not say what it means, and the
 * `email-<suffix>` method codes already name the mailbox.
 */
const changeVerificationMethodFields = { orderNo, method: oneOf(VERIFICATION_METHODS) };
const CHANGE_VERIFICATION_METHOD_WIRE: WireNames<typeof changeVerificationMethodFields> = { ...ORDER_REF_WIRE, method: "method" };
export const changeVerificationMethodInput: RequestSchema<typeof changeVerificationMethodFields> = z
  .strictObject(changeVerificationMethodFields)
  .transform((r): WireFields => ({ ...toWire(CHANGE_VERIFICATION_METHOD_WIRE, r), email_suffix: "" }));

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
const CANCEL_ORDER_WIRE: WireNames<typeof cancelOrderFields> = { ...ORDER_REF_WIRE, reason: "reason" };
export const cancelOrderInput: RequestSchema<typeof cancelOrderFields> = z
  .strictObject(cancelOrderFields)
  .transform((r): WireFields => toWire(CANCEL_ORDER_WIRE, { ...r, reason: r.reason ?? "" }));

/** DownloadCertificate: one certificate of the order by `cert_id` or `installment_no`, or the earliest. */
const downloadCertificateFields = { orderNo, certId: text.optional(), installmentNo: positiveInt.optional() };
const DOWNLOAD_CERTIFICATE_WIRE: WireNames<typeof downloadCertificateFields> = {
  ...ORDER_REF_WIRE,
  certId: "cert_id",
  installmentNo: "installment_no",
};
export const downloadCertificateInput: RequestSchema<typeof downloadCertificateFields> = z
  .strictObject(downloadCertificateFields)
  .superRefine((r, ctx) => {
    if (r.certId !== undefined && r.installmentNo !== undefined) {
      ctx.addIssue({ code: "custom", path: ["installmentNo"], message: "give certId or installmentNo, not both" });
    }
  })
  .transform((r): WireFields => toWire(DOWNLOAD_CERTIFICATE_WIRE, r));

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
