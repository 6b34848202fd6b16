/**
 * What the StackJournal's class adds in the program, which the provider
 * plugin does itself: its URN (the stack it settles) and the journal scope
 * (organisation), as an Order's class adds them.
 */
import { pluginJournalScope } from "../../journal/key.js";
import type { Presentation } from "../shared/presentation.js";

export const programInputs = <U, S>(urn: U, scope: S) => ({ journalKey: urn, journalScope: scope });

export const presentation: Presentation = {
  programInputs: (urn, inputs, { settings, warn }) => {
    const { scope, warning } = pluginJournalScope(settings.organization);
    if (warning) warn(warning);
    return { ...inputs, ...programInputs(urn, scope) };
  },
};
