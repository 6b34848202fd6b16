import type * as pulumi from "@pulumi/pulumi";
import { resourceName, type ProviderContext } from "../../provider/index.js";
import { changedInputs } from "../shared/inputs.js";
import { ORDER_INPUTS, type InputRecord, type OrderInputs } from "./inputs.js";
import { forgetJournalEntry } from "./journal-entry.js";
import { forgetMarks } from "./resumed-mark.js";
import { renewalPlanFor } from "./renewal.js";
import type { OrderState } from "./state.js";

/**
 * What each input's declaration says a change does (`inputs.ts`): replace
 * for a new purchase, update in place for the verification method, nothing
 * for the rest (SAN order, `renewBeforeDays` outside its window, the quoted
 * price, the journal key). `olds` are the OLD OUTPUTS.
 */
export async function diff(ctx: ProviderContext, _id: string, olds: OrderState, news: OrderInputs): Promise<pulumi.dynamic.DiffResult> {
  const log = ctx.log(news.journalKey);
  await forgetJournalEntry(ctx, olds);
  await forgetMarks(ctx, olds, "stale");
  const old = olds as unknown as InputRecord;
  const next = news as unknown as InputRecord;
  const { replaces, updates } = changedInputs(ORDER_INPUTS, old, next);
  const plan = await renewalPlanFor(ctx, olds, news);
  const renewal = plan.kind === "renew" ? plan.reason : undefined;
  if (plan.kind === "renew") {
    log.warn(plan.reason);
    replaces.push(news.renewBeforeDays !== undefined ? "renewBeforeDays" : "renewBeforePercentage");
  }
  if (plan.kind === "none" && plan.warning) log.warn(plan.warning);
  if (replaces.length > 0 && news.adoptOrderNo !== undefined && news.adoptOrderNo === olds.orderNo) {
    // The replacement's create would adopt this same order again, and deleting
    // the old resource would then cancel the order the new one holds.
    throw new Error(
      `certreseller Order "${resourceName(news.journalKey)}": ${replaces.join(", ")} ${renewal ? "(renewal) " : ""}needs a new purchase, ` +
        `but adoptOrderNo still names the order this resource holds (${olds.orderNo}). Remove adoptOrderNo to buy a new order, ` +
        "or set it to the order to adopt instead.",
    );
  }
  if (replaces.length > 0) return { changes: true, replaces, deleteBeforeReplace: false };
  if (plan.kind === "reissue") {
    log.warn(plan.reason);
    return { changes: true };
  }
  return { changes: updates.length > 0 };
}
