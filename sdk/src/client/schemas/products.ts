import type { ProductPage } from "../types.js";
import type { DomainTypeCode, PriceSource, SignatureAlgorithm, VerificationTypeCode } from "../vocabulary.js";
import { boolean, integer, list, listOf, map, money, nullable, object, opaqueObject, openText, optional, required, text, type Reader } from "./read.js";

// Product list (`GetUserProduct`; the specification leaves it "not shown", the
// fields are the service's documented item fields). Required are the fields
// an order is planned from; descriptive ones are optional. A product that
// cannot be read is skipped and reported, never failing the list.

const namedCode = object({ name: required("name", text), code: required("code", text) });

const signatureAlgorithm = object({
  name: required("name", text),
  code: required("code", openText<SignatureAlgorithm>()),
  category: nullable("category", text),
  description: nullable("description", text),
  encryptionStrengths: required("encryption_strengths", listOf(namedCode)),
});

const term = object({
  years: required("years", integer),
  months: required("months", integer),
  price: required("price", money),
  priceSource: optional("price_source", openText<PriceSource>()),
  sanPrice: nullable("san_price", money),
  wildcardPrice: nullable("wildcard_price", money),
});

const productItem = object({
  productName: required("product_name", text),
  productCode: required("product_code", text),
  productType: optional("product_type", text),
  productTypeCode: optional("product_type_code", text),
  verificationType: optional("verification_type", text),
  verificationTypeCode: required("verification_type_code", openText<VerificationTypeCode>()),
  domainType: optional("domain_type", text),
  domainTypeCode: required("domain_type_code", openText<DomainTypeCode>()),
  brand: optional("brand", text),
  brandCode: optional("brand_code", text),
  signatureAlgorithms: required("signature_algorithms", listOf(signatureAlgorithm)),
  hashAlgorithms: required("hash_algorithms", listOf(namedCode)),
  validYears: required("valid_years", listOf(term)),
  priceSource: optional("price_source", openText<PriceSource>()),
  hasCustomPrice: optional("has_custom_price", boolean),
  basePrice: required("base_price", money),
  originalPrice: optional("original_price", money),
  retailPrice: optional("retail_price", money),
  sanPrice: nullable("san_price", money),
  wildcardPrice: nullable("wildcard_price", money),
  // The service documents max_single_domains "(= max_domains)": either name.
  maxSingleDomains: required(["max_single_domains", "max_domains"], integer),
  maxWildcards: required("max_wildcards", integer),
});

const productCodeOf = (raw: unknown) => {
  const code = (raw as { product_code?: unknown } | null)?.product_code;
  // Never cut a value short: the client redacts whole values (a cut-off echo of the key would slip through).
  return typeof code === "string" && code.length <= 64 ? `product_code ${JSON.stringify(code)}` : undefined;
};

// `user` and `query` have no fixed shape; anything but an object reads as null.
const looseRecord: Reader<Record<string, unknown> | null> = (value, ctx) => {
  try {
    return { ...opaqueObject(value, ctx) };
  } catch {
    return null;
  }
};

const products = object({
  total: required("total", integer),
  page: required("page", integer),
  limit: required("limit", integer),
  totalPages: required("total_pages", integer),
  items: list("items", productItem, productCodeOf),
});

export const productPage: Reader<ProductPage> = map(
  object({ user: optional("user", looseRecord), query: optional("query", looseRecord), products: required("products", products) }),
  ({ user, query, products: p }) => ({ ...p, user: user ?? null, query: query ?? null }),
);
