import type * as pulumi from "@pulumi/pulumi";
import type { ProviderContext } from "../provider/context.js";
import { ephemeralJournalWarning } from "./ci.js";

/**
 * Wraps the Order's `check` so that a preview (and `up`) in CI about to buy
 * an order with a journal the runner throws away says so, once per provider
 * process (see {@link ephemeralJournalWarning}). A purchase is about to be
 * made when the resource is new (no old inputs) and adopts nothing. Never
 * fails the check.
 */
export function warnBeforeBuyingInCi<I, O>(
  check: (ctx: ProviderContext, olds: I, news: I) => Promise<pulumi.dynamic.CheckResult<O>>,
): (ctx: ProviderContext, olds: I, news: I) => Promise<pulumi.dynamic.CheckResult<O>> {
  return async (ctx, olds, news) => {
    const result = await check(ctx, olds, news);
    try {
      const raw = (news ?? {}) as Record<string, unknown>;
      const creating = olds === undefined || olds === null || Object.keys(olds as object).length === 0;
      if (creating && raw.adoptOrderNo === undefined) {
        const warning = ephemeralJournalWarning(ctx.settings);
        if (warning) ctx.log(typeof raw.journalKey === "string" ? raw.journalKey : undefined).warn(warning);
      }
    } catch {
      // Advice only.
    }
    return result;
  };
}
