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
export const namedCode = object({ name: required(text), code: required(text) });

/** A signature algorithm a product supports, with its key specs. */
export const productSignatureAlgorithm = object({
  name: required(text),
  /** A {@link SignatureAlgorithm} code, or one the service added since. */
  code: required(openText<SignatureAlgorithm>()),
  category: nullable(text),
  description: nullable(text),
  /** `code` of each is a {@link KeySpec} (or a newer one). */
  encryptionStrengths: required(listOf(namedCode)),
});

/** What each name beyond the main one costs (a term's, or the product's); `null` when the service gives none. */
const extraNamePrices = {
  /** Price per extra plain domain. */
  sanPrice: nullable(money),
  /** Price per extra wildcard. */
  wildcardPrice: nullable(money),
};

/** One purchasable term of a product and its prices. */
export const productTerm = object({
  years: required(integer),
  months: required(integer),
  /** Base price for this term (covers the main name only). */
  price: required(money),
  priceSource: optional(openText<PriceSource>()),
  ...extraNamePrices,
});

/** One product of the product list. */
export const product = object({
  productName: required(text),
  productCode: required(text),
  productType: optional(text),
  /** `ssl`. */
  productTypeCode: optional(text),
  verificationType: optional(text),
  verificationTypeCode: required(openText<VerificationTypeCode>()),
  domainType: optional(text),
  /** A spec 2.3 code; an unlisted one is passed through (see {@link isDomainTypeCode}). */
  domainTypeCode: required(openText<DomainTypeCode>()),
  brand: optional(text),
  brandCode: optional(text),
  signatureAlgorithms: required(listOf(productSignatureAlgorithm)),
  /** `code` of each is a {@link HashAlgorithm} (or a newer one). */
  hashAlgorithms: required(listOf(namedCode)),
  validYears: required(listOf(productTerm)),
  priceSource: optional(openText<PriceSource>()),
  hasCustomPrice: optional(boolean),
  basePrice: required(money),
  originalPrice: optional(money),
  retailPrice: optional(money),
  ...extraNamePrices,
  // The service documents max_single_domains "(= max_domains)": either name.
  /** Plain domains allowed in total (the service also calls it `max_domains`). */
  maxSingleDomains: required(integer, ["max_single_domains", "max_domains"]),
  maxWildcards: required(integer),
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
  total: required(integer),
  page: required(integer),
  limit: required(integer),
  totalPages: required(integer),
  /** Products that could not be read are left out (and reported to the client's `logger.warn`). */
  items: list(product, productCodeOf),
});

const page = object({
  /** The account summary the service includes (shape not fixed); `null` when absent. */
  user: optional(looseRecord),
  /** The query as the service understood it (shape not fixed); `null` when absent. */
  query: optional(looseRecord),
  products: required(products),
});

type Page = ReadOf<typeof page>;

/** The page: `data.products` flattened, with `user` and `query` beside its members. */
export const productPage: Reader<Simplify<Page["products"] & Filled<Pick<Page, "user" | "query">, "user" | "query">>> = map(
  page,
  ({ user, query, products: p }) => ({ ...p, user: user ?? null, query: query ?? null }),
);
