import type { HandlerName } from "./entry.js";

/**
 * The provider text of a resource: the `__provider` input the Node
 * dynamic-provider host loads (`requireFromString(text).handler()`, then
 * `configure` once per text and process; docs/pulumi-dynamic-providers.md,
 * "The serialized provider"). For `"order"`:
 *
 * ```js
 * exports.handler = () => require("pulumi-certreseller/provider").provider("order");
 * ```
 *
 * Why written here rather than serialized by `pulumi.dynamic.Resource`: the
 * text is stored twice per resource (inputs and outputs) in a checkpoint the
 * engine rewrites after every step, so its bytes are paid for at every step
 * of every `up` and `destroy`. Pulumi's closure serialization wraps even a
 * one-line function in about 400 bytes of scaffolding (575 characters for
 * the previous text, 586 for a no-op provider); this text is 82. It holds no
 * credential and captures nothing: the code is the installed package's,
 * resolved from the Pulumi project's own `node_modules`.
 *
 * If the package cannot be loaded there, or does not know the handler (a
 * state written by a later release), `handler()` throws and every call of
 * the host fails with the reason — no method can be skipped silently (a
 * skipped `delete` would drop a paid order from state uncancelled).
 *
 * @param handler the handler's name, a key of `HANDLER_MODULES` in entry.ts
 *   (e.g. `"order"` for `resources/order/handlers.js`). It is stored in
 *   state: keep it valid in every later release.
 *
 * @example
 * ```ts
 * super(Order.__pulumiType, name, { ...props, __provider: providerText("order") }, opts);
 * ```
 */
export function providerText(handler: HandlerName): string {
  return `exports.handler = () => require("pulumi-certreseller/provider").provider(${JSON.stringify(handler)});`;
}
