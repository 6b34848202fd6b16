import type { Cents } from "../util/money.js";

/** The seven domain types of spec 2.3, by their wire codes. */
export const DOMAIN_TYPE_CODES = [
  "single", "wildcard", "multiple-single", "multiple-wildcard", "multiple-mix", "ipv4", "ipv6",
] as const;
export type DomainTypeCode = (typeof DOMAIN_TYPE_CODES)[number];

export type ValidationLevel = "dv" | "ov" | "ev";

/** The verification method codes of spec 4.5. */
export const METHOD_CODES = [
  "dns", "cname", "file", "email-admin", "email-postmaster", "email-webmaster", "email-hostmaster", "dcv",
] as const;
export type MethodCode = (typeof METHOD_CODES)[number];
export type EmailMethodCode = Extract<MethodCode, `email-${string}`>;
export const EMAIL_METHODS: readonly EmailMethodCode[] = ["email-admin", "email-postmaster", "email-webmaster", "email-hostmaster"];

export type SignatureAlgorithm = "rsa" | "ecc" | "sm2";
export type KeySpec = "rsa-2048" | "rsa-3072" | "rsa-4096" | "p-256" | "p-384";
export type HashAlgorithm = "sha256" | "sha384";

export interface Brand {
  code: string;
  name: string;
  /** What CancelOrder reports as `upstream_cancel.provider`. */
  provider: string;
  /** The longest certificate the brand issues; longer terms become installments. */
  maxMonthsPerCertificate: number;
}

export interface TermPrice {
  months: number;
  price: Cents;
  sanPrice: Cents;
  wildcardPrice: Cents;
}

export interface Product {
  /** Accepted as CreateOrder's `product_id`; the product list does not show it (the reference lists no such item field). */
  id: number;
  code: string;
  name: string;
  brand: Brand;
  level: ValidationLevel;
  domainType: DomainTypeCode;
  /** Total plain names/IPs allowed (main included); 0 when the type takes none. */
  maxSingleDomains: number;
  /** Total wildcards allowed (main included). */
  maxWildcards: number;
  terms: TermPrice[];
  algorithms: Partial<Record<Exclude<SignatureAlgorithm, "sm2">, KeySpec[]>>;
  hashAlgorithms: HashAlgorithm[];
  /** The sandbox's own per-product rule; never sent in the product list. */
  methods: readonly MethodCode[];
  /** Used when CreateOrder leaves `verification_method` empty; internal like `methods`. */
  defaultMethod: MethodCode;
}
