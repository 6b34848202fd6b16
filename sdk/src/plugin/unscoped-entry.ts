/**
 * Before the `organization` setting, the plugin journaled every Order under
 * the organisation `organization`. On Pulumi Cloud the setting now gives
 * another scope, under which such an entry is not found: a purchase whose
 * answer was lost before the upgrade would be bought again. It may also be
 * another organisation's stack of the same name (what the scope now keeps
 * apart), so the Order's preview stops and a person decides.
 */
import { journalEntryKey, programScope } from "../journal/key.js";
import { openJournal } from "../journal/open.js";
import type { ProviderSettings } from "../provider/config.js";
import { entryId } from "../resources/order/journal-entry.js";

const UNSCOPED = programScope(undefined);

/**
 * Why an Order's check must stop: the journal holds an entry of this URN
 * and backend written under no organisation that a create could be about
 * to buy again (an intent whose answer was lost, or any entry of an Order
 * not yet in state; `inState`). Undefined when there is none, when the scope
 * is the unscoped one, or when the journal cannot be read (create reads it
 * again before buying).
 */
export async function unscopedEntryStop(settings: ProviderSettings, urn: string, scope: string, inState: boolean): Promise<string | undefined> {
  if (scope === UNSCOPED) return undefined;
  const key = journalEntryKey({ journalKey: urn, journalScope: UNSCOPED });
  try {
    const journal = openJournal(settings);
    const entry = await journal.read(key);
    if (!entry || (inState && entry.orderNo)) return undefined;
    const what = entry.orderNo
      ? `order ${entry.orderNo} (${entry.domain}, ${entry.productCode}, bought ${entry.orderedAt})`
      : `a CreateOrder for ${entry.domain} (${entry.productCode}) sent ${entry.intentAt} whose answer was lost (that account MAY have been charged)`;
    return (
      `certreseller: the purchase journal holds ${what} for this Order's URN, written under no organisation ` +
      `(by a release of the plugin before the \`organization\` setting), so it may be this stack's or another organisation's stack of the same name. ` +
      `Buying now could buy it a second time. If the order is this stack's, declare \`adoptOrderNo\`${entry.orderNo ? `: "${entry.orderNo}"` : " with it once found in the account"}; ` +
      `when it is settled (adopted, cancelled, or another stack's), remove the entry: \`${journal.command(`rm ${entryId(journal, key)}`)}\`. ` +
      `\`${journal.command("ls")}\` shows its state at the service. Nothing was bought.`
    );
  } catch {
    return undefined;
  }
}
