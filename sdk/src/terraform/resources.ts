/**
 * What the Terraform provider serves: each resource of the registry that has
 * a handler module (the sandbox's test-only record resources aside), under
 * its Terraform type name, with its declared properties under their HCL
 * names; and the functions as data sources. Nothing here restates a
 * property: the registry's declarations are the only copy, so a property
 * declared there reaches Terraform through `npm run generate` as it reaches
 * the Pulumi schema.
 */
import { GET_ACCOUNT, GET_PRODUCTS } from "../functions/declarations.js";
import { RESOURCES, type RegisteredResource } from "../registry.js";
import type { Presentation } from "../resources/shared/presentation.js";
import { entries, isInput, isOutput, type FunctionDeclaration, type PropertyDeclaration, type PropertyTable, type ResourceDeclaration } from "../schema/property.js";
import { snakeCase, typeName } from "./names.js";

/** One declared property as a Terraform attribute. */
export interface DeclaredAttribute {
  /** The declaration's (camelCase) name, as the handlers read it. */
  readonly name: string;
  /** The HCL name. */
  readonly attribute: string;
  readonly declaration: PropertyDeclaration;
  readonly input: boolean;
  readonly output: boolean;
}

/** An attribute only the Terraform front end has (the resource id, the Order's `journal_ref`). */
export interface FrontEndAttribute {
  readonly attribute: string;
  readonly description: string;
  readonly optional?: boolean;
  readonly computed?: boolean;
}

export interface TerraformResource {
  readonly typeName: string;
  readonly registered: RegisteredResource;
  readonly declaration: ResourceDeclaration;
  readonly handler: string;
  /** It buys (the registry says so): the journal key, the price at plan, the duplicate-key refusal. */
  readonly buys: boolean;
  readonly presentation: Presentation;
  /** Declared properties by HCL name, in declaration order. */
  readonly attributes: ReadonlyMap<string, DeclaredAttribute>;
  readonly frontEnd: readonly FrontEndAttribute[];
}

export interface TerraformDataSource {
  readonly typeName: string;
  readonly declaration: FunctionDeclaration;
  readonly inputs: ReadonlyMap<string, DeclaredAttribute>;
  readonly outputs: ReadonlyMap<string, DeclaredAttribute>;
}

/** The attribute naming a purchase's journal entry when product and names are not enough (see journal-identity.ts). */
export const JOURNAL_REF = "journal_ref";

/** The attribute holding the resource id (the engine's id in the Pulumi front ends). */
export const ID = "id";

/** The declared properties a front end without TypeScript objects can carry (not `tsOnly`), by HCL name. */
export function declaredAttributes(table: PropertyTable): ReadonlyMap<string, DeclaredAttribute> {
  const map = new Map<string, DeclaredAttribute>();
  for (const [name, declaration] of entries(table)) {
    if (declaration.tsOnly) continue;
    const attribute = snakeCase(name);
    if (map.has(attribute)) throw new Error(`certreseller: two properties map to the Terraform attribute ${attribute} (${map.get(attribute)!.name}, ${name})`);
    map.set(attribute, { name, attribute, declaration, input: isInput(declaration), output: isOutput(declaration) });
  }
  return map;
}

/**
 * Resources with a handler that Terraform does not serve, and why. A new
 * resource is served unless it is listed here: its declaration is its schema.
 */
export const NOT_SERVED: Readonly<Record<string, string>> = {
  // Its identity is a Pulumi stack's (its URN and the `organization` setting); Terraform's keys name a backend and a workspace (journal-identity.ts).
  "stack-journal": "settles the purchase journal of a Pulumi stack",
};

/** Whether a registered resource is served (a handler, not one of the sandbox's test-only ones, not listed in {@link NOT_SERVED}). */
const served = (r: RegisteredResource): r is RegisteredResource & { handler: string } =>
  r.handler !== undefined && !String(r.handler).startsWith("testing/") && !Object.hasOwn(NOT_SERVED, String(r.handler));

function frontEndAttributes(r: RegisteredResource): FrontEndAttribute[] {
  const id: FrontEndAttribute = { attribute: ID, computed: true, description: `The ${r.declaration.name}'s id (what the Pulumi front ends use as the resource id).` };
  if (!r.buys) return [id];
  return [
    id,
    {
      attribute: JOURNAL_REF,
      optional: true,
      description:
        "Names this purchase in the purchase journal when two instances in one workspace buy the same product for the same names (the plan refuses " +
        "that without it): any string, unique among those instances (e.g. `each.key`). Unset: the product code and the sorted names name it. " +
        "Read when the purchase is made; a later change changes nothing.",
    },
  ];
}

/** The served resources, by Terraform type name, in the registry's order. */
export const TERRAFORM_RESOURCES: ReadonlyMap<string, TerraformResource> = new Map(
  RESOURCES.filter(served).map((r): [string, TerraformResource] => {
    const attributes = declaredAttributes(r.declaration.properties);
    const frontEnd = frontEndAttributes(r);
    for (const extra of frontEnd) if (attributes.has(extra.attribute)) throw new Error(`certreseller: ${r.declaration.name} declares ${extra.attribute}, which the Terraform front end adds itself`);
    return [
      typeName(r.declaration.name),
      { typeName: typeName(r.declaration.name), registered: r, declaration: r.declaration, handler: r.handler, buys: r.buys === true, presentation: r.presentation ?? {}, attributes, frontEnd },
    ];
  }),
);

/** The data sources: the functions, by Terraform type name (`certreseller_account`, `certreseller_products`). */
export const TERRAFORM_DATA_SOURCES: ReadonlyMap<string, TerraformDataSource> = new Map(
  [GET_ACCOUNT, GET_PRODUCTS].map((f): [string, TerraformDataSource] => [
    typeName(f.name),
    { typeName: typeName(f.name), declaration: f, inputs: declaredAttributes(f.inputs), outputs: declaredAttributes(f.outputs) },
  ]),
);

/** The served resource of a type name; throws naming the served ones. */
export function resourceOf(name: string): TerraformResource {
  const found = TERRAFORM_RESOURCES.get(name);
  if (!found) throw new Error(`certreseller: unknown resource type ${JSON.stringify(name)} (this provider serves ${[...TERRAFORM_RESOURCES.keys()].join(", ")})`);
  return found;
}
