/**
 * What the StackJournal's class adds in the program, which the provider
 * plugin does itself: its URN (the stack it settles) and the journal scope
 * (organisation), as an Order's class adds them.
 */
import { journalInputs, pluginJournalInputs } from "../shared/journal-inputs.js";
import type { Presentation } from "../shared/presentation.js";

export const programInputs = journalInputs;

export const presentation: Presentation = { programInputs: pluginJournalInputs };
