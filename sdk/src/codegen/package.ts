/**
 * The package as the generators see it: every declaration, and for each
 * resource where its generated TypeScript types go, which modules they
 * import named types from, and its reference page.
 */
import type { PackageDeclarations } from "../schema/package-schema.js";
import type { ResourceDeclaration } from "../schema/property.js";
import type { TypeImports } from "../schema/typescript.js";
import { ORDER } from "../resources/order/declaration.js";

/** One resource's generated TypeScript module and reference page. */
export interface TypescriptTarget {
  readonly declaration: ResourceDeclaration;
  /** The folder under `sdk/src/resources/` that receives `properties.generated.ts`. */
  readonly folder: string;
  readonly imports: TypeImports;
  /** The repository-relative reference page holding the generated tables. */
  readonly page: string;
}

const CLIENT_TYPES = "../../client/types.js";

export const PACKAGE: PackageDeclarations & { readonly typescript: readonly TypescriptTarget[] } = {
  description: "Buy, validate, issue, renew and retire TLS certificates through the Certificate Reseller Partner API.",
  config: {},
  resources: [ORDER],
  functions: [],
  typescript: [
    {
      declaration: ORDER,
      folder: "order",
      imports: {
        [CLIENT_TYPES]: ["CertStatus", "CompanyInfo", "HashAlgorithm", "KeySpec", "Open", "OpenInt", "PaymentMethod", "SignatureAlgorithm", "VerificationMethod"],
        "./types.js": ["OrderPriceState"],
      },
      page: "docs/reference/order.md",
    },
  ],
};
