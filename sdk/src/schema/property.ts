/**
 * The shape every resource, component, function and configuration setting
 * declares its properties in — one entry per property, as a Terraform
 * provider schema does: its type, default, description, whether it is
 * required, secret, an input, an output, and what a change does. The Pulumi
 * package schema (`codegen/package-schema.ts`), the TypeScript argument and output
 * types (`codegen/typescript.ts`) and the reference tables in `docs/`
 * (`codegen/reference.ts`) are generated from these declarations by
 * `npm run generate`; a unit test fails when a committed copy is stale.
 *
 * Plain data only: this module loads without @pulumi/pulumi.
 */

/** A property's type, in the terms of Pulumi's package schema. */
export type SchemaType =
  | { readonly kind: "string" }
  | { readonly kind: "integer" }
  | { readonly kind: "number" }
  | { readonly kind: "boolean" }
  /** A string from a closed list (an input); the values are declared once, elsewhere, and passed in. */
  | { readonly kind: "enum"; readonly name: string; readonly values: readonly string[]; readonly description: string }
  | { readonly kind: "array"; readonly items: SchemaType }
  | { readonly kind: "map"; readonly values: SchemaType }
  /** A named object type (`CompanyInfo`), declared in its own table. */
  | { readonly kind: "object"; readonly name: string; readonly properties: PropertyTable; readonly description: string }
  /** Any JSON value (a value whose shape the service decides). */
  | { readonly kind: "any" };

/** What a changed input does on the next `up`. */
export type Change = "replace" | "update" | "none";

/** A failure of one input: the property and the rule it breaks. */
export interface InputFailure {
  property: string;
  reason: string;
}

/** What parsing one present value gave: its canonical form, or what is wrong with it. */
export type Parsed = { value: unknown; failures?: undefined } | { failures: InputFailure[]; value?: undefined };

/**
 * The rule of a property declared without `parse`: its value must have its
 * declared type (a program in plain JavaScript, or YAML, may send any). Kept
 * as given when it does. A secret's value is never quoted, only its kind.
 *
 * @example
 * parseByType(integer, 1.5, "renewBeforeDays").failures?.[0].reason // "renewBeforeDays must be a whole number, not 1.5"
 */
export function parseByType(type: SchemaType, value: unknown, property: string, secret = false): Parsed {
  const wrong = typeProblem(type, value);
  if (!wrong) return { value };
  const given = secret ? (Array.isArray(value) ? "a list" : value === null ? "null" : `a ${typeof value}`) : JSON.stringify(value);
  return { failures: [{ property, reason: `${property} must be ${wrong}, not ${given}` }] };
}

/**
 * One present value by its declaration: its `parse` rule, else its declared
 * type ({@link parseByType}). The shared check and the plugin's check of the
 * inputs only the presentation reads both use it.
 */
export function parseDeclared(declaration: PropertyDeclaration, value: unknown, property: string): Parsed {
  return declaration.parse ? declaration.parse(value, property) : parseByType(declaration.type, value, property, declaration.secret === true);
}

/** What `value` should have been, when it is not of `type`. */
function typeProblem(type: SchemaType, value: unknown): string | undefined {
  switch (type.kind) {
    case "string":
      return typeof value === "string" ? undefined : "a string";
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? undefined : "a number";
    case "integer":
      return Number.isInteger(value) ? undefined : "a whole number";
    case "boolean":
      return typeof value === "boolean" ? undefined : "true or false";
    case "enum":
      return type.values.includes(value as string) ? undefined : `one of ${type.values.join(", ")}`;
    case "array": {
      if (!Array.isArray(value)) return "a list";
      const item = value.map((v) => typeProblem(type.items, v)).find((p) => p !== undefined);
      return item && `a list whose every item is ${item}`;
    }
    case "map": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return "a map";
      const member = Object.values(value).map((v) => typeProblem(type.values, v)).find((p) => p !== undefined);
      return member && `a map whose every value is ${member}`;
    }
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value) ? undefined : "an object";
    case "any":
      return undefined;
  }
}

/** Inputs as a plain record (raw engine inputs, checked inputs or old outputs). */
export type InputRecord = Readonly<Record<string, unknown>>;

/**
 * A closed list of codes as the reference's type column shows it (pipes escaped
 * for the table), for a `typeNote`.
 *
 * @example
 * codes(["TXT", "CNAME"]) // '`"TXT"` \\| `"CNAME"`'
 */
export const codes = (values: readonly string[]): string => values.map((v) => `\`"${v}"\``).join(" \\| ");

/** One property of a resource, component, function, object type or the provider configuration. */
export interface PropertyDeclaration {
  /** What it is, for the schema, the TSDoc and the reference (Markdown). */
  readonly description: string;
  /** What the output says, where it differs from what the input asks for (e.g. the method the service applied). */
  readonly outputDescription?: string;
  readonly type: SchemaType;
  /**
   * The reference's "type" column, when the bare type says too little
   * (Markdown), e.g. "string: a domain name, a `*.` wildcard, or a public address".
   */
  readonly typeNote?: string;
  /** The reference's "default" column (Markdown); absent: no default. */
  readonly defaultNote?: string;
  /** The program must give it (an input), or it is always set (an output). */
  readonly required?: boolean;
  /** An optional input whose output is always set all the same (the provider or the class fills it in). */
  readonly alwaysSet?: boolean;
  /** Stored and shown as a secret. */
  readonly secret?: boolean;
  /** The program may set it (default true). */
  readonly input?: boolean;
  /** The resource reports it (default true: every input is also an output). */
  readonly output?: boolean;
  /** For an input: what a changed value does on the next `up`. */
  readonly change?: Change;
  /** The rest of the reference's "change" column, after the change word. */
  readonly changeNote?: string;
  /** An environment variable read when the setting is not given (provider configuration). */
  readonly env?: readonly string[];
  /**
   * Exists only in the TypeScript SDK (an object such as an `Order`, or a
   * callback): the package schema leaves it out.
   */
  readonly tsOnly?: boolean;
  /**
   * A TypeScript-only argument that fills this input (the Certificate's
   * `order` fills `orderNo`): the input is then optional in the TypeScript
   * arguments, required or not in the schema.
   */
  readonly filledBy?: string;
  /**
   * An input that changes only outputs computed from the stored ones (a
   * password of a bundle built from the stored key): the handlers never see
   * it, and a change re-presents, nothing is sent.
   */
  readonly presentation?: boolean;
  /**
   * Exists only for the provider plugin's programs: the TypeScript class
   * does itself what it asks for, so its arguments leave it out.
   */
  readonly pluginOnly?: boolean;
  /**
   * An output computed from the stored ones: the TypeScript class computes it
   * in the program when read and stores nothing of it; the provider plugin,
   * whose programs have no class, answers with it, so the engine keeps it in
   * their state. Implied by `reportedWhen`. The schema and the reference say
   * so after its description ({@link storageNote}).
   */
  readonly derived?: boolean;
  /**
   * An output the provider plugin reports only when the list input `input`
   * holds `value` (`byDefault`: the input's default holds it), so a program
   * that does not ask pays nothing for it in state; the TypeScript class
   * computes it whenever it is read.
   */
  readonly reportedWhen?: { readonly input: string; readonly value: string; readonly byDefault: boolean };
  /** The TypeScript type, where the schema type is wider than the SDK's own (e.g. an open enum). */
  readonly tsType?: string;
  /** The TypeScript type of the output, where it differs from the input's (e.g. an open enum). */
  readonly tsOutputType?: string;
  /**
   * For an input: checks and canonicalises a present value that is not the
   * preview placeholder (absent: any value is kept as given).
   */
  parse?(value: unknown, property: string): Parsed;
  /** For a required input: the reason given when it is absent (default "is required"). */
  readonly missing?: string;
  /**
   * For an input: the value when the program leaves it out. May read inputs
   * declared before it; answers the preview placeholder when those are unknown.
   */
  fallback?(values: InputRecord, unknown: ReadonlySet<string>): unknown;
  /** For an input: whether an old output and a new input are the same (default: equal JSON). */
  same?(old: unknown, next: unknown, olds: InputRecord, news: InputRecord): boolean;
  /**
   * For an input: the request member (camelCase) the checked value is sent
   * as, and members that go with it whenever it is sent; absent: the input
   * never reaches the service. An empty list is not sent.
   */
  readonly sentAs?: { readonly field: string; readonly with?: Readonly<Record<string, string>> };
}

/** Properties by name, in the order the reference lists them. */
export type PropertyTable = Readonly<Record<string, PropertyDeclaration>>;

/** A resource or component: its token, description and properties. */
export interface ResourceDeclaration {
  /** The Pulumi type token: `certreseller:index:<Name>`. */
  readonly token: string;
  /** The class name in the TypeScript SDK. */
  readonly name: string;
  readonly description: string;
  readonly properties: PropertyTable;
  /** What replacing it means, for a sentence "Changing it …" (default: "replaces the resource"). */
  readonly replacement?: string;
  /** A TypeScript program fragment using it, for the TSDoc of its arguments. */
  readonly example?: string;
  /** A component (several resources), not a custom resource. */
  readonly component?: boolean;
}

/**
 * A resource declaration, its token derived from its name and module:
 * `certreseller:<module>:<Name>`.
 *
 * @example
 * resource("Order", { description, properties }).token === "certreseller:index:Order"
 */
export function resource<const N extends string, const R extends Omit<ResourceDeclaration, "token" | "name">, const M extends string = "index">(
  name: N,
  rest: R,
  module?: M,
): R & { readonly token: `certreseller:${M}:${N}`; readonly name: N } {
  return { token: `certreseller:${module ?? "index"}:${name}` as `certreseller:${M}:${N}`, name, ...rest };
}

/** A function (an invoke): its token, description, arguments and result. */
export interface FunctionDeclaration {
  readonly token: string;
  readonly name: string;
  readonly description: string;
  readonly inputs: PropertyTable;
  readonly outputs: PropertyTable;
}

/**
 * A function declaration, its token derived from its name as a resource's is.
 *
 * @example
 * invoke("getAccount", { description, inputs: {}, outputs }).token === "certreseller:index:getAccount"
 */
export function invoke<const N extends string, const R extends Omit<FunctionDeclaration, "token" | "name">>(
  name: N,
  rest: R,
): R & { readonly token: `certreseller:index:${N}`; readonly name: N } {
  return { token: `certreseller:index:${name}`, name, ...rest };
}

// Builders, so tables read as the reference does.
export const string: SchemaType = { kind: "string" };
export const integer: SchemaType = { kind: "integer" };
export const number: SchemaType = { kind: "number" };
export const boolean: SchemaType = { kind: "boolean" };
export const anyValue: SchemaType = { kind: "any" };
export const listOf = (items: SchemaType): SchemaType => ({ kind: "array", items });
export const mapOf = (values: SchemaType): SchemaType => ({ kind: "map", values });
export const enumOf = (name: string, values: readonly string[], description: string): SchemaType => ({ kind: "enum", name, values, description });
export const objectType = (name: string, description: string, properties: PropertyTable): SchemaType => ({ kind: "object", name, description, properties });
/** An output-only property (`input: false`); `more` keeps its literal types (`required: true`, `secret: true`, ...). */
export const output = <const M extends Partial<PropertyDeclaration>>(description: string, type: SchemaType, more?: M) =>
  ({ description, type, ...(more as M), input: false }) as const;

/**
 * Whether the output always has a value once the resource exists: required,
 * declared so, or given a default by `check` (an Order input's `fallback`).
 */
export function alwaysSet(p: PropertyDeclaration): boolean {
  return p.required === true || p.alwaysSet === true || typeof p.fallback === "function";
}

/** What the output says, as a sentence of its own. @example outputText({ description: "x", type: string, outputDescription: "the method." }) === "The method." */
export function outputText(p: PropertyDeclaration): string {
  const text = p.outputDescription ?? p.description;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Whether an output is computed from the stored ones (`derived`, or implied by `reportedWhen`). */
export const isDerived = (p: PropertyDeclaration): boolean => p.derived === true || p.reportedWhen !== undefined;

/**
 * Where a derived output comes from in each front end (`derived`,
 * `reportedWhen`): the sentence the schema and the reference add to its description.
 *
 * @example
 * storageNote({ description: "x", type: string, derived: true })
 * // "The TypeScript class computes it in the program when read and stores nothing of it; the provider plugin (YAML, Go, Python, C#) always reports it, and the engine keeps it in state."
 */
export function storageNote(p: PropertyDeclaration): string | undefined {
  if (!isDerived(p)) return undefined;
  const when = p.reportedWhen;
  const reports = when === undefined ? "always reports it" : `reports it when \`${when.input}\` lists \`"${when.value}"\`${when.byDefault ? ", as it does when unset" : ""}`;
  return (
    "The TypeScript class computes it in the program when read and stores nothing of it; " +
    `the provider plugin (YAML, Go, Python, C#) ${reports}, and the engine keeps it in state${p.secret ? ", encrypted" : ""}.`
  );
}

/** Whether a property is an input (the default) / an output (the default). */
export const isInput = (p: PropertyDeclaration): boolean => p.input !== false;
export const isOutput = (p: PropertyDeclaration): boolean => p.output !== false;

/** The entries of a table, typed for iteration. */
export function entries(table: PropertyTable): [string, PropertyDeclaration][] {
  return Object.entries(table);
}

/** The inputs the handlers receive: every input but the TypeScript-only ones (an `Order` object) and the presentation ones. */
export function providerInputs(table: PropertyTable): [string, PropertyDeclaration][] {
  return entries(table).filter(([, p]) => isInput(p) && p.tsOnly !== true && p.presentation !== true);
}

/** Names of the inputs that change only presented outputs (see `presentation`). */
export function presentationInputs(table: PropertyTable): string[] {
  return entries(table)
    .filter(([, p]) => isInput(p) && p.presentation === true)
    .map(([name]) => name);
}

/**
 * Whether an old output and a new input of one property are the same, by its
 * `same` rule (default: equal JSON).
 *
 * @example
 * sameValue(ORDER_INPUTS.sanDomains, ["b", "a"], ["a", "b"], olds, news) === true
 */
export function sameValue(p: PropertyDeclaration, old: unknown, next: unknown, olds: InputRecord, news: InputRecord): boolean {
  return p.same ? p.same(old, next, olds, news) : JSON.stringify(old ?? null) === JSON.stringify(next ?? null);
}

/** Names of the inputs whose change has the given effect. @example changing(ORDER, "update") // ["verificationMethod"] */
export function changing(table: PropertyTable, change: Change): string[] {
  return entries(table)
    .filter(([, p]) => isInput(p) && p.change === change)
    .map(([name]) => name);
}

// Type helpers that hold a handwritten type to its declaration (compile-time checks).

/** `true` when A and B are the same union of names (else `false`). @example const ok: Same<"a" | "b", "b" | "a"> = true; */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Names of a table's inputs: every property not `input: false`. @example type A = InputNames<typeof CERTIFICATE.properties>; */
export type InputNames<T extends PropertyTable> = { [K in keyof T]-?: T[K] extends { readonly input: false } ? never : K }[keyof T] & string;

/** Names of a table's outputs: every property not `output: false`. @example type O = OutputNames<typeof CERTIFICATE.properties>; */
export type OutputNames<T extends PropertyTable> = { [K in keyof T]-?: T[K] extends { readonly output: false } ? never : K }[keyof T] & string;

/** Names of the properties declared `tsOnly: true`. @example type X = TsOnlyNames<typeof VALIDATION.properties>; // "order" */
export type TsOnlyNames<T extends PropertyTable> = { [K in keyof T]-?: T[K] extends { readonly tsOnly: true } ? K : never }[keyof T] & string;

/** Names declared `required: true`. @example type R = RequiredNames<typeof COMPANY_INFO_MEMBERS>; */
export type RequiredNames<T extends PropertyTable> = { [K in keyof T]-?: T[K] extends { readonly required: true } ? K : never }[keyof T] & string;

/** The keys of every member of a union (`keyof` of a union gives only the shared ones). @example type K = KeysOfUnion<{ a: 1 } | { b: 2 }>; // "a" | "b" */
export type KeysOfUnion<T> = T extends unknown ? keyof T : never;

/** Members of `C` whose type is `Of` (e.g. the `pulumi.Output`s of a resource class). @example type O = MembersOfType<Certificate, pulumi.Output<unknown>>; */
export type MembersOfType<C, Of> = { [K in keyof C]-?: C[K] extends Of ? K : never }[keyof C] & string;

/** Members of an object type that are always present and never null. @example type R = AlwaysSetKeys<{ a: string; b?: string; c: string | null }>; // "a" */
export type AlwaysSetKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : null extends T[K] ? never : K }[keyof T] & string;
