/**
 * The Terraform schema, derived from the registry's declarations (see
 * resources.ts) and the provider configuration's: names in snake_case,
 * `sensitive` where a property is secret, required/optional/computed from
 * input and output, descriptions from the declarations with what a change
 * does (the declaration's change rule, which the plan also applies as
 * `RequiresReplace`).
 */
import { PROVIDER_CONFIG } from "../provider/config.js";
import { alwaysSet, entries, outputText, type PropertyDeclaration, type SchemaType } from "../schema/property.js";
import type { TfAttribute, TfBlock, TfSchema, TfType } from "./contract.js";
import { snakeCase } from "./names.js";
import { TERRAFORM_DATA_SOURCES, TERRAFORM_RESOURCES, type DeclaredAttribute, type TerraformResource } from "./resources.js";

/** The schema version of every block: state written by this release. */
export const SCHEMA_VERSION = 0;

/**
 * The cty type of a declared type: enums are strings, integers numbers,
 * named objects objects of their members (snake_case), any JSON `dynamic`.
 *
 * @example
 * tfType({ kind: "array", items: { kind: "string" } }) // ["list", "string"]
 */
export function tfType(type: SchemaType): TfType {
  switch (type.kind) {
    case "string":
    case "enum":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "bool";
    case "array":
      return ["list", tfType(type.items)];
    case "map":
      return ["map", tfType(type.values)];
    case "object":
      return ["object", Object.fromEntries(entries(type.properties).map(([name, p]) => [snakeCase(name), tfType(p.type)]))];
    case "any":
      return "dynamic";
  }
}

/**
 * Whether an unset optional input is still set once the resource exists:
 * a default `check` fills in, or a value the service reports (an output
 * described apart from the input, e.g. the verification method in effect).
 * Terraform must then be told the attribute is also computed, and the plan
 * leaves it unknown until the service answers.
 */
export function filledWhenUnset(p: PropertyDeclaration): boolean {
  return alwaysSet(p) || p.outputDescription !== undefined;
}

/** What a change of an input does, as the attribute's description ends. */
function changeText(p: PropertyDeclaration, replacement: string): string {
  switch (p.change) {
    case "replace":
      return ` Changing it ${replacement}${p.changeNote ? ` (${p.changeNote.replace(/\.$/, "")})` : ""}.`;
    case "update":
      return ` Changing it updates in place${p.changeNote ? `: ${p.changeNote.replace(/\.$/, "")}` : ""}.`;
    case "none":
      return ` Changing it changes nothing at the service${p.changeNote ? ` (${p.changeNote.replace(/\.$/, "")})` : ""}.`;
    default:
      return "";
  }
}

/**
 * One declared property as a Terraform attribute: required inputs are
 * required; optional inputs that are reported too are also computed (an
 * unset one may be filled in, and the plan then keeps or learns it); outputs
 * are computed; secrets are sensitive.
 */
export function tfAttribute(a: DeclaredAttribute, replacement = "replaces the resource"): TfAttribute {
  const p = a.declaration;
  const description = a.input
    ? `${p.description}${a.output && p.outputDescription ? ` Reported: ${p.outputDescription}` : ""}${changeText(p, replacement)}`
    : outputText(p);
  const flags: Omit<TfAttribute, "type" | "description"> = !a.input
    ? { computed: true }
    : p.required === true
      ? { required: true }
      : a.output
        ? { optional: true, computed: true }
        : { optional: true };
  return { type: tfType(p.type), description, ...flags, ...(p.secret ? { sensitive: true } : {}) };
}

/** A served resource's block. */
export function resourceBlock(r: TerraformResource): TfBlock {
  const replacement = r.declaration.replacement ?? "replaces the resource";
  const attributes: Record<string, TfAttribute> = {};
  for (const extra of r.frontEnd) {
    attributes[extra.attribute] = { type: "string", description: extra.description, ...(extra.optional ? { optional: true } : {}), ...(extra.computed ? { computed: true } : {}) };
  }
  for (const [name, a] of r.attributes) attributes[name] = tfAttribute(a, replacement);
  return { version: SCHEMA_VERSION, description: r.declaration.description, attributes };
}

/** The provider block: every setting of PROVIDER_CONFIG, optional (each falls back on its environment variable), the API key sensitive. */
export function providerBlock(): TfBlock {
  const attributes: Record<string, TfAttribute> = {};
  for (const [name, p] of entries(PROVIDER_CONFIG)) {
    const env = p.env?.length ? ` Unset: the environment variable \`${p.env[0]}\`.` : "";
    attributes[snakeCase(name)] = { type: tfType(p.type), description: `${p.description}${env}`, optional: true, ...(p.secret ? { sensitive: true } : {}) };
  }
  return {
    version: SCHEMA_VERSION,
    description: "The Certificate Reseller Partner API account the resources buy with, and where the purchase journal is kept.",
    attributes,
  };
}

/** The whole schema: the provider block, the served resources, the data sources. */
export function terraformSchema(): TfSchema {
  const resources: Record<string, TfBlock> = {};
  for (const [name, r] of TERRAFORM_RESOURCES) resources[name] = resourceBlock(r);
  const dataSources: Record<string, TfBlock> = {};
  for (const [name, d] of TERRAFORM_DATA_SOURCES) {
    const attributes: Record<string, TfAttribute> = {};
    for (const [attr, a] of d.inputs) {
      attributes[attr] = { type: tfType(a.declaration.type), description: a.declaration.description, ...(a.declaration.required ? { required: true } : { optional: true }) };
    }
    for (const [attr, a] of d.outputs) attributes[attr] = { type: tfType(a.declaration.type), description: outputText(a.declaration), computed: true, ...(a.declaration.secret ? { sensitive: true } : {}) };
    dataSources[name] = { version: SCHEMA_VERSION, description: d.declaration.description, attributes };
  }
  return { provider: providerBlock(), resources, dataSources };
}
