// The invalid-Order corpus every front end's e2e test refuses at preview or
// plan (bad-input.test.ts through Pulumi, terraform/bad-input.test.ts through
// OpenTofu and Terraform): each case names the property its message must name.
import { opensslCsr } from "../support/openssl.js";
import { COMPANY, type OrderArgs } from "./programs.js";

const { companyName: _name, ...COMPANY_WITHOUT_NAME } = COMPANY;
const { contactFirst: _family, ...COMPANY_WITHOUT_FAMILY_NAME } = COMPANY;
const { contactLast: _given, ...COMPANY_WITHOUT_GIVEN_NAME } = COMPANY;
const { email: _email, ...COMPANY_WITHOUT_EMAIL } = COMPANY;
const { countryCode: _country, ...COMPANY_WITHOUT_COUNTRY } = COMPANY;
type Company = typeof COMPANY;

export const d = "bad.e2e.example.com";
const many = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}.e2e.example.com`);
export const IPV4 = "93.184.216.34";
const IPV6 = "2606:2800:220:1:248:1893:25c8:1946";

export interface BadCase {
  title: string;
  order: OrderArgs;
  /** The property the message must name. */
  property: string;
}

export const CASES: BadCase[] = [
  // Domain types (the specification, section 2.3)
  { title: "single product with SANs", property: "sanDomains", order: { productCode: "sandbox-dv-single", domain: d, sanDomains: ["www.bad.e2e.example.com"] } },
  { title: "single product with a wildcard main name", property: "domain", order: { productCode: "sandbox-dv-single", domain: "*.bad.e2e.example.com" } },
  { title: "single product with wildcardDomains", property: "wildcardDomains", order: { productCode: "sandbox-dv-single", domain: d, wildcardDomains: ["*.w.e2e.example.com"] } },
  { title: "multiple-single product with a wildcard SAN", property: "sanDomains", order: { productCode: "sandbox-dv-multi", domain: d, sanDomains: ["*.w.e2e.example.com"] } },
  { title: "multiple-single product with wildcardDomains", property: "wildcardDomains", order: { productCode: "sandbox-dv-multi", domain: d, wildcardDomains: ["*.w.e2e.example.com"] } },
  { title: "multiple-single product with a wildcard main name", property: "domain", order: { productCode: "sandbox-dv-multi", domain: "*.bad.e2e.example.com", sanDomains: [d] } },
  { title: "multiple-single product over its name limit", property: "sanDomains", order: { productCode: "sandbox-dv-multi", domain: d, sanDomains: many(10, "san") } },
  { title: "wildcard product with a plain main name", property: "domain", order: { productCode: "sandbox-dv-wildcard", domain: d } },
  { title: "wildcard product with SANs", property: "sanDomains", order: { productCode: "sandbox-dv-wildcard", domain: "*.bad.e2e.example.com", sanDomains: [d] } },
  { title: "multiple-wildcard product with a plain name in wildcardDomains", property: "wildcardDomains", order: { productCode: "sandbox-dv-multi-wildcard", domain: "*.bad.e2e.example.com", wildcardDomains: [d] } },
  { title: "multiple-wildcard product with a plain main name", property: "domain", order: { productCode: "sandbox-dv-multi-wildcard", domain: d, wildcardDomains: ["*.w.e2e.example.com"] } },
  { title: "multiple-wildcard product over its wildcard limit", property: "wildcardDomains", order: { productCode: "sandbox-dv-multi-wildcard", domain: "*.bad.e2e.example.com", wildcardDomains: many(5, "*.w") } },
  { title: "multiple-mix product over its wildcard limit", property: "wildcardDomains", order: { productCode: "sandbox-dv-flex", domain: d, wildcardDomains: many(6, "*.w") } },
  { title: "ipv4 product with a host name", property: "domain", order: { productCode: "sandbox-dv-ip", domain: d, verificationMethod: "file" } },
  { title: "ipv4 product with an IPv6 address", property: "domain", order: { productCode: "sandbox-dv-ip", domain: IPV6, verificationMethod: "file" } },
  { title: "ipv4 product with a private address", property: "domain", order: { productCode: "sandbox-dv-ip", domain: "10.0.0.1", verificationMethod: "file" } },
  { title: "ipv4 product with a loopback address", property: "domain", order: { productCode: "sandbox-dv-ip", domain: "127.0.0.1", verificationMethod: "file" } },
  { title: "ipv4 product with an extra address", property: "sanDomains", order: { productCode: "sandbox-dv-ip", domain: IPV4, sanDomains: ["93.184.216.35"], verificationMethod: "file" } },
  { title: "ipv6 product with an IPv4 address", property: "domain", order: { productCode: "sandbox-dv-ipv6", domain: IPV4, verificationMethod: "file" } },
  { title: "ipv6 product with a host name", property: "domain", order: { productCode: "sandbox-dv-ipv6", domain: d, verificationMethod: "file" } },
  { title: "a SAN listed twice", property: "sanDomains", order: { productCode: "sandbox-dv-multi", domain: d, sanDomains: ["a.e2e.example.com", "a.e2e.example.com"] } },
  { title: "a SAN repeating the main name in other case", property: "sanDomains", order: { productCode: "sandbox-dv-multi", domain: d, sanDomains: ["BAD.e2e.example.com"] } },
  { title: "a malformed host name", property: "domain", order: { productCode: "sandbox-dv-single", domain: "bad_name..e2e.example.com" } },
  { title: "a wildcard with two stars", property: "domain", order: { productCode: "sandbox-dv-wildcard", domain: "*.*.e2e.example.com" } },
  { title: "an empty domain", property: "domain", order: { productCode: "sandbox-dv-single", domain: "" } },
  { title: "an unknown product", property: "productCode", order: { productCode: "no-such-product", domain: d } },
  // Company information (the specification, section 2.4)
  { title: "OV without company", property: "companyInfo", order: { productCode: "sandbox-ov-single", domain: d } },
  { title: "OV company without its name", property: "companyInfo.companyName", order: { productCode: "sandbox-ov-single", domain: d, companyInfo: COMPANY_WITHOUT_NAME as Company } },
  { title: "OV company without contactFirst (family name)", property: "companyInfo.contactFirst", order: { productCode: "sandbox-ov-single", domain: d, companyInfo: COMPANY_WITHOUT_FAMILY_NAME as Company } },
  { title: "OV company without contactLast (given name)", property: "companyInfo.contactLast", order: { productCode: "sandbox-ov-flex", domain: d, companyInfo: COMPANY_WITHOUT_GIVEN_NAME as Company } },
  { title: "EV company without e-mail", property: "companyInfo.email", order: { productCode: "sandbox-ev-single", domain: d, companyInfo: COMPANY_WITHOUT_EMAIL as Company } },
  { title: "OV company without country code", property: "companyInfo.countryCode", order: { productCode: "sandbox-ov-single", domain: d, companyInfo: COMPANY_WITHOUT_COUNTRY as Company } },
  { title: "company country code not two letters", property: "companyInfo.countryCode", order: { productCode: "sandbox-ov-single", domain: d, companyInfo: { ...COMPANY, countryCode: "Germany" } } },
  { title: "company e-mail malformed", property: "companyInfo.email", order: { productCode: "sandbox-ov-single", domain: d, companyInfo: { ...COMPANY, email: "ada-at-acme" } } },
  // Each member outside the specification's is named (behaviour since the spec-shaped companyInfo).
  { title: "company with an unknown member", property: "companyInfo.ceo", order: { productCode: "sandbox-ov-single", domain: d, companyInfo: { ...COMPANY, ceo: "Wile E." } as Company } },
  { title: "company with a member of the former shape", property: "companyInfo.contactName", order: { productCode: "sandbox-ov-single", domain: d, companyInfo: { ...COMPANY, contactName: "Ada Admin" } as Company } },
  { title: "both companyId and companyInfo", property: "companyInfo", order: { productCode: "sandbox-ov-single", domain: d, companyId: 42, companyInfo: COMPANY } },
  // Terms
  { title: "a term the product is not sold for", property: "months", order: { productCode: "sandbox-dv-single", domain: d, months: 18 } },
  { title: "36 months of a 12-month-only product", property: "months", order: { productCode: "sandbox-ev-single", domain: d, months: 36, companyInfo: COMPANY } },
  { title: "a zero term", property: "months", order: { productCode: "sandbox-dv-single", domain: d, months: 0 } },
  { title: "a fractional term", property: "months", order: { productCode: "sandbox-dv-single", domain: d, months: 1.5 } },
  { title: "years conflicting with months", property: "years", order: { productCode: "sandbox-dv-single", domain: d, years: 2, months: 12 } },
  { title: "a fractional number of years", property: "years", order: { productCode: "sandbox-dv-single", domain: d, years: 1.5 } },
  // Verification methods (the specification, section 4.5)
  { title: "an unknown method: https", property: "verificationMethod", order: { productCode: "sandbox-dv-single", domain: d, verificationMethod: "https" as "dns" } },
  { title: "an unknown method: bare email", property: "verificationMethod", order: { productCode: "sandbox-dv-single", domain: d, verificationMethod: "email" as "dns" } },
  { title: "an unknown method: telepathy", property: "verificationMethod", order: { productCode: "sandbox-dv-single", domain: d, verificationMethod: "telepathy" as "dns" } },
  { title: "file validation of a wildcard", property: "verificationMethod", order: { productCode: "sandbox-dv-wildcard", domain: "*.bad.e2e.example.com", verificationMethod: "file" } },
  { title: "the removed emailSuffix input", property: "emailSuffix", order: { productCode: "sandbox-dv-single", domain: d, verificationMethod: "email-admin", emailSuffix: "admin" } as OrderArgs },
  // Algorithms
  { title: "an unknown signature algorithm", property: "signatureAlgorithm", order: { productCode: "sandbox-dv-single", domain: d, signatureAlgorithm: "dsa" as "rsa" } },
  { title: "an EC key spec with RSA", property: "keySpec", order: { productCode: "sandbox-dv-single", domain: d, signatureAlgorithm: "rsa", keySpec: "p-256" } },
  { title: "ECC on an RSA-only product", property: "signatureAlgorithm", order: { productCode: "sandbox-ev-single", domain: d, signatureAlgorithm: "ecc", keySpec: "p-256", companyInfo: COMPANY } },
  { title: "SHA-384 on a SHA-256-only product", property: "hashAlgorithm", order: { productCode: "sandbox-ev-single", domain: d, hashAlgorithm: "sha384", companyInfo: COMPANY } },
  { title: "a 1024-bit RSA key", property: "keySpec", order: { productCode: "sandbox-dv-single", domain: d, keySpec: "rsa-1024" as "rsa-2048" } },
  { title: "SM2 on a product that does not sell it", property: "signatureAlgorithm", order: { productCode: "sandbox-dv-single", domain: d, signatureAlgorithm: "sm2", keySpec: "sm2" } },
  // Custom CSRs
  { title: "a CSR that is not PEM", property: "customCsr", order: { productCode: "sandbox-dv-single", domain: d, customCsr: "not a certificate request" } },
  { title: "a CSR for another domain", property: "customCsr", order: { productCode: "sandbox-dv-single", domain: d, customCsr: opensslCsr({ cn: "other.e2e.example.com", sans: ["other.e2e.example.com"] }) } },
  { title: "a CSR missing an ordered SAN", property: "customCsr", order: { productCode: "sandbox-dv-multi", domain: d, sanDomains: ["www.bad.e2e.example.com"], customCsr: opensslCsr({ cn: d, sans: [d] }) } },
  { title: "an EC CSR for an RSA order", property: "customCsr", order: { productCode: "sandbox-dv-single", domain: d, signatureAlgorithm: "rsa", customCsr: opensslCsr({ cn: d, sans: [d], key: "ec-p256" }) } },
  // Payment, renewal, adoption
  { title: "an unknown payment method", property: "paymentMethod", order: { productCode: "sandbox-dv-single", domain: d, paymentMethod: "cash" as "balance" } },
  { title: "a renewal window longer than the term", property: "renewBeforeDays", order: { productCode: "sandbox-dv-single", domain: d, months: 12, renewBeforeDays: 400 } },
  { title: "a malformed order number to adopt", property: "adoptOrderNo", order: { productCode: "sandbox-dv-single", domain: d, adoptOrderNo: "nonsense!" } },
];
