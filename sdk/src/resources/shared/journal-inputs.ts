/**
 * The inputs a resource that reads the purchase journal adds in the program
 * (the Order, the StackJournal): its URN is the journal's key, the
 * organisation its scope. The class sends them; the provider plugin adds them
 * itself from the request's URN and its `organization` setting.
 */
import { pluginJournalScope } from "../../journal/key.js";
import type { Presentation } from "./presentation.js";

/** The inputs the class adds: the URN as `journalKey`, `org=<organisation>` as `journalScope`. */
export const journalInputs = <U, S>(urn: U, scope: S) => ({ journalKey: urn, journalScope: scope });

/** The same, added by the provider plugin (the engine tells a plugin no organisation: the setting stands in for it). */
export const pluginJournalInputs: NonNullable<Presentation["programInputs"]> = (urn, inputs, { settings, warn }) => {
  const { scope, warning } = pluginJournalScope(settings.organization);
  if (warning) warn(warning);
  return { ...inputs, ...journalInputs(urn, scope) };
};
