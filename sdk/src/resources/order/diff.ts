import type * as pulumi from "@pulumi/pulumi";
import { forgetOrder } from "../../journal/index.js";
import { containsUnknown, resourceName, type ProviderContext } from "../../provider/index.js";
import { REPLACE_KEYS, sameInput, UPDATE_KEYS, type InputRecord } from "./inputs.js";
import type { OrderInputs, OrderState } from "./types.js";

/**
 * When the renewal window has opened: the reason, else undefined.
 *
 * @example
 * renewalReason(olds, { ...news, renewBeforeDays: 30 }, new Date("2027-11-01")) // "renewal due: order CERT1's term ends 2027-11-22, ..."
 */
export function renewalReason(olds: OrderState, news: OrderInputs, now: Date): string | undefined {
  const days = news.renewBeforeDays;
  if (typeof days !== "number" || containsUnknown(days) || !olds.termEndsAt) return undefined;
  const ends = Date.parse(olds.termEndsAt);
  if (Number.isNaN(ends)) return undefined;
  const opens = ends - days * 86_400_000;
  if (now.getTime() < opens) return undefined;
  return `renewal due: order ${olds.orderNo}'s term ends ${olds.termEndsAt.slice(0, 10)}, within renewBeforeDays=${days}; a new order will be bought (quoted ${news.quotedPrice ?? "price unknown"}); the old one is deleted once the new one is in place (cancelled if still inside its refund window, else released)`;
}

/**
 * What each input's declaration says a change does (`inputs.ts`): replace
 * for a new purchase, update in place for the verification method, nothing
 * for the rest (SAN order, `renewBeforeDays` outside its window, the quoted
 * price, the journal key). `olds` are the OLD OUTPUTS.
 */
export async function diff(ctx: ProviderContext, _id: string, olds: OrderState, news: OrderInputs): Promise<pulumi.dynamic.DiffResult> {
  const log = ctx.log(news.journalKey);
  await forgetJournalEntry(ctx, olds);
  const old = olds as unknown as InputRecord;
  const next = news as unknown as InputRecord;
  const changed = (key: (typeof REPLACE_KEYS)[number]) => containsUnknown(next[key]) || !sameInput(key, old[key], next[key], old, next);
  const replaces: string[] = REPLACE_KEYS.filter(changed);
  const renewal = renewalReason(olds, news, ctx.now());
  if (renewal) {
    log.warn(renewal);
    replaces.push("renewBeforeDays");
  }
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
  return { changes: UPDATE_KEYS.some(changed) };
}

/**
 * The engine has shown it holds the order (old outputs carry its number), so
 * the journal entry that protected the create is no longer needed.
 */
export async function forgetJournalEntry(ctx: ProviderContext, state: Partial<OrderState>): Promise<void> {
  if (!state.journalKey || !state.orderNo) return;
  try {
    await forgetOrder(ctx.settings, { journalKey: state.journalKey, journalScope: state.journalScope }, state.orderNo);
  } catch (error) {
    ctx.log(state.journalKey).warn(`could not tidy the purchase journal: ${(error as Error).message}`);
  }
}
