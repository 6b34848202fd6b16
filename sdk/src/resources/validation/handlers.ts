/**
 * Validation provider (loaded lazily by the provider text; see
 * program/provider-text.ts). Path `resources/validation/handlers.js` is
 * stored in state: keep it.
 */
import type { ResourceHandlers } from "../../provider/handlers.js";
import { check } from "./check.js";
import { create } from "./create.js";
import { remove } from "./delete.js";
import { diff } from "./diff.js";
import type { ValidationInputs } from "./inputs.js";
import { read } from "./read.js";
import type { ValidationState } from "./state.js";
import { update } from "./update.js";

export const resourceType = "Validation";

export const handlers: ResourceHandlers<ValidationInputs, ValidationState> = { check, diff, create, update, read, delete: remove };
