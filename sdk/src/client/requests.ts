import { z } from "zod";
import type { WireFields } from "./encoding.js";
import { CANCEL_REASON_MAX_LENGTH } from "./types.js";
import {
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

// Request checks and the mapping to the specification's wire fields. Every
// bad input is refused here, before a byte is sent (and before any money
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

/** Spec 2.4; sent under the specification's member names. */
const companyInfo = z.strictObject(
  {
    companyName: text,
    countryCode: z.string({ error: required("a string") }).regex(/^[A-Za-z]{2}$/, "must be a two-letter country/region code, e.g. DE"),
    contactFirst: text,
    contactLast: text,
    email: emailAddress,
    registrationNo: text.optional(),
    countryName: text.optional(),
    province: text.optional(),
    city: text.optional(),
    address: text.optional(),
    postalCode: text.optional(),
    phone: text.optional(),
    contactTitle: text.optional(),
    idNumber: text.optional(),
  },
  { error: "must be an object with companyName, countryCode, contactFirst, contactLast, email (and optional members of spec 2.4)" },
);

type CompanyInfoInput = z.output<typeof companyInfo>;

function companyInfoWire(c: CompanyInfoInput): Record<string, string> {
  const wire: Record<string, string | undefined> = {
    company_name: c.companyName,
    country_code: c.countryCode,
    contact_first: c.contactFirst,
    contact_last: c.contactLast,
    email: c.email,
    registration_no: c.registrationNo,
    country_name: c.countryName,
    province_pinyin: c.province,
    city_pinyin: c.city,
    address: c.address,
    postal_code: c.postalCode,
    phone: c.phone,
    contact_title: c.contactTitle,
    id_number: c.idNumber,
  };
  return Object.fromEntries(Object.entries(wire).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Order-keyed operations: ApplySign, GetRecord, GetCertificateStatus. */
export const orderRefInput = z.strictObject({ orderNo }).transform((r): WireFields => ({ order_no: r.orderNo }));

/** Product list filters. */
export const listProductsInput = z
  .strictObject({
    domainType: oneOf(DOMAIN_TYPE_CODES).optional(),
    brandCode: text.optional(),
    verificationType: oneOf(VERIFICATION_TYPE_CODES).optional(),
    productName: text.optional(),
    productCode: text.optional(),
    page: positiveInt.optional(),
    limit: positiveInt.max(500, "must be at most 500").optional(),
  })
  .transform(
    (f): WireFields => ({
      domain_type: f.domainType,
      brand_code: f.brandCode,
      verification_type: f.verificationType,
      product_name: f.productName,
      product_code: f.productCode,
      page: f.page,
      limit: f.limit,
    }),
  );

/** CreateOrder (spec 4.3). */
export const createOrderInput = z
  .strictObject({
    productCode: text.optional(),
    productId: positiveInt.optional(),
    domain: text,
    sanDomains: names.optional(),
    wildcardDomains: names.optional(),
    customCsr: z
      .string({ error: "must be a string" })
      .refine((s) => /-----BEGIN (NEW )?CERTIFICATE REQUEST-----/.test(s), "must be a PEM certificate signing request")
      .optional(),
    months: positiveInt.optional(),
    years: positiveInt.optional(),
    signatureAlgorithm: oneOf(SIGNATURE_ALGORITHMS).optional(),
    keySpec: oneOf(KEY_SPECS).optional(),
    hashAlgorithm: oneOf(HASH_ALGORITHMS).optional(),
    verificationMethod: oneOf(VERIFICATION_METHODS).optional(),
    paymentMethod: oneOf(PAYMENT_METHODS).optional(),
    companyId: positiveInt.optional(),
    companyInfo: companyInfo.optional(),
    couponType: oneOf(COUPON_TYPES).optional(),
    couponId: positiveInt.optional(),
    couponCode: text.optional(),
  })
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
  .transform(
    (r): WireFields => ({
      product_code: r.productCode,
      product_id: r.productId,
      domain: r.domain,
      company_id: r.companyId,
      company_info: r.companyInfo && companyInfoWire(r.companyInfo),
      san_domains: r.sanDomains,
      wildcard_domains: r.wildcardDomains,
      custom_csr: r.customCsr,
      months: r.months,
      years: r.years,
      signature_algorithm: r.signatureAlgorithm,
      key_spec: r.keySpec,
      hash_algorithm: r.hashAlgorithm,
      verification_method: r.verificationMethod,
      payment_method: r.paymentMethod,
      coupon_type: r.couponType,
      coupon_id: r.couponId,
      coupon_code: r.couponCode,
    }),
  );

/**
 * ChangeVertificationMethod (spec 4.5). `email_suffix` is sent empty: the
 * specification allows that and does not say what it means, and the
 * `email-<suffix>` method codes already name the mailbox.
 */
export const changeVerificationMethodInput = z
  .strictObject({ orderNo, method: oneOf(VERIFICATION_METHODS) })
  .transform((r): WireFields => ({ order_no: r.orderNo, method: r.method, email_suffix: "" }));

/**
 * CancelOrder (spec 4.7). `reason` is sent empty when not given (the
 * specification allows it) and capped: the service's limit is not published.
 */
export const cancelOrderInput = z
  .strictObject({
    orderNo,
    reason: z
      .string({ error: "must be a string" })
      .max(CANCEL_REASON_MAX_LENGTH, `must be at most ${CANCEL_REASON_MAX_LENGTH} characters`)
      .optional(),
  })
  .transform((r): WireFields => ({ order_no: r.orderNo, reason: r.reason ?? "" }));

/** DownloadCertificate: one certificate of the order by `cert_id` or `installment_no`, or the earliest. */
export const downloadCertificateInput = z
  .strictObject({ orderNo, certId: text.optional(), installmentNo: positiveInt.optional() })
  .superRefine((r, ctx) => {
    if (r.certId !== undefined && r.installmentNo !== undefined) {
      ctx.addIssue({ code: "custom", path: ["installmentNo"], message: "give certId or installmentNo, not both" });
    }
  })
  .transform((r): WireFields => ({ order_no: r.orderNo, cert_id: r.certId, installment_no: r.installmentNo }));
