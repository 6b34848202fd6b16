import { createRequire } from "node:module";
import * as pulumi from "@pulumi/pulumi";
import type { HandlerName } from "../../src/provider/entry.js";

/** Serializes a provider object as `pulumi.dynamic.Resource` does. */
export async function serializeProvider(provider: pulumi.dynamic.ResourceProvider): Promise<string> {
  const fn = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
  return fn.text;
}

/**
 * The provider text a user's state gets for `handler`: `lazyProvider` from the
 * built `dist` (run `ensureBuilt()` first), loaded by Node itself — the
 * function's text goes into state as tsc printed it, and the copy vitest
 * transforms from `src` prints differently.
 */
export async function builtProviderText(handler: HandlerName): Promise<string> {
  const { lazyProvider } = createRequire(__filename)("../../dist/provider/lazy-provider.js") as typeof import("../../src/provider/lazy-provider.js");
  return serializeProvider(lazyProvider(handler));
}
