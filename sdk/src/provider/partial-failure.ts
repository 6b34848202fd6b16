import { toPlainJson, type Json } from "./plain-json.js";

/**
 * Thrown from `create` or `update` when something external already exists
 * (a paid order) but a later step failed. The engine reads `id`, `properties`
 * and `reasons` off the error, keeps the resource in state with init errors,
 * and the next `up` calls `diff` then `update` — never `create` again — so the
 * purchase is resumed instead of repeated (docs/pulumi-dynamic-providers.md,
 * "Partial failure and interrupted creates").
 */
export class PartialFailureError extends Error {
  override readonly name = "PartialFailureError";
  /** The resource id the engine keeps (the order number). */
  readonly id: string;
  /** The outputs the engine keeps; always includes `__provider`. */
  readonly properties: { [key: string]: Json };
  /** Human-readable reasons, shown by the engine as init errors. */
  readonly reasons: string[];

  constructor(id: string, properties: { [key: string]: Json }, reasons: string[], options?: { cause?: unknown }) {
    super(reasons.join("; "), options);
    this.id = id;
    this.properties = properties;
    this.reasons = reasons;
  }
}

/**
 * Builds a {@link PartialFailureError}. `inputs` are the inputs the method got:
 * their `__provider` must be carried into the kept properties, or a later
 * delete cannot load the provider ("code must be a string, not undefined").
 *
 * @example
 * ```ts
 * throw partialFailure({ id: orderNo, inputs, outputs, reasons: [`ApplySign failed: ${err.message}`], cause: err });
 * ```
 */
export function partialFailure(args: {
  id: string;
  inputs: { __provider?: unknown };
  outputs: object;
  reasons: string[];
  cause?: unknown;
}): PartialFailureError {
  const properties = toPlainJson({ ...args.outputs, __provider: args.inputs.__provider }) as { [key: string]: Json };
  return new PartialFailureError(args.id, properties, args.reasons, { cause: args.cause });
}
