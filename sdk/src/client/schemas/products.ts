import { z } from "zod";
import { boolish, int, money, namedCode, orNull, verificationMethod, wireObject } from "./common.js";

// Product list (`GetUserProduct`): documented item fields plus the project's
// *(extra)* ones, which are optional.

const signatureAlgorithm = wireObject({
  name: z.string(),
  code: z.string(),
  category: z.string().nullish(),
  description: z.string().nullish(),
  encryption_strengths: z.array(namedCode),
});

const term = wireObject({
  years: int,
  months: int,
  price: money,
  price_source: z.string().nullish(),
  san_price: orNull(money),
  wildcard_price: orNull(money),
});

const productItem = wireObject({
  product_name: z.string(),
  product_code: z.string(),
  product_type: z.string().optional(),
  product_type_code: z.string().optional(),
  verification_type: z.string().optional(),
  verification_type_code: z.enum(["dv", "ov", "ev"]),
  domain_type: z.string().optional(),
  domain_type_code: z.enum(["single", "multi", "wildcard", "multi_wildcard", "flex", "ip", "ip_multi"]),
  brand: z.string().optional(),
  brand_code: z.string().optional(),
  signature_algorithms: z.array(signatureAlgorithm),
  hash_algorithms: z.array(namedCode),
  valid_years: z.array(term),
  price_source: z.string().nullish(),
  has_custom_price: boolish.optional(),
  base_price: money,
  original_price: money.nullish(),
  retail_price: money.nullish(),
  san_price: orNull(money),
  wildcard_price: orNull(money),
  max_single_domains: int.optional(),
  max_domains: int.optional(),
  max_wildcards: int,
  product_id: int.optional(),
  verification_methods: z.array(namedCode).optional(),
  default_verification_method: verificationMethod.optional(),
  max_months_per_certificate: int.optional(),
  requires_company: boolish.optional(),
}).transform(({ maxDomains, maxSingleDomains, ...rest }, ctx) => {
  // The reference documents max_single_domains "(= max_domains)": accept either name.
  const max = maxSingleDomains ?? maxDomains;
  if (max === undefined) {
    ctx.addIssue({ code: "custom", message: "max_single_domains (or max_domains) is required", path: ["max_single_domains"] });
    return z.NEVER;
  }
  return { ...rest, maxSingleDomains: max };
});

// `user` and `query` have no fixed shape; PHP sends an empty object as `[]`.
const looseRecord = z.unknown().transform((value) =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null,
);

export const productPageSchema = z
  .object({
    user: looseRecord.optional(),
    query: looseRecord.optional(),
    products: z
      .object({ total: int, page: int, limit: int, total_pages: int, items: z.array(productItem) })
      .loose(),
  })
  .loose()
  .transform(({ user, query, products }) => ({
    total: products.total,
    page: products.page,
    limit: products.limit,
    totalPages: products.total_pages,
    items: products.items,
    user: user ?? null,
    query: query ?? null,
  }));
