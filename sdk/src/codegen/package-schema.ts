/**
 * The Pulumi package schema (`schema.json`) of the package, generated from
 * the declarations: what a provider plugin serves (GetSchema) and what the
 * SDKs of other languages are generated from.
 */
import {
  alwaysSet,
  entries,
  outputText,
  storageNote,
  isInput,
  isOutput,
  type FunctionDeclaration,
  type PropertyDeclaration,
  type PropertyTable,
  type ResourceDeclaration,
  type SchemaType,
} from "../schema/property.js";

export const PACKAGE_NAME = "certreseller";
const token = (name: string) => `${PACKAGE_NAME}:index:${name}`;

/** Everything the schema is made of. */
export interface PackageDeclarations {
  readonly version?: string;
  readonly description: string;
  readonly homepage?: string;
  readonly repository?: string;
  readonly config: PropertyTable;
  readonly resources: readonly ResourceDeclaration[];
  readonly functions: readonly FunctionDeclaration[];
}

type Json = Record<string, unknown>;

/** Named types (objects and enums) met while walking the properties, by token. */
class TypeRegistry {
  readonly types = new Map<string, Json>();

  /** The schema's type spec of a property type; named types are registered and referenced. */
  spec(type: SchemaType, asOutput: boolean): Json {
    switch (type.kind) {
      case "string":
      case "integer":
      case "number":
      case "boolean":
        return { type: type.kind };
      case "any":
        return { $ref: "pulumi.json#/Any" };
      case "array":
        return { type: "array", items: this.spec(type.items, asOutput) };
      case "map":
        return { type: "object", additionalProperties: this.spec(type.values, asOutput) };
      case "enum":
        // The service may report values it adds later: outputs stay plain strings (an open enum).
        if (asOutput) return { type: "string" };
        this.define(token(type.name), {
          type: "string",
          description: type.description,
          enum: type.values.map((value) => ({ value })),
        });
        return { $ref: `#/types/${token(type.name)}` };
      case "object": {
        const tok = token(type.name);
        if (!this.types.has(tok)) {
          this.types.set(tok, {}); // placeholder: a type may refer to itself
          this.types.set(tok, { type: "object", description: type.description, ...this.object(type.properties, "both") });
        }
        return { $ref: `#/types/${tok}` };
      }
    }
  }

  private define(tok: string, spec: Json): void {
    if (!this.types.has(tok)) this.types.set(tok, spec);
  }

  property(p: PropertyDeclaration, asOutput: boolean, willReplace = false): Json {
    return {
      description: asOutput ? [outputText(p), storageNote(p)].filter(Boolean).join(" ") : p.description,
      ...this.spec(p.type, asOutput),
      ...(p.secret ? { secret: true } : {}),
      ...(willReplace ? { willReplaceOnChanges: true } : {}),
      ...(p.env?.length ? { defaultInfo: { environment: [...p.env] } } : {}),
    };
  }

  /** `properties` and `required` of a table, for inputs, outputs, or both (an object type). */
  object(table: PropertyTable, side: "inputs" | "outputs" | "both"): { properties: Json; required?: string[] } {
    const properties: Json = {};
    const required: string[] = [];
    for (const [name, p] of entries(table)) {
      if (p.tsOnly) continue;
      if (side === "inputs" && !isInput(p)) continue;
      if (side === "outputs" && !isOutput(p)) continue;
      properties[name] = this.property(p, side === "outputs", side === "inputs" && p.change === "replace");
      if (side === "outputs" ? alwaysSet(p) && p.reportedWhen === undefined : p.required) required.push(name);
    }
    return { properties, ...(required.length ? { required } : {}) };
  }
}

function resourceSpec(types: TypeRegistry, r: ResourceDeclaration): Json {
  const outputs = types.object(r.properties, "outputs");
  const inputs = types.object(r.properties, "inputs");
  return {
    description: r.description,
    ...(r.component ? { isComponent: true } : {}),
    properties: outputs.properties,
    ...(outputs.required ? { required: outputs.required } : {}),
    inputProperties: inputs.properties,
    ...(inputs.required ? { requiredInputs: inputs.required } : {}),
  };
}

function functionSpec(types: TypeRegistry, f: FunctionDeclaration): Json {
  return {
    description: f.description,
    ...(Object.keys(f.inputs).length > 0 ? { inputs: { type: "object", ...types.object(f.inputs, "both") } } : {}),
    outputs: { type: "object", ...types.object(f.outputs, "both") },
  };
}

/**
 * An explicit provider carries its own key (sdk/src/plugin/configuration.ts
 * refuses one without): a generated SDK given `defaultInfo` would fill the
 * key from the program's environment before the plugin could refuse, and
 * buy under whichever account that holds. The default provider still reads
 * the environment (the plugin does, from `config.variables`).
 */
function withoutEnvironmentDefault(properties: Json, name: string): Json {
  const { defaultInfo: _dropped, ...rest } = properties[name] as Json;
  return { ...properties, [name]: rest };
}

/**
 * The package schema, as plain JSON, keys in a stable order.
 *
 * @example
 * ```ts
 * const schema = packageSchema(PACKAGE); // schema.resources["certreseller:index:Order"].inputProperties.domain
 * ```
 */
export function packageSchema(pkg: PackageDeclarations): Json {
  const types = new TypeRegistry();
  const config = types.object(pkg.config, "both");
  const resources = Object.fromEntries(pkg.resources.map((r) => [r.token, resourceSpec(types, r)]));
  const functions = Object.fromEntries(pkg.functions.map((f) => [f.token, functionSpec(types, f)]));
  const providerInputs = types.object(pkg.config, "inputs");
  return {
    name: PACKAGE_NAME,
    displayName: "Certificate Reseller",
    ...(pkg.version ? { version: pkg.version } : {}),
    description: pkg.description,
    keywords: ["pulumi", "tls", "certificates", "category/utility"],
    ...(pkg.homepage ? { homepage: pkg.homepage } : {}),
    ...(pkg.repository ? { repository: pkg.repository } : {}),
    license: "Apache-2.0",
    meta: { moduleFormat: "(.*)" },
    language: {
      nodejs: { packageName: "pulumi-certreseller", respectSchemaVersion: true },
      go: { importBasePath: "github.com/pulumi-certreseller/sdk/go/certreseller", generateResourceContainerTypes: true, respectSchemaVersion: true },
      python: { packageName: "pulumi_certreseller", respectSchemaVersion: true },
      // .NET: the package Pulumi.CertReseller, namespace Pulumi.CertReseller, as Pulumi providers are named.
      csharp: { namespaces: { [PACKAGE_NAME]: "CertReseller" }, respectSchemaVersion: true },
    },
    config: { variables: config.properties, ...(config.required ? { defaults: config.required } : {}) },
    provider: {
      description: "The certreseller provider: one Partner API account (API key and base URL) and where its purchase journal lives.",
      properties: types.object(pkg.config, "outputs").properties,
      inputProperties: withoutEnvironmentDefault(providerInputs.properties, "apiKey"),
    },
    types: Object.fromEntries([...types.types.entries()].sort(([a], [b]) => a.localeCompare(b))),
    resources,
    functions,
  };
}
