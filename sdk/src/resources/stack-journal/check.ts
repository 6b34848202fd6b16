/**
 * The StackJournal's preview: the stack's entries that hold or may hold a
 * paid order, named while no Order of this run declares their resource.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isUnknown, resourceName, type ProviderContext } from "../../provider/index.js";
import { openJournal } from "../../journal/index.js";
import { isDeclaredOrder } from "../shared/declared-orders.js";
import type { StackJournalState } from "./settle.js";
import { stackEntries } from "./stack-entries.js";

/**
 * Warns about each own entry whose Order this process has not checked. In a
 * TypeScript program the end-of-program check says it (`orphanReport:
 * "program"`); through the plugin, this is the only place. Never fails: the
 * preview of a stack must not stop on a journal it cannot read.
 */
export async function check(ctx: ProviderContext, _olds: unknown, news: StackJournalState): Promise<pulumi.dynamic.CheckResult<StackJournalState>> {
  const inputs = news;
  if (news.orphanReport === "program" || typeof news.journalKey !== "string" || isUnknown(news.journalKey)) return { inputs };
  const log = ctx.log(news.journalKey);
  try {
    const journal = openJournal(ctx.settings);
    for (const { entry, urn, id, own } of await stackEntries(journal, news.journalKey, news.journalScope)) {
      if (!own || isDeclaredOrder(urn)) continue;
      if (entry.orderNo !== undefined && entry.returnedAt !== undefined) continue;
      const what = entry.orderNo
        ? `holds PAID order ${entry.orderNo} (${entry.domain}, ${entry.productCode}, bought ${entry.orderedAt}) whose create the engine never recorded`
        : `holds a purchase of ${entry.domain} (${entry.productCode}) sent ${entry.intentAt} whose answer was lost (your account MAY have been charged)`;
      log.warn(
        `the purchase journal ${what} for "${resourceName(urn)}". If the program still declares that Order, its line says what \`up\` does with it; if not, ` +
          `keep it with \`adoptOrderNo${entry.orderNo ? `: "${entry.orderNo}"` : ""}\` on an Order, or ${entry.orderNo ? "`pulumi destroy` refunds it" : "cancel it with the reseller"} ` +
          `(\`${journal.command(`rm ${id}`)}\` removes the entry once settled; \`${journal.command("ls")}\` lists every entry with its state).`,
      );
    }
  } catch (error) {
    log.warn(`could not read the purchase journal (${(error as Error).message}); paid orders a killed \`up\` may have left are not listed`);
  }
  return { inputs };
}
