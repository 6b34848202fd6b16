/**
 * Rfc2136Record provider (loaded lazily by the provider text; see
 * program/provider-text.ts). Path `resources/rfc2136-record/handlers.js` is
 * stored in state: keep it.
 */
import type { ResourceHandlers } from "../../provider/handlers.js";
import { check } from "./check.js";
import { create } from "./create.js";
import { remove } from "./delete.js";
import { diff } from "./diff.js";
import type { Rfc2136RecordState } from "./inputs.js";
import { update } from "./update.js";

export const resourceType = "Rfc2136Record";

// The engine sends the program's inputs to `check` only; create, diff and update get
// what `check` returned (normalised, defaults filled: the state's shape).
export const handlers: ResourceHandlers<Rfc2136RecordState, Rfc2136RecordState> = { check, diff, create, update, delete: remove };
