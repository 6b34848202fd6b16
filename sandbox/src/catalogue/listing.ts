import { badRequest } from "../errors.js";
import { toAmount } from "../util/money.js";
import { PRODUCTS } from "./products.js";
import type { DomainTypeCode, Product } from "./types.js";

const DOMAIN_TYPE_NAMES: Record<DomainTypeCode, string> = {
  single: "Single Domain", wildcard: "Wildcard", "multiple-single": "Multi-Domain", "multiple-wildcard": "Multi-Wildcard",
  "multiple-mix": "Multi-Domain (plain and wildcard)", ipv4: "IPv4 Address", ipv6: "IPv6 Address",
};
const LEVEL_NAMES = { dv: "Domain Validation", ov: "Organization Validation", ev: "Extended Validation" } as const;
const KEY_NAMES: Record<string, string> = {
  "rsa-2048": "RSA 2048", "rsa-3072": "RSA 3072", "rsa-4096": "RSA 4096", "p-256": "ECDSA P-256", "p-384": "ECDSA P-384",
};

export interface ProductFilter {
  domain_type?: string;
  brand_code?: string;
  verification_type?: string;
  product_name?: string;
  product_code?: string;
  page: number;
  limit: number;
}

/** Reads and checks the documented filters; paging defaults 1/100, limit at most 500. */
export function parseProductFilter(body: Record<string, unknown>): ProductFilter {
  const text = (field: string): string | undefined => {
    const v = body[field];
    if (v === undefined || v === null || (typeof v === "string" && v.trim() === "")) return undefined;
    if (typeof v !== "string" && typeof v !== "number") throw badRequest(field, `${field} must be a string`);
    return String(v).trim();
  };
  const int = (field: string, dflt: number, min: number, max: number): number => {
    const raw = text(field);
    if (raw === undefined) return dflt;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw badRequest(field, `${field} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    }
    return n;
  };
  const filter: ProductFilter = { page: int("page", 1, 1, 1_000_000), limit: int("limit", 100, 1, 500) };
  for (const f of ["domain_type", "brand_code", "verification_type", "product_name", "product_code"] as const) {
    const v = text(f);
    if (v !== undefined) filter[f] = v;
  }
  return filter;
}

export function listProducts(filter: ProductFilter): { total: number; page: number; limit: number; total_pages: number; items: unknown[] } {
  const matching = PRODUCTS.filter(
    (p) =>
      (filter.domain_type === undefined || p.domainType === filter.domain_type) &&
      (filter.brand_code === undefined || p.brand.code === filter.brand_code) &&
      (filter.verification_type === undefined || p.level === filter.verification_type.toLowerCase()) &&
      (filter.product_code === undefined || p.code === filter.product_code) &&
      (filter.product_name === undefined || p.name.toLowerCase().includes(filter.product_name.toLowerCase())),
  );
  const start = (filter.page - 1) * filter.limit;
  return {
    total: matching.length,
    page: filter.page,
    limit: filter.limit,
    total_pages: Math.ceil(matching.length / filter.limit),
    items: matching.slice(start, start + filter.limit).map(renderProduct),
  };
}

/**
 * One product-list item: exactly the item fields the reference lists for the
 * product list, money as numbers. The sandbox's per-product verification
 * methods stay internal — the list has no field for them.
 */
export function renderProduct(p: Product): Record<string, unknown> {
  const first = p.terms[0]!;
  return {
    product_name: p.name,
    product_code: p.code,
    product_type: "SSL Certificate",
    product_type_code: "ssl",
    verification_type: LEVEL_NAMES[p.level],
    verification_type_code: p.level,
    domain_type: DOMAIN_TYPE_NAMES[p.domainType],
    domain_type_code: p.domainType,
    brand: p.brand.name,
    brand_code: p.brand.code,
    signature_algorithms: Object.entries(p.algorithms).map(([code, specs]) => ({
      name: code === "rsa" ? "RSA" : "ECC",
      code,
      category: "international",
      description: code === "rsa" ? "RSA keys" : "ECDSA keys on NIST curves",
      encryption_strengths: specs.map((s) => ({ name: KEY_NAMES[s], code: s })),
    })),
    hash_algorithms: p.hashAlgorithms.map((h) => ({ name: h.toUpperCase(), code: h })),
    valid_years: p.terms.map((t) => ({
      years: t.months / 12,
      months: t.months,
      price: toAmount(t.price),
      price_source: "default",
      san_price: toAmount(t.sanPrice),
      wildcard_price: toAmount(t.wildcardPrice),
    })),
    price_source: "default",
    has_custom_price: false,
    base_price: toAmount(first.price),
    original_price: toAmount(Math.round(first.price * 1.25)),
    retail_price: toAmount(Math.round(first.price * 1.5)),
    san_price: toAmount(first.sanPrice),
    wildcard_price: toAmount(first.wildcardPrice),
    max_single_domains: p.maxSingleDomains,
    max_domains: p.maxSingleDomains,
    max_wildcards: p.maxWildcards,
  };
}
