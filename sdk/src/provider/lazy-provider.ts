import type * as pulumi from "@pulumi/pulumi";
import type { HandlerName } from "./entry.js";

/** The provider object as it is written into state: data plus one function under four names. */
interface LazyProviderObject {
  /** The handler's name (entry.ts `HANDLER_MODULES`); stored in state. */
  readonly h: HandlerName;
  [method: string]: unknown;
}

// The only function written into state, the same text for every resource
// type: the handler travels as data on the object (`h`). The dynamic-provider
// host always calls `configure` once, before any other method, on the object
// it deserialized (and caches that object per text); `setup` in entry.ts
// (the package's root provider.js) replaces the object's methods with
// check/diff/create/read/update/delete there. The object also carries this
// function as `create`, `update` and `delete`: if the package cannot be
// loaded (not installed in the project that runs `destroy`, say), `configure`
// fails and they stay, and each call fails again with that reason — a
// method the object lacked would be skipped silently by the host, and a
// skipped `delete` would drop a paid order from state uncancelled. Without
// check/diff/read the host passes inputs and state through unchanged
// (docs/pulumi-dynamic-providers.md, "The serialized provider").
// No comments inside the body: Function.toString() would put them in state.
// A function expression, not a declaration: the text of a named function
// declaration also captures the function itself (`with({ configure: ... })`).
// On one line: tsc then prints the body on one line too (fewer bytes in state).
const configure = async function (this: LazyProviderObject, req: unknown): Promise<void> { require("pulumi-certreseller/provider")(this, req); };

/**
 * Builds the provider object a resource class hands to
 * `pulumi.dynamic.Resource`. Pulumi serializes this object into state (twice
 * per resource, in a checkpoint the engine rewrites after every step, so its
 * size is much of what the provider costs the engine — see bench/engine). It
 * holds the handler's name and one function, stored as `configure`, `create`,
 * `update` and `delete`, which captures nothing and loads the real code with
 * `require("pulumi-certreseller/provider")` at run time
 * (docs/pulumi-dynamic-providers.md, "The serialized provider"): the text is
 * about 575 characters (about 620 bytes per copy in the checkpoint's JSON; a
 * no-op provider's is 586), holds no credential, and resolves
 * `pulumi-certreseller` from the Pulumi project's own `node_modules`.
 *
 * In the provider process `configure` gives the object its real
 * check/diff/create/read/update/delete (entry.ts `setup`); if the package
 * cannot be loaded there, `configure`, `create`, `update` and `delete` fail
 * with the reason.
 *
 * Create ONE per resource type, at module level, so the text is cached.
 *
 * @param handler the handler's name, a key of `HANDLER_MODULES` in entry.ts
 *   (e.g. `"order"` for `resources/order/handlers.js`). It is stored in
 *   state: keep it valid in every later release.
 *
 * @example
 * ```ts
 * const orderProvider = lazyProvider("order");
 * super(orderProvider, name, props, opts, "certreseller", "Order");
 * ```
 */
export function lazyProvider(handler: HandlerName): pulumi.dynamic.ResourceProvider {
  const provider: LazyProviderObject = { h: handler, configure, create: configure, update: configure, delete: configure };
  return provider as unknown as pulumi.dynamic.ResourceProvider;
}
