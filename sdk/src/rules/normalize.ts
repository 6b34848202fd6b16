import { isUnknown } from "../provider/unknown.js";
import { checkCompanyInfo } from "./company.js";
import type { RuleFailure } from "./failure.js";
import { canonicalName } from "./names.js";
import {
  DEFAULT_KEY_SPEC,
  EMAIL_SUFFIXES,
  HASH_ALGORITHMS,
  KEY_SPECS,
  PAYMENT_METHODS,
  SIGNATURE_ALGORITHMS,
  VERIFICATION_METHODS,
  type OrderSpec,
} from "./spec.js";

/** Result of {@link normalizeOrder}. */
export interface Normalized {
  /** The inputs with names canonical and sorted and defaults applied; unknown values kept as the placeholder. */
  values: Record<string, unknown>;
  /** Input names whose value is not known yet (preview). */
  unknown: Set<string>;
  failures: RuleFailure[];
}

const list = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(", ");

/**
 * Type checks, canonical forms and product-independent defaults for Order
 * inputs. Works on raw engine inputs: anything may be the preview
 * placeholder, and a program written in plain JavaScript may send any type.
 */
export function normalizeOrder(raw: Record<string, unknown>): Normalized {
  const values: Record<string, unknown> = { ...raw };
  const unknown = new Set<string>();
  const failures: RuleFailure[] = [];
  const fail = (property: string, reason: string) => failures.push({ property, reason });
  /** Runs `fn` on a present, known value; records unknowns. */
  const known = (key: string, fn: (value: unknown) => void) => {
    const value = raw[key];
    if (value === undefined || value === null) {
      delete values[key];
      return;
    }
    if (isUnknown(value) || (Array.isArray(value) && value.some(isUnknown))) {
      unknown.add(key);
      return;
    }
    fn(value);
  };
  const requiredString = (key: string) => {
    if (raw[key] === undefined || raw[key] === null || raw[key] === "") fail(key, "is required");
  };
  const enumValue = (key: string, allowed: readonly string[], fallback?: string) => {
    if (raw[key] === undefined || raw[key] === null) {
      if (fallback !== undefined) values[key] = fallback;
      return;
    }
    known(key, (value) => {
      const text = typeof value === "string" ? value.trim().toLowerCase() : value;
      if (typeof text !== "string" || !allowed.includes(text)) fail(key, `must be one of ${list(allowed)}, got ${JSON.stringify(value)}`);
      else values[key] = text;
    });
  };
  const nameList = (key: string) => {
    known(key, (value) => {
      if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
        fail(key, "must be a list of names");
        return;
      }
      // Sorted so that a reordered list is the same purchase (no diff).
      values[key] = [...new Set(value.map((v: string) => canonicalName(v)))].sort();
      if ((values[key] as string[]).length !== value.length) fail(key, "lists a name more than once; list each name once");
    });
    if (raw[key] === undefined || raw[key] === null) values[key] = [];
  };
  const integer = (key: string, min: number, max: number, fallback?: number) => {
    if (raw[key] === undefined || raw[key] === null) {
      if (fallback !== undefined) values[key] = fallback;
      else delete values[key];
      return;
    }
    known(key, (value) => {
      if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
        fail(key, `must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
      }
    });
  };

  requiredString("productCode");
  known("productCode", (value) => {
    if (typeof value !== "string" || value.trim() === "") fail("productCode", "must be a non-empty product code");
    else values.productCode = value.trim();
  });
  requiredString("domain");
  known("domain", (value) => {
    if (typeof value !== "string") fail("domain", "must be a name");
    else values.domain = canonicalName(value);
  });
  nameList("sanDomains");
  nameList("wildcardDomains");
  integer("months", 1, 120, 12);
  enumValue("verificationMethod", VERIFICATION_METHODS);
  enumValue("emailSuffix", EMAIL_SUFFIXES);
  if (values.emailSuffix !== undefined && !unknown.has("verificationMethod") && values.verificationMethod !== "email" && !failures.some((f) => f.property === "emailSuffix")) {
    fail("emailSuffix", 'is only used with verificationMethod "email"');
  }
  enumValue("signatureAlgorithm", SIGNATURE_ALGORITHMS, "rsa");
  const algorithm = values.signatureAlgorithm as OrderSpec["signatureAlgorithm"];
  const algorithmKnown = !unknown.has("signatureAlgorithm") && SIGNATURE_ALGORITHMS.includes(algorithm);
  enumValue("keySpec", Object.values(KEY_SPECS).flat(), algorithmKnown ? DEFAULT_KEY_SPEC[algorithm] : undefined);
  if (algorithmKnown && typeof values.keySpec === "string" && !unknown.has("keySpec") && !KEY_SPECS[algorithm].includes(values.keySpec as never)) {
    fail("keySpec", `${JSON.stringify(values.keySpec)} does not fit signatureAlgorithm ${JSON.stringify(algorithm)}; use one of ${list(KEY_SPECS[algorithm])}`);
  }
  enumValue("hashAlgorithm", HASH_ALGORITHMS, "sha256");
  enumValue("paymentMethod", PAYMENT_METHODS, "balance");
  integer("companyId", 1, Number.MAX_SAFE_INTEGER);
  known("companyInfo", (value) => {
    const problems = checkCompanyInfo(value);
    failures.push(...problems);
    if (problems.length === 0) {
      const info = Object.fromEntries(Object.entries(value as Record<string, string>).map(([k, v]) => [k, v.trim()]));
      info.country = info.country!.toUpperCase();
      values.companyInfo = info;
    }
  });
  if (raw.companyId != null && raw.companyInfo != null) fail("companyInfo", "give either companyId or companyInfo, not both");
  known("customCsr", (value) => {
    if (typeof value !== "string" || value.trim() === "") fail("customCsr", "must be a PEM certificate signing request");
    else values.customCsr = value.replace(/\r\n/g, "\n").trim() + "\n";
  });
  known("couponCode", (value) => {
    if (typeof value !== "string" || value.trim() === "") fail("couponCode", "must be a non-empty coupon code");
    else values.couponCode = value.trim();
  });
  integer("renewBeforeDays", 0, 3650);
  if (typeof values.renewBeforeDays === "number" && typeof values.months === "number" && values.renewBeforeDays >= values.months * 28) {
    fail("renewBeforeDays", `${values.renewBeforeDays} days is not shorter than the ${values.months}-month term; the order would be renewed at every update`);
  }
  known("adoptOrderNo", (value) => {
    if (typeof value !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(value.trim())) {
      fail("adoptOrderNo", `must be an order number such as "CERT202607041730001234", got ${JSON.stringify(value)}`);
    } else values.adoptOrderNo = value.trim();
  });
  return { values, unknown, failures };
}
