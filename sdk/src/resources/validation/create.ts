import type * as pulumi from "@pulumi/pulumi";
import type { ProviderContext } from "../../provider/context.js";
import { toPlainJson } from "../../provider/plain-json.js";
import type { ValidationInputs } from "./inputs.js";
import { knownAccount } from "../order/account.js";
import { readRecords } from "./read-records.js";
import type { ValidationState } from "./state.js";

/** Reads the order's records (GetRecord); the id is the order number. */
export async function create(ctx: ProviderContext, inputs: ValidationInputs): Promise<pulumi.dynamic.CreateResult<ValidationState>> {
  // The API showed the order to this key at this endpoint: recorded, so a later 404 can be judged as the Order judges it.
  const outs = { ...(await readRecords(ctx, inputs)), ...(await knownAccount(ctx)) };
  ctx.log().info(`order ${outs.orderNo}: ${outs.records.length} ${outs.method} validation record(s) for ${inputs.domains.join(", ")}`);
  return { id: inputs.orderNo, outs: toPlainJson(outs) as unknown as ValidationState };
}
