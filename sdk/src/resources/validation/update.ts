import type * as pulumi from "@pulumi/pulumi";
import type { ProviderContext } from "../../provider/context.js";
import { toPlainJson } from "../../provider/plain-json.js";
import { sameMethod } from "../shared/verification-method.js";
import type { ValidationInputs } from "./inputs.js";
import { knownAccount } from "../order/account.js";
import { readRecords } from "./read-records.js";
import type { ValidationState } from "./state.js";

/** Re-reads the records: the domains, the method or the request id changed. */
export async function update(ctx: ProviderContext, _id: string, olds: ValidationState, news: ValidationInputs): Promise<pulumi.dynamic.UpdateResult<ValidationState>> {
  const outs = { ...(await readRecords(ctx, news)), ...(await knownAccount(ctx, olds)) };
  if (!sameMethod(olds.method ?? "", outs.method)) ctx.log().info(`order ${outs.orderNo}: validation method ${olds.method} → ${outs.method}; records updated`);
  return { outs: toPlainJson(outs) as unknown as ValidationState };
}
