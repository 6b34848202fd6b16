/**
 * Before the `organization` setting, the plugin journaled every Order under
 * the organisation `organization`. On Pulumi Cloud the setting now gives
 * another scope, under which such an entry is not found: a purchase whose
 * answer was lost before the upgrade would be bought again. It may also be
 * another organisation's stack of the same name (what the scope now keeps
 * apart), so the Order's preview stops and a person decides.
 */
import { unscopedEntryKey } from "../journal/key.js";
import { openJournal } from "../journal/open.js";
import type { ProviderSettings } from "../provider/config.js";
import { unscopedEntryMessage } from "../resources/order/purchase-messages.js";

/**
 * Why an Order's check must stop: the journal holds an entry of this URN
 * and backend written under no organisation that a create could be about
 * to buy again (an intent whose answer was lost, or any entry of an Order
 * not yet in state; `inState`). Undefined when there is none, or when the
 * scope is the unscoped one. A journal that cannot be read stops an Order
 * not yet in state (its create could buy what the entry holds) and is
 * otherwise left to the create, which reads it again before buying.
 */
export async function unscopedEntryStop(settings: ProviderSettings, urn: string, scope: string, inState: boolean): Promise<string | undefined> {
  const key = unscopedEntryKey({ journalKey: urn, journalScope: scope });
  if (!key) return undefined;
  let journal;
  try {
    journal = openJournal(settings);
    const entry = await journal.read(key);
    if (!entry || (inState && entry.orderNo)) return undefined;
    return `certreseller: ${unscopedEntryMessage(journal, entry)}`;
  } catch (error) {
    if (inState) return undefined;
    return (
      `certreseller: the purchase journal ${journal?.location ?? "(its location could not be read)"} could not be read (${(error as Error).message}), so whether it holds a ` +
      "purchase of this Order made before the `organization` setting cannot be told; buying now could buy it a second time. " +
      "Make the journal readable (the `journalDir`/`journalUrl` settings name it) and run again. Nothing was bought."
    );
  }
}
