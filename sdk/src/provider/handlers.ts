import type * as pulumi from "@pulumi/pulumi";
import type { ProviderContext } from "./context.js";

/**
 * The implementation of one resource type, loaded lazily by the provider
 * entry (`entry.ts`). Same contract as `pulumi.dynamic.ResourceProvider`, with
 * a {@link ProviderContext} first. Remember: `olds` in diff/update are the OLD
 * OUTPUTS, and every returned value must be plain JSON (`toPlainJson`).
 */
export interface ResourceHandlers<Inputs = any, Outputs = any> {
  check?(ctx: ProviderContext, olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult<Inputs>>;
  diff?(ctx: ProviderContext, id: string, olds: Outputs, news: Inputs): Promise<pulumi.dynamic.DiffResult>;
  create(ctx: ProviderContext, inputs: Inputs): Promise<pulumi.dynamic.CreateResult<Outputs>>;
  read?(ctx: ProviderContext, id: string, props: Outputs): Promise<pulumi.dynamic.ReadResult<Outputs>>;
  update?(ctx: ProviderContext, id: string, olds: Outputs, news: Inputs): Promise<pulumi.dynamic.UpdateResult<Outputs>>;
  delete?(ctx: ProviderContext, id: string, props: Outputs): Promise<void>;
  /**
   * `pulumi import` through the provider plugin: what the service shows of
   * `id` becomes the resource's inputs and state, nothing bought. `check`
   * runs the resource's own check on the inputs found (as the program would
   * send them). Absent: the resource cannot be imported.
   */
  import?(ctx: ProviderContext, id: string, check: ImportCheck): Promise<Imported>;
}

/** The resource's `check`, as the plugin runs it on imported inputs (the program's inputs added, failures thrown). */
export type ImportCheck = (inputs: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** What an import reads: the resource id, its state, and the inputs a program declares it with. */
export interface Imported {
  id: string;
  outputs: Record<string, unknown>;
  inputs: Record<string, unknown>;
}

/** An import that cannot be done; the message says why and what to do instead. */
export class ImportError extends Error {
  override readonly name = "ImportError";
}

/**
 * What a handler module (the file behind the short name a resource class
 * passes to `providerText`, see HANDLER_MODULES in entry.ts)
 * exports.
 *
 * @example
 * ```ts
 * export const resourceType = "Order";
 * export const handlers: ResourceHandlers<OrderInputs, OrderOutputs> = { check, diff, create, read, update, delete: remove };
 * ```
 */
export interface HandlerModule {
  readonly resourceType: string;
  readonly handlers: ResourceHandlers;
}

/** The provider methods, in the order the engine may call them. */
export type ProviderMethod = "check" | "diff" | "create" | "read" | "update" | "delete" | "import";
