/**
 * The Order's side of the purchase journal: which inputs a purchase is made
 * of (what the journal digests), and forgetting an entry once the engine
 * holds the order.
 */
import { forgetOrder, journalEntryKey, openJournal, parseEntryKey, purchaseDigest, type PurchaseJournal } from "../../journal/index.js";
import { journalCommandLine } from "../../journal/command-line.js";
import type { ProviderContext } from "../../provider/index.js";
import { REPLACE_KEYS, type InputRecord, type OrderInputName } from "./inputs.js";
import type { OrderState } from "./state.js";

/**
 * The inputs that make up a purchase: every input whose change replaces the
 * Order (`inputs.ts`), less `adoptOrderNo` (it names an order to take over
 * instead of buying, it is not something bought). The purchase journal
 * digests these (`purchaseDigest`, `purchaseInputDigests`).
 */
export const PURCHASE_INPUTS: readonly OrderInputName[] = REPLACE_KEYS.filter((key) => key !== "adoptOrderNo");

/**
 * The purchase inputs of NORMALISED Order inputs, as the purchase journal
 * digests them. The term counts once, as `months`: normalisation fills
 * `months` from `years` and `check` holds the two to agree, and the
 * declaration of `years` already says `years: 2` and `months: 24` are the
 * same purchase.
 *
 * @example
 * purchaseDigest(inputs, purchaseInputsOf(inputs)) // what the journal records with an intent
 */
export function purchaseInputsOf(inputs: InputRecord): OrderInputName[] {
  return PURCHASE_INPUTS.filter((key) => !(key === "years" && typeof inputs.months === "number"));
}

/**
 * The engine has shown it holds the order (old outputs carry its number), so
 * the journal entries that protected its create are no longer needed (see
 * `forgetOrder`). Tidying is bookkeeping: a journal that cannot be read is a
 * warning, never a failed preview, refresh or destroy.
 */
export async function forgetJournalEntry(ctx: ProviderContext, state: Partial<OrderState>): Promise<void> {
  if (!state.journalKey || !state.orderNo) return;
  const log = ctx.log(state.journalKey);
  const identity = { journalKey: state.journalKey, journalScope: state.journalScope };
  try {
    const tidied = await forgetOrder(ctx.settings, identity, {
      orderNo: state.orderNo,
      paidAt: state.paidAt ?? undefined,
      purchaseDigest: purchaseDigest(state as unknown as InputRecord, purchaseInputsOf(state as unknown as InputRecord)),
    });
    for (const intent of tidied.closedIntents) {
      log.info(
        `closed the purchase journal's intent of ${intent.intentAt} (${intent.domain}, ${intent.productCode}): order ${state.orderNo} in state is that purchase ` +
          `(same resource, same purchase inputs, paid ${state.paidAt}); its order number had not reached the journal`,
      );
    }
    const journal = openJournal(ctx.settings);
    for (const entry of tidied.foreign) {
      const what = entry.orderNo ? `order ${entry.orderNo} (bought ${entry.orderedAt})` : `a purchase sent ${entry.intentAt} whose answer was lost (MAY have been charged)`;
      log.warn(
        `the purchase journal holds ${what} for this resource under another backend fingerprint (${parseEntryKey(entry.key).backend}, ` +
          `this run's is ${parseEntryKey(journalEntryKey(identity)).backend}), while this stack holds order ${state.orderNo}. ` +
          "Either it was bought by this stack through another spelling of the same backend (then it is a second paid order: cancel it with the reseller), " +
          `or it belongs to another backend's stack of the same name. Once settled, remove the entry (\`${journal.command(`rm ${entryId(journal, entry.key)}`)}\`).`,
      );
    }
  } catch (error) {
    log.warn(`could not tidy the purchase journal (${(error as Error).message}). ${leftEntry(ctx, identity, state.orderNo)}`);
  }
}

/** Which entry may be left behind for `orderNo`, and how to remove it once the journal is reachable. */
function leftEntry(ctx: ProviderContext, identity: { journalKey: string; journalScope?: string }, orderNo: string): string {
  try {
    const journal = openJournal(ctx.settings);
    const key = journalEntryKey(identity);
    return (
      `An entry for order ${orderNo} may be left at ${journal.fileFor(key)}: ` +
      `remove it with \`${journal.command(`rm ${entryId(journal, key)}`)}\` once the journal is reachable.`
    );
  } catch {
    return `An entry for order ${orderNo} may be left in the journal; \`${journalCommandLine("ls")}\` finds it once the journal is reachable.`;
  }
}

/** The id `certreseller journal rm` takes: the entry's name without `.json`. */
export function entryId(journal: PurchaseJournal, key: string): string {
  const location = journal.fileFor(key);
  return location.slice(location.lastIndexOf("/") + 1).replace(/\.json$/, "");
}

