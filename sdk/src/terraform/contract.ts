/**
 * What the Terraform front end's two halves agree on: the wire half
 * (`server.ts`, `handshake.ts`, `codec.ts`: go-plugin's handshake, mTLS,
 * gRPC, tfplugin6 messages and msgpack values) and the provider half
 * (`provider.ts`, `schema.ts`, and the resource mapping: the registry's
 * declarations and handlers behind Terraform's calls). The wire half decodes
 * every DynamicValue into a {@link TfValue} with the schema's types, calls a
 * {@link TerraformProvider}, and encodes what it answers.
 */

/** A value Terraform does not know yet (msgpack extension 0, or 12: a refined unknown). */
export const UNKNOWN: unique symbol = Symbol.for("certreseller.terraform.unknown");
export type Unknown = typeof UNKNOWN;

/** A decoded Terraform value: lists, sets and tuples are arrays; maps and objects are plain objects (snake_case keys, as in HCL). */
export type TfValue = null | Unknown | string | number | boolean | readonly TfValue[] | { readonly [key: string]: TfValue };
export type TfObject = { readonly [key: string]: TfValue };

/** A cty type, in the JSON form Terraform's schema `type` bytes carry (`"string"`, `["list","string"]`, `["object",{...}]`). */
export type TfType =
  | "string"
  | "number"
  | "bool"
  | "dynamic"
  | readonly ["list" | "set" | "map", TfType]
  | readonly ["object", { readonly [attribute: string]: TfType }];

export interface TfAttribute {
  readonly type: TfType;
  readonly description: string;
  readonly required?: boolean;
  readonly optional?: boolean;
  readonly computed?: boolean;
  readonly sensitive?: boolean;
  readonly deprecated?: boolean;
}

/** A schema block: the provider's configuration, a resource or a data source (attributes only: no nested blocks). */
export interface TfBlock {
  readonly version: number;
  readonly description: string;
  readonly attributes: { readonly [name: string]: TfAttribute };
}

export interface TfSchema {
  readonly provider: TfBlock;
  readonly resources: { readonly [typeName: string]: TfBlock };
  readonly dataSources: { readonly [typeName: string]: TfBlock };
}

/** An attribute path as Terraform shows it: attribute names, and list indexes or map keys. */
export type TfPath = readonly (string | number)[];

export interface Diagnostic {
  readonly severity: "error" | "warning";
  readonly summary: string;
  readonly detail?: string;
  readonly attribute?: TfPath;
}

export interface PlanRequest {
  readonly typeName: string;
  /** null: a create. */
  readonly priorState: TfObject | null;
  /** null: a destroy. */
  readonly proposedNewState: TfObject | null;
  readonly config: TfObject | null;
  readonly priorPrivate?: Uint8Array;
}

export interface PlanResponse {
  readonly plannedState: TfObject | null;
  readonly requiresReplace?: readonly TfPath[];
  readonly plannedPrivate?: Uint8Array;
  readonly diagnostics?: readonly Diagnostic[];
}

export interface ApplyRequest {
  readonly typeName: string;
  readonly priorState: TfObject | null;
  /** null: a destroy. */
  readonly plannedState: TfObject | null;
  readonly config: TfObject | null;
  readonly plannedPrivate?: Uint8Array;
}

export interface StateResponse {
  /** null: the object is gone (a read: removed from state; an apply: destroyed). */
  readonly newState: TfObject | null;
  readonly private?: Uint8Array;
  readonly diagnostics?: readonly Diagnostic[];
}

/** Terraform's calls, with values decoded; the wire half answers UNIMPLEMENTED to the rest. */
export interface TerraformProvider {
  schema(): TfSchema;
  validateProviderConfig(config: TfObject): Promise<readonly Diagnostic[]>;
  configure(config: TfObject, terraformVersion: string): Promise<readonly Diagnostic[]>;
  validateResourceConfig(typeName: string, config: TfObject): Promise<readonly Diagnostic[]>;
  validateDataSourceConfig(typeName: string, config: TfObject): Promise<readonly Diagnostic[]>;
  /** State written by an earlier schema version, as JSON: the same state in this version's shape. */
  upgradeResourceState(typeName: string, version: number, state: TfObject): Promise<{ state: TfObject; diagnostics?: readonly Diagnostic[] }>;
  planResourceChange(request: PlanRequest): Promise<PlanResponse>;
  applyResourceChange(request: ApplyRequest): Promise<StateResponse>;
  readResource(typeName: string, currentState: TfObject, priv?: Uint8Array): Promise<StateResponse>;
  importResourceState(typeName: string, id: string): Promise<{ imported: readonly { typeName: string; state: TfObject; private?: Uint8Array }[]; diagnostics?: readonly Diagnostic[] }>;
  readDataSource(typeName: string, config: TfObject): Promise<{ state: TfObject | null; diagnostics?: readonly Diagnostic[] }>;
  /**
   * StopProvider (Ctrl-C, SIGTERM): no new purchase starts; calls in flight
   * finish and are recorded. Resolves with an error text, or undefined.
   */
  stop(): Promise<string | undefined>;
}
