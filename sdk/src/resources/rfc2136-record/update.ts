import type * as pulumi from "@pulumi/pulumi";
import { sendUpdate } from "../../dns/update.js";
import type { ProviderContext } from "../../provider/context.js";
import { toPlainJson } from "../../provider/plain-json.js";
import type { Rfc2136RecordState } from "./inputs.js";
import { describeRecord, recordOf, stateOf, targetOf } from "./target.js";

/**
 * A new value or TTL: ONE update deletes exactly the old RR and adds the new
 * one, which the server applies all or nothing, so the name never holds
 * neither. It is signed with the new key settings (those the server is
 * expected to take now). A change of the key settings alone sends nothing:
 * they are kept for the next update and the delete.
 */
export async function update(ctx: ProviderContext, _id: string, olds: Rfc2136RecordState, news: Rfc2136RecordState): Promise<pulumi.dynamic.UpdateResult<Rfc2136RecordState>> {
  if (news.value !== olds.value || news.ttl !== olds.ttl) {
    const { transport } = await sendUpdate(targetOf(news), { deletes: [recordOf(olds)], adds: [recordOf(news)] });
    ctx.log(news.fqdn).info(`replaced the value of ${describeRecord(news)} in zone ${news.zone} at ${news.server} in one update (${transport.toUpperCase()})`);
  }
  return { outs: toPlainJson(stateOf(news)) as unknown as Rfc2136RecordState };
}
