/**
 * The Order's presentation: the inputs the program adds (the journal key and
 * scope) and the full `price` computed from its stored form, for the class
 * and the provider plugin alike.
 */
import { pluginJournalScope } from "../../journal/key.js";
import type { Presentation } from "../shared/presentation.js";
import { expandPrice, storedPrice, type OrderPriceState } from "../../money/stored-price.js";

/** The inputs the program adds: its URN is the purchase journal's key, the organisation its scope. */
export const programInputs = <U, S>(urn: U, scope: S) => ({ journalKey: urn, journalScope: scope });

export const presentation: Presentation = {
  // The engine tells a plugin no organisation: the `organization` setting (required on Pulumi Cloud) stands in for it.
  programInputs: (urn, inputs, { settings, warn }) => {
    const { scope, warning } = pluginJournalScope(settings.organization);
    if (warning) warn(warning);
    return { ...inputs, ...programInputs(urn, scope) };
  },
  present: (stored) => (stored.price === undefined ? stored : { ...stored, price: expandPrice(stored.price as OrderPriceState) }),
  stored: (outputs) => (outputs.price === undefined || outputs.price === null ? outputs : { ...outputs, price: storedPrice(outputs.price as OrderPriceState) }),
};
