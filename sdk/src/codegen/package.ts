/**
 * The package as the generators see it: every declaration (the resources
 * from the registry), and for each resource where its generated TypeScript
 * types go, which modules they import named types from, and its reference page.
 */
import type { PackageDeclarations } from "./package-schema.js";
import type { ResourceDeclaration } from "../schema/property.js";
import type { TypeImports } from "./typescript.js";
import { GET_ACCOUNT, GET_PRODUCTS } from "../functions/declarations.js";
import { PROVIDER_CONFIG } from "../provider/config.js";
import { RESOURCES } from "../registry.js";

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

// The package's own version (sdk/package.json, two folders up from src/ and dist/ alike): the plugin reports it.
const { version } = require("../../package.json") as { version: string };

export const PACKAGE: PackageDeclarations & {
  readonly typescript: readonly TypescriptTarget[];
  readonly pages: readonly ReferencePage[];
  /** The modules the package root exports the resource classes from (`sdk/src`-relative, without extension). */
  readonly classes: readonly string[];
} = {
  version,
  description: "Buy, validate, issue, renew and retire TLS certificates through the Certificate Reseller Partner API.",
  config: PROVIDER_CONFIG,
  // What the provider plugin serves: the resources with a handler module.
  resources: RESOURCES.filter((r) => r.handler !== undefined).map((r) => r.declaration),
  functions: [GET_ACCOUNT, GET_PRODUCTS],
  typescript: RESOURCES.flatMap(({ declaration, folder, types }) => (types ? [{ declaration, folder, ...types }] : [])),
  pages: RESOURCES.flatMap(({ declaration, page }) => (page ? [{ declaration, page }] : [])),
  classes: RESOURCES.filter(({ folder }) => folder.startsWith("resources/")).map(({ folder }) => `${folder}/resource`),
};
