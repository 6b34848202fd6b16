import type { CompanyInfo, Product } from "../client/types.js";
import type { RuleFailure } from "./failure.js";
import { COMPANY_FIELDS } from "./spec.js";

/** OV and EV products need the organisation; the `requiresCompany` extra wins when present. */
export function requiresCompany(product: Product): boolean {
  return product.requiresCompany ?? (product.verificationTypeCode === "ov" || product.verificationTypeCode === "ev");
}

/**
 * Shape of `companyInfo` wherever it is given: every member a non-empty
 * string, `country` ISO 3166 alpha-2, `contactEmail` an address.
 */
export function checkCompanyInfo(info: unknown): RuleFailure[] {
  if (info === undefined) return [];
  if (info === null || typeof info !== "object" || Array.isArray(info)) {
    return [{ property: "companyInfo", reason: "must be an object with the members " + COMPANY_FIELDS.join(", ") }];
  }
  const record = info as Record<string, unknown>;
  const failures: RuleFailure[] = [];
  for (const field of COMPANY_FIELDS) {
    const value = record[field];
    if (typeof value !== "string" || value.trim() === "") {
      failures.push({ property: `companyInfo.${field}`, reason: "is required for OV/EV orders and must be a non-empty string" });
    }
  }
  const unknownFields = Object.keys(record).filter((key) => !(COMPANY_FIELDS as readonly string[]).includes(key));
  if (unknownFields.length > 0) {
    failures.push({ property: "companyInfo", reason: `has unknown members ${unknownFields.join(", ")} (allowed: ${COMPANY_FIELDS.join(", ")})` });
  }
  if (typeof record.country === "string" && record.country.trim() !== "" && !/^[A-Za-z]{2}$/.test(record.country.trim())) {
    failures.push({ property: "companyInfo.country", reason: `${JSON.stringify(record.country)} is not an ISO 3166 alpha-2 country code (e.g. "DE")` });
  }
  if (typeof record.contactEmail === "string" && record.contactEmail.trim() !== "" && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(record.contactEmail.trim())) {
    failures.push({ property: "companyInfo.contactEmail", reason: `${JSON.stringify(record.contactEmail)} is not an e-mail address` });
  }
  return failures;
}

/** Whether the product needs an organisation and the order names one. */
export function checkCompanyPresence(product: Product, spec: { companyId?: number; companyInfo?: CompanyInfo }): RuleFailure[] {
  if (!requiresCompany(product) || spec.companyId !== undefined || spec.companyInfo !== undefined) return [];
  return [
    {
      property: "companyInfo",
      reason: `${product.productCode} is ${product.verificationTypeCode.toUpperCase()}: give companyInfo (all of ${COMPANY_FIELDS.join(", ")}) or companyId`,
    },
  ];
}
