import type { CompanyInfo, HashAlgorithm, KeySpec, PaymentMethod, SignatureAlgorithm, VerificationMethod } from "../client/types.js";

/**
 * A purchase as the rules see it: names already lower-cased, trimmed and
 * sorted, defaults applied where they do not depend on the product (the
 * Order's input normaliser). At preview any field may still hold the
 * engine's placeholder; `checkOrder` skips the rules that depend on such a
 * field.
 *
 * @example
 * const spec: OrderSpec = {
 *   productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["www.example.com"], wildcardDomains: [],
 *   months: 12, signatureAlgorithm: "rsa", keySpec: "rsa-2048", hashAlgorithm: "sha256", paymentMethod: "balance",
 * };
 */
export interface OrderSpec {
  productCode: string;
  domain: string;
  sanDomains: string[];
  wildcardDomains: string[];
  /** As the program gave it; `months` then holds `years * 12`. */
  years?: number;
  months: number;
  signatureAlgorithm: SignatureAlgorithm;
  keySpec: KeySpec;
  hashAlgorithm: HashAlgorithm;
  paymentMethod: PaymentMethod;
  verificationMethod?: VerificationMethod;
  companyId?: number;
  companyInfo?: CompanyInfo;
  customCsr?: string;
  couponCode?: string;
}
