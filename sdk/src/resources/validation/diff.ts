import type * as pulumi from "@pulumi/pulumi";
import type { ProviderContext } from "../../provider/context.js";
import { changedInputs } from "../shared/inputs.js";
import { VALIDATION_PROPERTIES } from "./declaration.js";
import type { ValidationInputs } from "./inputs.js";
import type { ValidationState } from "./state.js";

/**
 * What each change does is declared (`declaration.ts`): a new order number
 * (or an unknown one) replaces; other domains, another method or request id
 * re-read the records in place. The Order's method and request id are
 * followed, not stored as inputs of our own: a value that differs from what
 * the service reported last means the Order switched method and the tokens
 * changed. `olds` are the OLD OUTPUTS.
 */
export async function diff(_ctx: ProviderContext, _id: string, olds: ValidationState, news: ValidationInputs): Promise<pulumi.dynamic.DiffResult> {
  const { replaces, updates } = changedInputs(VALIDATION_PROPERTIES, { ...olds }, { ...news });
  return { changes: replaces.length + updates.length > 0, replaces, deleteBeforeReplace: false };
}
