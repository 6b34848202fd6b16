import type * as pulumi from "@pulumi/pulumi";

/**
 * Builds the provider object a resource class hands to
 * `pulumi.dynamic.Resource`. Pulumi serializes this object into state; its
 * methods therefore capture nothing but two strings and load the real code
 * with `require` at run time (shared/pulumi-dynamic-notes.md, "Serialization
 * of the provider object"): the serialized text stays around 3 KB, holds no
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
  const entry = "pulumi-certreseller/dist/provider/entry.js";
  return {
    async configure(req) {
      require(entry).configure(this, req.config);
    },
    async check(olds, news) {
      return require(entry).invoke(this, handlerModule, "check", [olds, news]);
    },
    async diff(id, olds, news) {
      return require(entry).invoke(this, handlerModule, "diff", [id, olds, news]);
    },
    async create(inputs) {
      return require(entry).invoke(this, handlerModule, "create", [inputs]);
    },
    async read(id, props) {
      return require(entry).invoke(this, handlerModule, "read", [id, props]);
    },
    async update(id, olds, news) {
      return require(entry).invoke(this, handlerModule, "update", [id, olds, news]);
    },
    async delete(id, props) {
      return require(entry).invoke(this, handlerModule, "delete", [id, props]);
    },
  };
}
