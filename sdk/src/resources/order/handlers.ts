/**
 * The Order handler module. Its path (`dist/resources/order/handlers.js`) is
 * stored in every Order's state: keep it in every release.
 */
import { warnBeforeBuyingInCi } from "../../journal/check-hook.js";
import type { ResourceHandlers } from "../../provider/index.js";
import { check } from "./check.js";
import { create } from "./create.js";
import { remove } from "./delete.js";
import { diff } from "./diff.js";
import { importOrder } from "./import.js";
import type { OrderInputs } from "./inputs.js";
import { read } from "./read.js";
import type { OrderState } from "./state.js";
import { update } from "./update.js";

export const resourceType = "Order";

export const handlers: ResourceHandlers<OrderInputs, OrderState> = {
  check: warnBeforeBuyingInCi(check),
  diff,
  create,
  read,
  update,
  delete: remove,
  import: importOrder,
};
