import { z } from "zod";
import type { WireFields } from "./encoding.js";

// Request checks and the mapping to wire fields. Every bad input is refused
// here, before a byte is sent (and before any money moves), with the field
// (camelCase, as the caller wrote it) and the rule. Objects are strict: an
// unknown field (a typo such as `sanDomain`) is refused rather than silently
// dropped from a purchase.

const required = (what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : `must be ${what}`);

const text = z
  .string({ error: required("a string") })
  .refine((s) => s.trim().length > 0, "must not be empty")
  .refine((s) => s === s.trim(), "must not have leading or trailing whitespace");

const orderNo = text.refine((s) => s.length <= 64 && /^[\x21-\x7e]+$/.test(s), "must be at most 64 printable ASCII characters");

const positiveInt = z.number({ error: required("a number") }).int("must be an integer").positive("must be positive");

const names = z.array(text, { error: "must be an array of strings" });

const verificationMethod = z.enum(["dns", "cname", "file", "https", "email"], {
  error: "must be one of dns, cname, file, https, email",
});
const emailSuffix = z.enum(["admin", "postmaster", "webmaster", "hostmaster"], {
  error: "must be one of admin, postmaster, webmaster, hostmaster",
});

const KEY_SPECS_BY_ALGORITHM = {
  rsa: ["rsa-2048", "rsa-3072", "rsa-4096"],
  ecc: ["p-256", "p-384"],
  sm2: ["sm2"],
} as const;

const companyInfo = z.strictObject(
  {
    companyName: text,
    registrationNumber: text,
    country: z.string({ error: "must be a string" }).regex(/^[A-Z]{2}$/, "must be an ISO 3166 alpha-2 code in capitals, e.g. DE"),
    state: text,
    city: text,
    address: text,
    postalCode: text,
    contactName: text,
    contactEmail: text.refine((s) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(s), "must be an e-mail address"),
    contactPhone: text,
  },
  { error: "must be an object with companyName, registrationNumber, country, state, city, address, postalCode, contactName, contactEmail, contactPhone" },
);

export const orderRefInput = z.strictObject({ orderNo }).transform((r): WireFields => ({ order_no: r.orderNo }));

export const listProductsInput = z
  .strictObject({
    domainType: z
      .enum(["single", "multi", "wildcard", "multi_wildcard", "flex", "ip", "ip_multi"], {
        error: "must be one of single, multi, wildcard, multi_wildcard, flex, ip, ip_multi",
      })
      .optional(),
    brandCode: text.optional(),
    verificationType: z.enum(["dv", "ov", "ev"], { error: "must be one of dv, ov, ev" }).optional(),
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

export const createOrderInput = z
  .strictObject({
    productCode: text.optional(),
    productId: positiveInt.optional(),
    domain: text,
    sanDomains: names.optional(),
    wildcardDomains: names.optional(),
    months: positiveInt.optional(),
    years: positiveInt.optional(),
    signatureAlgorithm: z.enum(["rsa", "ecc", "sm2"], { error: "must be one of rsa, ecc, sm2" }).optional(),
    keySpec: z
      .enum(["rsa-2048", "rsa-3072", "rsa-4096", "p-256", "p-384", "sm2"], {
        error: "must be one of rsa-2048, rsa-3072, rsa-4096, p-256, p-384, sm2",
      })
      .optional(),
    hashAlgorithm: z.enum(["sha256", "sha384"], { error: "must be one of sha256, sha384" }).optional(),
    verificationMethod: verificationMethod.optional(),
    emailSuffix: emailSuffix.optional(),
    paymentMethod: z.enum(["balance", "credit"], { error: "must be one of balance, credit" }).optional(),
    customCsr: z
      .string({ error: "must be a string" })
      .refine((s) => /-----BEGIN (NEW )?CERTIFICATE REQUEST-----/.test(s), "must be a PEM certificate signing request")
      .optional(),
    companyId: positiveInt.optional(),
    companyInfo: companyInfo.optional(),
    couponType: z.enum(["coupon", "code"], { error: "must be coupon or code" }).optional(),
    couponId: positiveInt.optional(),
    couponCode: text.optional(),
    remark: z.string({ error: "must be a string" }).max(500, "must be at most 500 characters").optional(),
  })
  .superRefine((r, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if ((r.productCode === undefined) === (r.productId === undefined)) {
      issue("productCode", "exactly one of productCode and productId is required");
    }
    if (r.emailSuffix !== undefined && r.verificationMethod !== "email") {
      issue("emailSuffix", 'is only allowed with verificationMethod "email"');
    }
    if (r.keySpec !== undefined && r.signatureAlgorithm !== undefined) {
      const allowed: readonly string[] = KEY_SPECS_BY_ALGORITHM[r.signatureAlgorithm];
      if (!allowed.includes(r.keySpec)) issue("keySpec", `must be one of ${allowed.join(", ")} for signatureAlgorithm ${r.signatureAlgorithm}`);
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
      san_domains: r.sanDomains,
      wildcard_domains: r.wildcardDomains,
      months: r.months,
      years: r.years,
      signature_algorithm: r.signatureAlgorithm,
      key_spec: r.keySpec,
      hash_algorithm: r.hashAlgorithm,
      verification_method: r.verificationMethod,
      email_suffix: r.emailSuffix,
      payment_method: r.paymentMethod,
      custom_csr: r.customCsr,
      company_id: r.companyId,
      company_info: r.companyInfo && {
        company_name: r.companyInfo.companyName,
        registration_number: r.companyInfo.registrationNumber,
        country: r.companyInfo.country,
        state: r.companyInfo.state,
        city: r.companyInfo.city,
        address: r.companyInfo.address,
        postal_code: r.companyInfo.postalCode,
        contact_name: r.companyInfo.contactName,
        contact_email: r.companyInfo.contactEmail,
        contact_phone: r.companyInfo.contactPhone,
      },
      coupon_type: r.couponType,
      coupon_id: r.couponId,
      coupon_code: r.couponCode,
      remark: r.remark,
    }),
  );

export const changeVerificationMethodInput = z
  .strictObject({ orderNo, method: verificationMethod, emailSuffix: emailSuffix.optional() })
  .superRefine((r, ctx) => {
    if (r.emailSuffix !== undefined && r.method !== "email") {
      ctx.addIssue({ code: "custom", path: ["emailSuffix"], message: 'is only allowed with method "email"' });
    }
  })
  .transform((r): WireFields => ({ order_no: r.orderNo, method: r.method, email_suffix: r.emailSuffix }));

export const cancelOrderInput = z
  .strictObject({ orderNo, reason: z.string({ error: "must be a string" }).max(500, "must be at most 500 characters").optional() })
  .transform((r): WireFields => ({ order_no: r.orderNo, reason: r.reason }));

export const downloadCertificateInput = z
  .strictObject({ orderNo, certId: text.optional(), installmentNo: positiveInt.optional() })
  .superRefine((r, ctx) => {
    if (r.certId !== undefined && r.installmentNo !== undefined) {
      ctx.addIssue({ code: "custom", path: ["installmentNo"], message: "give certId or installmentNo, not both" });
    }
  })
  .transform((r): WireFields => ({ order_no: r.orderNo, cert_id: r.certId, installment_no: r.installmentNo }));
