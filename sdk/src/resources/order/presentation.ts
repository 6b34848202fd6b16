/**
 * The Order's presentation: the inputs the program adds (the journal key and
 * scope) and the full `price` computed from its stored form, for the class
 * and the provider plugin alike.
 */
import { journalInputs, pluginJournalInputs } from "../shared/journal-inputs.js";
import type { Presentation } from "../shared/presentation.js";
import { expandPrice, storedPrice, type OrderPriceState } from "../../money/stored-price.js";

/** The inputs the program adds: its URN is the purchase journal's key, the organisation its scope. */
export const programInputs = journalInputs;

export const presentation: Presentation = {
  programInputs: pluginJournalInputs,
  present: (stored) => (stored.price === undefined ? stored : { ...stored, price: expandPrice(stored.price as OrderPriceState) }),
  stored: (outputs) => (outputs.price === undefined || outputs.price === null ? outputs : { ...outputs, price: storedPrice(outputs.price as OrderPriceState) }),
};
