import { createRequire } from "node:module";
import * as pulumi from "@pulumi/pulumi";
import type { HandlerName } from "../../src/provider/entry.js";

/** Serializes a provider object as `pulumi.dynamic.Resource` does (the texts of earlier releases). */
export async function serializeProvider(provider: pulumi.dynamic.ResourceProvider): Promise<string> {
  const fn = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
  return fn.text;
}

/**
 * The provider text a user's state gets for `handler`: `providerText` from
 * the built `dist` (run `ensureBuilt()` first), the code the installed
 * package runs, rather than the copy vitest transforms from `src`.
 */
export async function builtProviderText(handler: HandlerName): Promise<string> {
  const { providerText } = createRequire(__filename)("../../dist/program/provider-text.js") as typeof import("../../src/program/provider-text.js");
  return providerText(handler);
}
