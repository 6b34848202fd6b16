/**
 * The functions `getAccount` and `getProducts` as declarations: token,
 * description, arguments and result, for the package schema and the
 * reference. Member names are those of the TypeScript result types, which
 * the compiler holds to these tables (below): each declared member exists,
 * each member is declared, and `required` is set exactly on the members
 * that are always present and never null.
 *
 * Values the service may extend (codes, states) are plain strings or
 * numbers here, open enums in TypeScript (`tsType`): a result must carry a
 * value the service added later.
 */
import * as t from "../schema/property.js";
import type { AccountFunds, AccountUser, ApiKeyInfo, NamedCode, Product, ProductSignatureAlgorithm, ProductTerm } from "../client/types.js";
import { DOMAIN_TYPE_CODES, PRICE_SOURCES, USER_STATUSES, VERIFICATION_TYPE_CODES } from "../client/vocabulary.js";
import type { GetAccountResult } from "./get-account.js";
import type { GetProductsArgs, GetProductsResult } from "./get-products.js";

const set = (description: string, type: t.SchemaType, more: { readonly tsType?: string; readonly typeNote?: string } = {}) =>
  ({ description, type, required: true, ...more }) as const;
const maybe = (description: string, type: t.SchemaType, more: { readonly tsType?: string; readonly typeNote?: string } = {}) =>
  ({ description, type, ...more }) as const;
const codes = (values: readonly string[]) => values.map((v) => `\`${v}\``).join(", ");
const MONEY = "a two-place decimal string";

// ---------------------------------------------------------------------------
// getAccount
// ---------------------------------------------------------------------------

const userStatuses = USER_STATUSES.map((s) => `${s.value} ${s.meaning}`).join(", ");

export const ACCOUNT_USER_MEMBERS = {
  id: set("The account's numeric id.", t.integer),
  userId: set("The account's user id.", t.string),
  username: set("The account's user name.", t.string),
  status: set(`The account state: ${userStatuses}; an unlisted value is passed through.`, t.integer, { tsType: "OpenInt<UserStatus>" }),
  statusText: set("The account state in words, as the service writes it.", t.string),
  userType: set("The account type, as the service writes it.", t.string),
  partnerLevel: set("The reseller's partner level.", t.integer),
  boundPhone: maybe("The bound phone number; `null` when no phone is bound.", t.string, { tsType: "string | null" }),
  boundEmail: maybe("The bound e-mail address; `null` when no e-mail is bound.", t.string, { tsType: "string | null" }),
} as const satisfies t.PropertyTable;

export const ACCOUNT_FUNDS_MEMBERS = {
  balance: set(`The account balance, ${MONEY}.`, t.string),
  creditLine: set(`The credit line, ${MONEY}.`, t.string),
  creditUsed: set(`Credit used, ${MONEY}.`, t.string),
  creditAvailable: set(`Credit still available, ${MONEY}.`, t.string),
  trustedBalance: set(`The trusted balance, ${MONEY}.`, t.string),
  totalAvailable: set(`\`balance + creditAvailable\`: what an order may spend, ${MONEY}.`, t.string),
} as const satisfies t.PropertyTable;

export const API_KEY_INFO_MEMBERS = {
  appId: maybe("The key's public identifier (never its secret); `null` when the service has none to show.", t.string, { tsType: "string | null" }),
  lastUsedIp: maybe("The IP address the key was last used from; `null` before first use.", t.string, { tsType: "string | null" }),
} as const satisfies t.PropertyTable;

export const GET_ACCOUNT_RESULT = {
  user: set(
    "Who the account is (GetUserData's `data.user`).",
    t.objectType("AccountUser", "Identity of the account behind the API key (GetUserData `data.user`, spec 2.1).", ACCOUNT_USER_MEMBERS),
  ),
  account: set(
    `The account's money, every amount ${MONEY} (GetUserData's \`data.account\`).`,
    t.objectType("AccountFunds", "The account's money (GetUserData `data.account`, spec 2.1).", ACCOUNT_FUNDS_MEMBERS),
  ),
  apiKey: set(
    "The API key as the service reports it (GetUserData's `data.api_key`): never the secret.",
    t.objectType("ApiKeyInfo", "The API key as the service reports it (GetUserData `data.api_key`): never the secret.", API_KEY_INFO_MEMBERS),
  ),
  serverTime: set("The service's clock, `YYYY-MM-DD HH:MM:SS`.", t.string),
} as const satisfies t.PropertyTable;

export const GET_ACCOUNT = t.invoke("getAccount", {
  description:
    "The account behind the configured API key, as GetUserData reports it (spec 2.1, camelCase): who, how much money, which key — never the key's secret. " +
    "Money is a two-place decimal string (`\"5000.00\"`). Runs in the program with the same config keys and environment variables as the provider.",
  inputs: {},
  outputs: GET_ACCOUNT_RESULT,
});

// ---------------------------------------------------------------------------
// getProducts
// ---------------------------------------------------------------------------

export const GET_PRODUCTS_ARGS = {
  domainType: {
    description: `A spec 2.3 domain type: ${codes(DOMAIN_TYPE_CODES)}.`,
    type: t.enumOf("DomainTypeCode", DOMAIN_TYPE_CODES, "A domain type (spec 2.3)."),
  },
  brandCode: { description: "The brand's code.", type: t.string },
  verificationType: {
    description: `The validation level: ${codes(VERIFICATION_TYPE_CODES)}.`,
    type: t.enumOf("VerificationTypeCode", VERIFICATION_TYPE_CODES, "A validation level."),
  },
  productName: { description: "Fuzzy match on the name (a case-insensitive fragment).", type: t.string },
  productCode: { description: "Exact product code.", type: t.string },
} as const satisfies t.PropertyTable;

export const NAMED_CODE_MEMBERS = {
  name: set("The name.", t.string),
  code: set("The code.", t.string),
} as const satisfies t.PropertyTable;

const NAMED_CODE = t.objectType("NamedCode", "A `{ name, code }` pair as the product list uses it.", NAMED_CODE_MEMBERS);

export const PRODUCT_SIGNATURE_ALGORITHM_MEMBERS = {
  name: set("The algorithm's name.", t.string),
  code: set("A signature algorithm code (`rsa`, `ecc`, `sm2`), or one the service added since.", t.string, { tsType: "Open<SignatureAlgorithm>" }),
  category: maybe("The algorithm's category, when the service gives one.", t.string, { tsType: "string | null" }),
  description: maybe("The algorithm's description, when the service gives one.", t.string, { tsType: "string | null" }),
  encryptionStrengths: set("The key specs the algorithm offers; `code` of each is a key spec (`rsa-2048`, `p-256`, ...) or a newer one.", t.listOf(NAMED_CODE)),
} as const satisfies t.PropertyTable;

export const PRODUCT_TERM_MEMBERS = {
  years: set("The term in years.", t.integer),
  months: set("The term in months.", t.integer),
  price: set(`Base price for this term (covers the main name only), ${MONEY}.`, t.string),
  priceSource: maybe(`Where the price comes from: ${codes(PRICE_SOURCES)}, or a newer code.`, t.string, { tsType: "Open<PriceSource> | null" }),
  sanPrice: maybe(`Price per extra plain domain for this term, ${MONEY}.`, t.string, { tsType: "Money | null" }),
  wildcardPrice: maybe(`Price per extra wildcard for this term, ${MONEY}.`, t.string, { tsType: "Money | null" }),
} as const satisfies t.PropertyTable;

export const PRODUCT_MEMBERS = {
  productName: set("The product's name.", t.string),
  productCode: set("The product's code (an Order's `productCode`).", t.string),
  productType: maybe("The product type in words.", t.string),
  productTypeCode: maybe("The product type's code (`ssl`).", t.string),
  verificationType: maybe("The validation level in words.", t.string),
  verificationTypeCode: set(`The validation level: ${codes(VERIFICATION_TYPE_CODES)}, or a newer code.`, t.string, { tsType: "Open<VerificationTypeCode>" }),
  domainType: maybe("The domain type in words.", t.string),
  domainTypeCode: set(`A spec 2.3 domain type: ${codes(DOMAIN_TYPE_CODES)}; an unlisted one is passed through.`, t.string, { tsType: "Open<DomainTypeCode>" }),
  brand: maybe("The brand's name.", t.string),
  brandCode: maybe("The brand's code.", t.string),
  signatureAlgorithms: set(
    "The signature algorithms the product supports, with their key specs.",
    t.listOf(t.objectType("ProductSignatureAlgorithm", "A signature algorithm a product supports, with its key specs.", PRODUCT_SIGNATURE_ALGORITHM_MEMBERS)),
  ),
  hashAlgorithms: set("The hash algorithms the product supports; `code` of each is a hash algorithm (`sha256`, `sha384`) or a newer one.", t.listOf(NAMED_CODE)),
  validYears: set(
    "The purchasable terms and their prices.",
    t.listOf(t.objectType("ProductTerm", "One purchasable term of a product and its prices.", PRODUCT_TERM_MEMBERS)),
  ),
  priceSource: maybe(`Where the product's price comes from: ${codes(PRICE_SOURCES)}, or a newer code.`, t.string, { tsType: "Open<PriceSource> | null" }),
  hasCustomPrice: maybe("Whether the account has a price of its own for the product.", t.boolean),
  basePrice: set(`The base price (the main name only), ${MONEY}.`, t.string),
  originalPrice: maybe(`The original price, ${MONEY}.`, t.string, { tsType: "Money | null" }),
  retailPrice: maybe(`The retail price, ${MONEY}.`, t.string, { tsType: "Money | null" }),
  sanPrice: maybe(`Price per extra plain domain, ${MONEY}.`, t.string, { tsType: "Money | null" }),
  wildcardPrice: maybe(`Price per extra wildcard, ${MONEY}.`, t.string, { tsType: "Money | null" }),
  maxSingleDomains: set("Plain domains allowed in total (the service also calls it `max_domains`).", t.integer),
  maxWildcards: set("Wildcards allowed in total.", t.integer),
} as const satisfies t.PropertyTable;

export const GET_PRODUCTS_RESULT = {
  products: set(
    "Every matching product (all pages), as the product list reports it: `domainTypeCode` a spec 2.3 code, prices two-place decimal strings, " +
      "terms in `validYears`, limits in `maxSingleDomains` / `maxWildcards`.",
    t.listOf(t.objectType("Product", "One product of the product list.", PRODUCT_MEMBERS)),
  ),
} as const satisfies t.PropertyTable;

export const GET_PRODUCTS = t.invoke("getProducts", {
  description:
    "Lists the products the account may buy, walking every page of the list (read once per program process and filtered there); every filter is optional. " +
    "Runs in the program with the same config keys and environment variables as the provider.",
  inputs: GET_PRODUCTS_ARGS,
  outputs: GET_PRODUCTS_RESULT,
});

// ---------------------------------------------------------------------------
// The TypeScript types have exactly the declared members, required exactly
// where the tables say (always present and never null).
// ---------------------------------------------------------------------------

type Holds<T, Table extends t.PropertyTable> = [t.Same<keyof T, keyof Table>, t.Same<t.AlwaysSetKeys<T>, t.RequiredNames<Table>>];

const accountResult: Holds<GetAccountResult, typeof GET_ACCOUNT_RESULT> = [true, true];
const accountUser: Holds<AccountUser, typeof ACCOUNT_USER_MEMBERS> = [true, true];
const accountFunds: Holds<AccountFunds, typeof ACCOUNT_FUNDS_MEMBERS> = [true, true];
const apiKeyInfo: Holds<ApiKeyInfo, typeof API_KEY_INFO_MEMBERS> = [true, true];
const productsArgs: Holds<GetProductsArgs, typeof GET_PRODUCTS_ARGS> = [true, true];
const productsResult: Holds<GetProductsResult, typeof GET_PRODUCTS_RESULT> = [true, true];
const product: Holds<Product, typeof PRODUCT_MEMBERS> = [true, true];
const signatureAlgorithm: Holds<ProductSignatureAlgorithm, typeof PRODUCT_SIGNATURE_ALGORITHM_MEMBERS> = [true, true];
const term: Holds<ProductTerm, typeof PRODUCT_TERM_MEMBERS> = [true, true];
const namedCode: Holds<NamedCode, typeof NAMED_CODE_MEMBERS> = [true, true];
void [accountResult, accountUser, accountFunds, apiKeyInfo, productsArgs, productsResult, product, signatureAlgorithm, term, namedCode];
