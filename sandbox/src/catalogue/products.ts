import { EMAIL_METHODS, type Brand, type KeySpec, type MethodCode, type Product, type TermPrice } from "./types.js";

/**
 * The sandbox's fixed catalogue: the seven domain types, DV/OV/EV, three
 * brands with different per-certificate maxima, so installments, unsupported
 * algorithms/terms/methods and count limits can all be exercised.
 */
const SANDBOX: Brand = { code: "sandbox", name: "Sandbox Trust", provider: "sandbox-ca", maxMonthsPerCertificate: 12 };
const EXAMPLE: Brand = { code: "exampleca", name: "Example CA", provider: "example-ca", maxMonthsPerCertificate: 12 };
const LONGLIFE: Brand = { code: "longlife", name: "Longlife PKI", provider: "longlife-pki", maxMonthsPerCertificate: 36 };

const RSA: KeySpec[] = ["rsa-2048", "rsa-3072", "rsa-4096"];
const ECC: KeySpec[] = ["p-256", "p-384"];
const PLAIN_METHODS: MethodCode[] = ["dns", "cname", "file", ...EMAIL_METHODS];
/** File validation cannot prove control of a wildcard, so products that take wildcards leave it out. */
const WILDCARD_METHODS: MethodCode[] = ["dns", "cname", ...EMAIL_METHODS];
/** An IP address has no DNS zone or mailbox to prove control with: a file on the address is the only way. */
const IP_METHODS: MethodCode[] = ["file"];

/** Prices for 12/24/36 months from the 12-month price (longer terms get a discount, as resellers do). */
function terms(yearly: number, san: number, wildcard: number, maxMonths = 36): TermPrice[] {
  const factors: Record<number, number> = { 12: 1, 24: 1.9, 36: 2.7 };
  return [12, 24, 36]
    .filter((m) => m <= maxMonths)
    .map((months) => ({
      months,
      price: Math.round(yearly * factors[months]!) * 100,
      sanPrice: Math.round(san * factors[months]!) * 100,
      wildcardPrice: Math.round(wildcard * factors[months]!) * 100,
    }));
}

export const PRODUCTS: readonly Product[] = [
  {
    id: 101, code: "sandbox-dv-single", name: "Sandbox DV Single", brand: SANDBOX, level: "dv", domainType: "single",
    maxSingleDomains: 1, maxWildcards: 0, terms: terms(100, 0, 0), algorithms: { rsa: RSA, ecc: ECC },
    hashAlgorithms: ["sha256", "sha384"], methods: PLAIN_METHODS, defaultMethod: "dns",
  },
  {
    id: 102, code: "sandbox-dv-multi", name: "Sandbox DV Multi-Domain", brand: SANDBOX, level: "dv", domainType: "multiple-single",
    maxSingleDomains: 10, maxWildcards: 0, terms: terms(100, 20, 0), algorithms: { rsa: RSA, ecc: ECC },
    hashAlgorithms: ["sha256", "sha384"], methods: PLAIN_METHODS, defaultMethod: "dns",
  },
  {
    id: 103, code: "sandbox-dv-wildcard", name: "Sandbox DV Wildcard", brand: SANDBOX, level: "dv", domainType: "wildcard",
    maxSingleDomains: 0, maxWildcards: 1, terms: terms(500, 0, 0), algorithms: { rsa: RSA, ecc: ECC },
    hashAlgorithms: ["sha256", "sha384"], methods: WILDCARD_METHODS, defaultMethod: "dns",
  },
  {
    id: 104, code: "sandbox-dv-multi-wildcard", name: "Sandbox DV Multi-Wildcard", brand: SANDBOX, level: "dv",
    domainType: "multiple-wildcard", maxSingleDomains: 0, maxWildcards: 5, terms: terms(500, 0, 300),
    algorithms: { rsa: RSA, ecc: ECC }, hashAlgorithms: ["sha256", "sha384"], methods: WILDCARD_METHODS, defaultMethod: "dns",
  },
  {
    id: 105, code: "sandbox-dv-flex", name: "Sandbox DV Flex", brand: SANDBOX, level: "dv", domainType: "multiple-mix",
    maxSingleDomains: 20, maxWildcards: 5, terms: terms(150, 20, 300), algorithms: { rsa: RSA, ecc: ECC },
    hashAlgorithms: ["sha256", "sha384"], methods: WILDCARD_METHODS, defaultMethod: "dns",
  },
  {
    id: 106, code: "sandbox-dv-ip", name: "Sandbox DV IPv4 Address", brand: SANDBOX, level: "dv", domainType: "ipv4",
    maxSingleDomains: 1, maxWildcards: 0, terms: terms(300, 0, 0, 12), algorithms: { rsa: RSA, ecc: ECC },
    hashAlgorithms: ["sha256"], methods: IP_METHODS, defaultMethod: "file",
  },
  {
    id: 108, code: "sandbox-dv-ipv6", name: "Sandbox DV IPv6 Address", brand: SANDBOX, level: "dv", domainType: "ipv6",
    maxSingleDomains: 1, maxWildcards: 0, terms: terms(300, 0, 0, 12), algorithms: { rsa: RSA, ecc: ECC },
    hashAlgorithms: ["sha256"], methods: IP_METHODS, defaultMethod: "file",
  },
  {
    id: 201, code: "sandbox-ov-single", name: "Sandbox OV Single", brand: SANDBOX, level: "ov", domainType: "single",
    maxSingleDomains: 1, maxWildcards: 0, terms: terms(600, 0, 0), algorithms: { rsa: RSA, ecc: ECC },
    hashAlgorithms: ["sha256", "sha384"], methods: PLAIN_METHODS, defaultMethod: "dns",
  },
  {
    id: 202, code: "sandbox-ov-wildcard", name: "Sandbox OV Wildcard", brand: SANDBOX, level: "ov", domainType: "wildcard",
    maxSingleDomains: 0, maxWildcards: 1, terms: terms(1500, 0, 0), algorithms: { rsa: RSA, ecc: ECC },
    hashAlgorithms: ["sha256", "sha384"], methods: WILDCARD_METHODS, defaultMethod: "dns",
  },
  {
    id: 203, code: "sandbox-ov-flex", name: "Sandbox OV Flex", brand: SANDBOX, level: "ov", domainType: "multiple-mix",
    maxSingleDomains: 50, maxWildcards: 10, terms: terms(800, 60, 900), algorithms: { rsa: RSA, ecc: ECC },
    hashAlgorithms: ["sha256", "sha384"], methods: WILDCARD_METHODS, defaultMethod: "dns",
  },
  {
    id: 301, code: "sandbox-ev-single", name: "Sandbox EV Single", brand: SANDBOX, level: "ev", domainType: "single",
    maxSingleDomains: 1, maxWildcards: 0, terms: terms(2000, 0, 0, 12), algorithms: { rsa: RSA },
    hashAlgorithms: ["sha256"], methods: ["dns", "cname", "file"], defaultMethod: "dns",
  },
  {
    id: 302, code: "sandbox-ev-multi", name: "Sandbox EV Multi-Domain", brand: SANDBOX, level: "ev", domainType: "multiple-single",
    maxSingleDomains: 25, maxWildcards: 0, terms: terms(2500, 300, 0, 12), algorithms: { rsa: RSA },
    hashAlgorithms: ["sha256"], methods: ["dns", "cname", "file"], defaultMethod: "dns",
  },
  {
    id: 401, code: "example-dv-single", name: "Example CA DV Basic", brand: EXAMPLE, level: "dv", domainType: "single",
    maxSingleDomains: 1, maxWildcards: 0, terms: terms(50, 0, 0, 24), algorithms: { rsa: ["rsa-2048", "rsa-4096"] },
    hashAlgorithms: ["sha256"], methods: ["dns", "file"], defaultMethod: "file",
  },
  {
    id: 402, code: "example-dv-wildcard", name: "Example CA DV Wildcard", brand: EXAMPLE, level: "dv", domainType: "wildcard",
    maxSingleDomains: 0, maxWildcards: 1, terms: terms(400, 0, 0, 24), algorithms: { ecc: ECC },
    hashAlgorithms: ["sha256", "sha384"], methods: ["dns"], defaultMethod: "dns",
  },
  {
    id: 501, code: "longlife-dv-multi", name: "Longlife DV Multi-Domain", brand: LONGLIFE, level: "dv", domainType: "multiple-single",
    maxSingleDomains: 100, maxWildcards: 0, terms: terms(120, 15, 0), algorithms: { rsa: RSA, ecc: ECC },
    hashAlgorithms: ["sha256", "sha384"], methods: [...PLAIN_METHODS, "dcv"], defaultMethod: "cname",
  },
];

export function findProductByCode(code: string): Product | undefined {
  return PRODUCTS.find((p) => p.code === code);
}

export function findProductById(id: number): Product | undefined {
  return PRODUCTS.find((p) => p.id === id);
}
