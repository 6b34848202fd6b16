import type { Cents } from "../util/money.js";

export type DomainTypeCode = "single" | "multi" | "wildcard" | "multi_wildcard" | "flex" | "ip" | "ip_multi";
export type ValidationLevel = "dv" | "ov" | "ev";
export type MethodCode = "dns" | "cname" | "file" | "https" | "email";
export type SignatureAlgorithm = "rsa" | "ecc" | "sm2";
export type KeySpec = "rsa-2048" | "rsa-3072" | "rsa-4096" | "p-256" | "p-384";
export type HashAlgorithm = "sha256" | "sha384";

export interface Brand {
  code: string;
  name: string;
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
  id: number;
  code: string;
  name: string;
  brand: Brand;
  level: ValidationLevel;
  domainType: DomainTypeCode;
  /** Total FQDNs/IPs allowed (main included); 0 when the type takes none. */
  maxSingleDomains: number;
  /** Total wildcards allowed (main included). */
  maxWildcards: number;
  terms: TermPrice[];
  algorithms: Partial<Record<Exclude<SignatureAlgorithm, "sm2">, KeySpec[]>>;
  hashAlgorithms: HashAlgorithm[];
  methods: MethodCode[];
  defaultMethod: MethodCode;
}
