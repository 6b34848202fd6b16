import type * as pulumi from "@pulumi/pulumi";
import type { ConfigSource } from "./config.js";

/** The provider object as it is written into state: data plus one method. */
interface LazyProviderObject {
  /** Path of the handler module relative to `dist/`; stored in state. */
  readonly handlerModule: string;
  [method: string]: unknown;
}

// The only function written into state, the same text for every resource
// type: the handler module travels as data on the object. The dynamic-provider
// host always calls `configure` once, before any other method, on the object
// it deserialized (and caches that object per text); `attach` gives it
// check/diff/create/read/update/delete there. If the package cannot be loaded
// (not installed in the project that runs `destroy`, say), every method then
// fails with that reason: without methods the host would skip them silently,
// and a skipped `delete` would drop a paid order from state uncancelled.
// No comments inside the body: Function.toString() would put them in state.
// A function expression, not a declaration: the text of a named function
// declaration also captures the function itself (`with({ configure: ... })`).
const configure = async function (this: LazyProviderObject, req: { config?: ConfigSource }): Promise<void> {
  try {
    require("pulumi-certreseller/dist/provider/entry.js").attach(this, this.handlerModule, req.config);
  } catch (error) {
    this.check = this.diff = this.create = this.read = this.update = this.delete = () => Promise.reject(error);
    throw error;
  }
};

/**
 * Builds the provider object a resource class hands to
 * `pulumi.dynamic.Resource`. Pulumi serializes this object into state (twice
 * per resource, in a checkpoint the engine rewrites after every step, so its
 * size is most of what the provider costs the engine — see bench/engine). It
 * holds the handler module path and one method, `configure`, which captures
 * nothing and loads the real code with `require` at run time
 * (docs/pulumi-dynamic-providers.md, "The serialized provider"):
 * the text is about 600 bytes, holds no credential, and resolves
 * `pulumi-certreseller` from the Pulumi project's own `node_modules`.
 *
 * `create`, which the `ResourceProvider` type requires, is attached by
 * `configure` in the provider process like the other methods (entry.ts
 * `attach`).
 *
 * Create ONE per resource type, at module level, so the text is cached.
 *
 * @param handlerModule path of the handler module relative to `dist/`,
 *   e.g. `"resources/order/handlers.js"`. It is stored in state: keep it
 *   valid in every later release.
 *
 * @example
 * ```ts
 * const orderProvider = lazyProvider("resources/order/handlers.js");
 * super(orderProvider, name, props, opts, "certreseller", "Order");
 * ```
 */
export function lazyProvider(handlerModule: string): pulumi.dynamic.ResourceProvider {
  const provider: LazyProviderObject = { handlerModule, configure };
  return provider as unknown as pulumi.dynamic.ResourceProvider;
}
