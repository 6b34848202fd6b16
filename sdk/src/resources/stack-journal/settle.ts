/**
 * The StackJournal's delete: the stack's paid orders whose create the engine
 * never recorded, refunded through the Order's own delete (the same
 * evidence, settlement and refund-window rules, the same resumed marks), and
 * what cannot be refunded named.
 */
import { describeError } from "../../client/describe-error.js";
import { openJournal, type JournalEntry, type PurchaseJournal } from "../../journal/index.js";
import { resourceName, type ProviderContext } from "../../provider/index.js";
import { remove as cancelOrder } from "../order/delete.js";
import type { OrderState } from "../order/state.js";
import { stackEntries, type StackEntry } from "./stack-entries.js";

/** The StackJournal's inputs and state: its URN and scope, as an Order's. */
export interface StackJournalState {
  journalKey: string;
  journalScope?: string;
  location?: string;
  /** `"program"`: a TypeScript program's end-of-program check names the orphans, so the check does not. */
  orphanReport?: string;
}

/**
 * The Order state a delete needs, from the journal entry its create left:
 * the resource and scope (its key), the account that bought it and when it
 * was paid (the refund window).
 */
export function stateFromEntry(entry: JournalEntry & { orderNo: string }, urn: string, scope: string | undefined): OrderState {
  return {
    orderNo: entry.orderNo,
    journalKey: urn,
    ...(scope ? { journalScope: scope } : {}),
    domain: entry.domain,
    productCode: entry.productCode,
    ...(entry.accountId !== undefined ? { accountId: entry.accountId } : {}),
    ...(entry.accountEndpoint !== undefined ? { accountEndpoint: entry.accountEndpoint } : {}),
    ...(entry.orderedAt !== undefined ? { paidAt: entry.orderedAt } : {}),
  } as OrderState;
}

/**
 * Refunds each entry under the stack's own key that holds an order number
 * and whose create never handed it to the engine; names the lost answers.
 * Entries whose create returned belong to the Order that holds them (its
 * delete cancels them, `retainOnDelete` keeps them). A journal that cannot
 * be read is a warning: nothing known to refund cannot hold up a destroy.
 * A refund that fails fails the delete, so the resource stays and the next
 * `destroy` tries again.
 */
export async function settleStack(ctx: ProviderContext, state: StackJournalState): Promise<void> {
  const log = ctx.log(state.journalKey);
  let journal: PurchaseJournal;
  let entries: StackEntry[];
  try {
    journal = openJournal(ctx.settings);
    entries = await stackEntries(journal, state.journalKey, state.journalScope);
  } catch (error) {
    log.warn(
      `could not read the purchase journal (${(error as Error).message}): a paid order whose create a killed \`up\` never recorded would not be refunded ` +
        "by this destroy. Run `certreseller journal` where the journal can be read: it lists every entry with its order's state.",
    );
    return;
  }
  const failures: string[] = [];
  for (const found of entries) {
    const { entry, urn, id } = found;
    const name = resourceName(urn);
    if (!found.own) {
      log.warn(
        `the purchase journal holds ${entry.orderNo ? `order ${entry.orderNo}` : "a purchase whose answer was lost"} for "${name}" of a stack of this name ` +
          `under another backend or organisation (${entry.key.slice(0, entry.key.lastIndexOf(";urn:") + 1) || "an earlier release's key"}); left alone. ` +
          `\`${journal.command("ls")}\` shows its state; \`${journal.command(`rm ${id}`)}\` removes it once settled.`,
      );
      continue;
    }
    if (entry.returnedAt !== undefined) continue;
    if (entry.orderNo === undefined) {
      log.warn(
        `the purchase journal holds a purchase of ${entry.domain} (${entry.productCode}) for "${name}" sent ${entry.intentAt} whose answer was lost: ` +
          "the account MAY have been charged, and without an order number it cannot be cancelled from here. Look for an order of those names in the " +
          `reseller account; cancel it there (or adopt it with \`adoptOrderNo\`), then remove the entry: \`${journal.command(`rm ${id}`)}\`.`,
      );
      continue;
    }
    log.info(`order ${entry.orderNo} for "${name}" was bought by a create the engine never recorded (bought ${entry.orderedAt}); refunding it`);
    try {
      await cancelOrder(ctx, entry.orderNo, stateFromEntry({ ...entry, orderNo: entry.orderNo }, urn, state.journalScope));
    } catch (error) {
      failures.push(`order ${entry.orderNo} for "${name}": ${describeError(error)}`);
    }
  }
  if (failures.length > 0) {
    throw new Error(
      `certreseller StackJournal: ${failures.length === 1 ? "a paid order" : `${failures.length} paid orders`} that no state holds could not be refunded: ` +
        `${failures.join("; ")}. The StackJournal stays in the stack: run \`pulumi destroy\` again once that is fixed.`,
    );
  }
}
