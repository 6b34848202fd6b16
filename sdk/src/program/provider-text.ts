import type { ResourceHandlerName } from "../provider/entry.js";

/**
 * The provider text of a resource: the `__provider` input the Node
 * dynamic-provider host loads (`requireFromString(text).handler()`, then
 * `configure` once per text and process; docs/pulumi-dynamic-providers.md,
 * "The serialized provider"). It captures nothing and holds no credential:
 * the code is the installed package's, resolved from the Pulumi project's
 * own `node_modules`. Written here rather than serialized by
 * `pulumi.dynamic.Resource` because the checkpoint, rewritten after every
 * step, holds it twice per resource, and a serialized closure is several
 * times longer (sizes: docs/benchmarks.md).
 *
 * A package that cannot be loaded, or does not know the handler (state
 * written by a later release), makes every call fail with the reason: no
 * method is skipped silently (a skipped `delete` would drop a paid order
 * from state uncancelled).
 *
 * @param handler a key of `HANDLER_MODULES` (entry.ts); it is stored in
 *   state, so it stays valid in every later release.
 *
 * @example
 * providerText("order")
 * // 'exports.handler = () => require("pulumi-certreseller/provider").provider("order");'
 */
export function providerText(handler: ResourceHandlerName): string {
  return `exports.handler = () => require("pulumi-certreseller/provider").provider(${JSON.stringify(handler)});`;
}
