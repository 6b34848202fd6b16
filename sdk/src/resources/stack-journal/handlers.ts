/**
 * StackJournal provider (loaded lazily by the provider text; see
 * program/provider-text.ts). Path `resources/stack-journal/handlers.js` is
 * stored in state: keep it.
 */
import type { ResourceHandlers } from "../../provider/handlers.js";
import { openJournal } from "../../journal/index.js";
import { check } from "./check.js";
import { settleStack, type StackJournalState } from "./settle.js";

export const resourceType = "StackJournal";

export const handlers: ResourceHandlers<StackJournalState, StackJournalState> = {
  check,
  // Nothing it holds is compared: a moved journal is read where the settings say at delete.
  diff: async () => ({ changes: false }),
  create: async (ctx, inputs) => {
    const { location } = openJournal(ctx.settings);
    return { id: "stack-journal", outs: { ...inputs, location } };
  },
  read: async (_ctx, id, props) => ({ id, props }),
  update: async (_ctx, _id, olds, news) => ({ outs: { ...news, location: olds.location } }),
  delete: async (ctx, _id, props) => settleStack(ctx, props),
};
