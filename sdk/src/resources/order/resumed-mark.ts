/**
 * The purchase journal's resumed marks, from the Order's side: a create that
 * takes an order over without buying it (a resume from the journal, or an
 * adoption) writes one; the delete of a resource it replaces reads it and does
 * not cancel; the live resource's diff removes one its create never recorded;
 * the taker's own delete removes its own (see `ResumedMark` in journal.ts).
 */
import { journalEntryKey, openJournal, type PurchaseJournal, type ResumedMark } from "../../journal/index.js";
import type { ProviderContext } from "../../provider/index.js";
import type { OrderState } from "./state.js";

/**
 * The marks this process wrote, by order. A create of this process that
 * returned one had its result recorded by the engine before the engine asked
 * for any delete after it.
 */
const writtenHere = new Map<string, string>();

/**
 * Durably marks that this resource's create took `orderNo` over, before the
 * create returns (a delete the engine may then ask for reads it). Gives the
 * mark's time, for the state's `resumedAt`; `failure` says what a journal that
 * cannot be written means to the caller (nothing is taken over then).
 */
export async function markTakenOver(ctx: ProviderContext, journal: PurchaseJournal, key: string, orderNo: string, failure: (error: unknown) => Error): Promise<string> {
  const mark = await journal.markResumed(key, orderNo, ctx.now()).catch((error: unknown) => {
    throw failure(error);
  });
  writtenHere.set(orderNo, mark.resumedAt);
  return mark.resumedAt;
}

/** The key(s) a resource's marks are found under: its scoped key, and its URN alone (an earlier release). */
function keysOf(state: Partial<OrderState>): string[] {
  if (!state.journalKey) return [];
  return [...new Set([journalEntryKey({ journalKey: state.journalKey, journalScope: state.journalScope }), state.journalKey])];
}

/**
 * The mark a LATER create of this resource left for `orderNo` (its time is
 * not this state's own `resumedAt`): that create holds the order now, as this
 * resource's replacement. `here`: that create ran in this process, so the
 * engine recorded it before this delete. Read from the journal, so it holds
 * across processes; a journal that cannot be read falls back on this
 * process's own marks, and otherwise is a warning (it never holds up a refund).
 */
export async function takenOverByAnother(ctx: ProviderContext, orderNo: string, props: OrderState): Promise<{ mark: ResumedMark; journal: PurchaseJournal; here: boolean } | undefined> {
  const here = (mark: ResumedMark) => writtenHere.get(orderNo) === mark.resumedAt;
  try {
    const journal = openJournal(ctx.settings);
    for (const key of keysOf(props)) {
      const mark = await journal.resumedMark(key, orderNo);
      if (mark && mark.resumedAt !== props.resumedAt) return { mark, journal, here: here(mark) };
    }
  } catch (error) {
    const written = writtenHere.get(orderNo);
    if (written !== undefined && written !== props.resumedAt && props.journalKey) {
      return { mark: { key: props.journalKey, orderNo, resumedAt: written }, journal: openJournal(ctx.settings), here: true };
    }
    ctx.log(props.journalKey).warn(
      `the purchase journal could not be read (${(error as Error).message}), so whether a replacement of this resource resumed order ${orderNo} cannot be told; cancelling it as destroy asks`,
    );
  }
  return undefined;
}

/**
 * Removes this resource's marks for the order it holds: all of them (`own`:
 * its delete, the order goes with it), or those whose time is not its own
 * `resumedAt` (its diff: a diff is asked only of the live resource, so such a
 * mark was left by a create the engine never recorded, and would make this
 * resource's delete skip the cancel). Bookkeeping: never fails.
 */
export async function forgetMarks(ctx: ProviderContext, state: Partial<OrderState>, which: "own" | "stale"): Promise<void> {
  if (!state.orderNo || (which === "own" && state.resumedAt === undefined)) return;
  try {
    const journal = openJournal(ctx.settings);
    for (const key of keysOf(state)) {
      const mark = which === "stale" ? await journal.resumedMark(key, state.orderNo) : undefined;
      if (which === "own" || (mark && mark.resumedAt !== state.resumedAt)) await journal.clearResumedMark(key, state.orderNo);
    }
  } catch {
    // A mark left behind is read only by a delete, which then names it.
  }
}
