/**
 * The functions as invokes of the provider plugin: the same reading as the
 * TypeScript functions (functions/), under this provider's account.
 *
 * Their modules are loaded at the first invoke: they also hold the program
 * side of the functions, which loads `@pulumi/pulumi` (about 650 modules,
 * 0.5 s of a plugin's start, docs/benchmarks.md), and the plugin process
 * the engine starts for every preview, up and destroy mostly serves no invoke.
 */
import type { GetProductsArgs } from "../functions/get-products.js";
import { GET_ACCOUNT, GET_PRODUCTS } from "../functions/declarations.js";
import type { ProviderContext } from "../provider/context.js";
import { toPlainJson } from "../provider/plain-json.js";
import type { Props } from "./wire.js";

/**
 * Runs the function `token` with `args`.
 *
 * @example
 * await runInvoke(ctx, "certreseller:index:getAccount", {}) // { user, account, apiKey, serverTime }
 */
export async function runInvoke(ctx: ProviderContext, token: string, args: Props): Promise<Props> {
  switch (token) {
    case GET_ACCOUNT.token: {
      const { toAccountResult } = await import("../functions/get-account.js");
      return toPlainJson(toAccountResult(await ctx.api().getUserData())) as Props;
    }
    case GET_PRODUCTS.token: {
      const { selectProducts } = await import("../functions/get-products.js");
      const filters = Object.fromEntries(Object.keys(GET_PRODUCTS.inputs).filter((k) => typeof args[k] === "string").map((k) => [k, args[k]]));
      return toPlainJson(await selectProducts(ctx.api(), filters as GetProductsArgs)) as Props;
    }
    default:
      throw new Error(`certreseller: unknown function ${JSON.stringify(token)} (this provider serves ${GET_ACCOUNT.token} and ${GET_PRODUCTS.token})`);
  }
}
