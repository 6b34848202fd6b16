/**
 * The package as the generators see it: every declaration, and for each
 * resource where its generated TypeScript types go, which modules they
 * import named types from, and its reference page.
 */
import type { PackageDeclarations } from "../schema/package-schema.js";
import type { ResourceDeclaration } from "../schema/property.js";
import type { TypeImports } from "../schema/typescript.js";
import { GET_ACCOUNT, GET_PRODUCTS } from "../functions/declarations.js";
import { PROVIDER_CONFIG } from "../provider/config.js";
import { CERTIFICATE } from "../resources/certificate/declaration.js";
import { ORDER } from "../resources/order/declaration.js";
import { RFC2136_RECORD } from "../resources/rfc2136-record/declaration.js";
import { VALIDATED_CERTIFICATE } from "../resources/validated-certificate/declaration.js";
import { VALIDATION } from "../resources/validation/declaration.js";
import { SANDBOX_DNS_RECORD } from "../testing/declarations.js";

/**
 * One resource's generated TypeScript module: its arguments, its inputs as
 * the provider holds them after `check`, and its outputs. A form the
 * declaration cannot express (the Validation's union of `order` or
 * `orderNo`) is written by hand and held to the declaration by the compiler.
 */
export interface TypescriptTarget {
  readonly declaration: ResourceDeclaration;
  /** The folder under `sdk/src/` that receives `properties.generated.ts`. */
  readonly folder: string;
  readonly imports: TypeImports;
}

/** One resource's reference page, whose input and output tables are generated. */
export interface ReferencePage {
  readonly declaration: ResourceDeclaration;
  /** Repository-relative path. */
  readonly page: string;
}

const CLIENT_TYPES = "../../client/types.js";

// The package's own version (sdk/package.json, two folders up from src/ and dist/ alike): the plugin reports it.
const { version } = require("../../package.json") as { version: string };

export const PACKAGE: PackageDeclarations & { readonly typescript: readonly TypescriptTarget[]; readonly pages: readonly ReferencePage[] } = {
  version,
  description: "Buy, validate, issue, renew and retire TLS certificates through the Certificate Reseller Partner API.",
  config: PROVIDER_CONFIG,
  // What the provider plugin serves. The ValidatedCertificate component is
  // TypeScript only: its `publish` is a function of the program, which no
  // schema can carry (docs/languages.md gives its steps for other languages).
  resources: [ORDER, VALIDATION, CERTIFICATE, RFC2136_RECORD, SANDBOX_DNS_RECORD],
  functions: [GET_ACCOUNT, GET_PRODUCTS],
  typescript: [
    {
      declaration: ORDER,
      folder: "resources/order",
      imports: {
        [CLIENT_TYPES]: ["CertStatus", "CompanyInfo", "HashAlgorithm", "KeySpec", "Open", "OpenInt", "PaymentMethod", "SignatureAlgorithm", "VerificationMethod"],
        "./stored-price.js": ["OrderPriceState"],
      },
    },
    { declaration: CERTIFICATE, folder: "resources/certificate", imports: { "../order/resource.js": ["Order"] } },
    { declaration: VALIDATION, folder: "resources/validation", imports: { "./order-like.js": ["OrderLike"], "./records.js": ["DomainValidationRecord"] } },
    { declaration: RFC2136_RECORD, folder: "resources/rfc2136-record", imports: {} },
    { declaration: SANDBOX_DNS_RECORD, folder: "testing", imports: {} },
  ],
  pages: [
    { declaration: ORDER, page: "docs/reference/order.md" },
    { declaration: VALIDATION, page: "docs/reference/validation.md" },
    { declaration: CERTIFICATE, page: "docs/reference/certificate.md" },
    { declaration: VALIDATED_CERTIFICATE, page: "docs/reference/validated-certificate.md" },
    { declaration: RFC2136_RECORD, page: "docs/reference/rfc2136-record.md" },
  ],
};
