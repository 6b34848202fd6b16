import type { DomainTypeCode, HashAlgorithm, KeySpec, PriceSource, SignatureAlgorithm, VerificationTypeCode } from "../vocabulary.js";
import {
  boolean,
  integer,
  list,
  listOf,
  map,
  money,
  nullable,
  object,
  opaqueObject,
  openText,
  optional,
  required,
  text,
  type Filled,
  type ReadOf,
  type Reader,
  type Simplify,
} from "./read.js";

// Product list (`GetUserProduct`; the specification leaves it "not shown", the
// fields are the service's documented item fields). Required are the fields
// an order is planned from; descriptive ones are optional. A product that
// cannot be read is skipped and reported, never failing the list.

/** A `{ name, code }` pair as the product list uses it. */
export const namedCode = object({ name: required("name", text), code: required("code", text) });

/** A signature algorithm a product supports, with its key specs. */
export const productSignatureAlgorithm = object({
  name: required("name", text),
  /** A {@link SignatureAlgorithm} code, or one the service added since. */
  code: required("code", openText<SignatureAlgorithm>()),
  category: nullable("category", text),
  description: nullable("description", text),
  /** `code` of each is a {@link KeySpec} (or a newer one). */
  encryptionStrengths: required("encryption_strengths", listOf(namedCode)),
});

/** One purchasable term of a product and its prices. */
export const productTerm = object({
  years: required("years", integer),
  months: required("months", integer),
  /** Base price for this term (covers the main name only). */
  price: required("price", money),
  priceSource: optional("price_source", openText<PriceSource>()),
  /** Price per extra plain domain for this term. */
  sanPrice: nullable("san_price", money),
  /** Price per extra wildcard for this term. */
  wildcardPrice: nullable("wildcard_price", money),
});

/** One product of the product list. */
export const product = object({
  productName: required("product_name", text),
  productCode: required("product_code", text),
  productType: optional("product_type", text),
  /** `ssl`. */
  productTypeCode: optional("product_type_code", text),
  verificationType: optional("verification_type", text),
  verificationTypeCode: required("verification_type_code", openText<VerificationTypeCode>()),
  domainType: optional("domain_type", text),
  /** A spec 2.3 code; an unlisted one is passed through (see {@link isDomainTypeCode}). */
  domainTypeCode: required("domain_type_code", openText<DomainTypeCode>()),
  brand: optional("brand", text),
  brandCode: optional("brand_code", text),
  signatureAlgorithms: required("signature_algorithms", listOf(productSignatureAlgorithm)),
  /** `code` of each is a {@link HashAlgorithm} (or a newer one). */
  hashAlgorithms: required("hash_algorithms", listOf(namedCode)),
  validYears: required("valid_years", listOf(productTerm)),
  priceSource: optional("price_source", openText<PriceSource>()),
  hasCustomPrice: optional("has_custom_price", boolean),
  basePrice: required("base_price", money),
  originalPrice: optional("original_price", money),
  retailPrice: optional("retail_price", money),
  sanPrice: nullable("san_price", money),
  wildcardPrice: nullable("wildcard_price", money),
  // The service documents max_single_domains "(= max_domains)": either name.
  /** Plain domains allowed in total (the service also calls it `max_domains`). */
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
  /** Products that could not be read are left out (and reported to the client's `logger.warn`). */
  items: list("items", product, productCodeOf),
});

const page = object({
  /** The account summary the service includes (shape not fixed); `null` when absent. */
  user: optional("user", looseRecord),
  /** The query as the service understood it (shape not fixed); `null` when absent. */
  query: optional("query", looseRecord),
  products: required("products", products),
});

type Page = ReadOf<typeof page>;

/** The page: `data.products` flattened, with `user` and `query` beside its members. */
export const productPage: Reader<Simplify<Page["products"] & Filled<Pick<Page, "user" | "query">, "user" | "query">>> = map(
  page,
  ({ user, query, products: p }) => ({ ...p, user: user ?? null, query: query ?? null }),
);
