import type * as pulumi from "@pulumi/pulumi";

/**
 * Builds the provider object a resource class hands to
 * `pulumi.dynamic.Resource`. Pulumi serializes this object into state; its
 * methods therefore capture nothing but two strings and load the real code
 * with `require` at run time (shared/pulumi-dynamic-notes.md, "Serialization
 * of the provider object"): the serialized text stays under 1 KB, holds no
 * credential, and resolves `pulumi-certreseller` from the Pulumi project's
 * own `node_modules`.
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
  // Only two methods are written into the text. The dynamic-provider host
  // always calls `configure` once, before any other method, on the object it
  // deserialized (and caches that object per text); `attach` gives it the
  // other methods there. Seven method wrappers would make the text 3 KB, and
  // it is stored twice per resource in a checkpoint the engine rewrites after
  // every step: its size was most of the provider's cost in bench/engine.
  // `create` stays in the text: the type requires it, and if the package
  // cannot be loaded at all, create (not a silent default) reports why.
  return {
    async configure(req) {
      require("pulumi-certreseller/dist/provider/entry.js").attach(this, handlerModule, req.config);
    },
    create(inputs) {
      return require("pulumi-certreseller/dist/provider/entry.js").invoke(this, handlerModule, "create", [inputs]);
    },
  };
}
