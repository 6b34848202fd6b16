import type * as pulumi from "@pulumi/pulumi";
import { sendUpdate } from "../../dns/update.js";
import type { ProviderContext } from "../../provider/context.js";
import { toPlainJson } from "../../provider/plain-json.js";
import type { Rfc2136RecordState } from "./inputs.js";
import { describeRecord, recordId, recordOf, stateOf, targetOf } from "./target.js";

/**
 * Adds the record with one UPDATE and no prerequisite: a TXT value joins any
 * others at the name (other validation tokens, SPF...), and adding a value
 * that is already there changes nothing.
 */
export async function create(ctx: ProviderContext, inputs: Rfc2136RecordState): Promise<pulumi.dynamic.CreateResult<Rfc2136RecordState>> {
  const { transport } = await sendUpdate(targetOf(inputs), { deletes: [], adds: [recordOf(inputs)] });
  ctx.log(inputs.fqdn).info(`added ${describeRecord(inputs)} (TTL ${inputs.ttl}) to zone ${inputs.zone} at ${inputs.server} (${transport.toUpperCase()})`);
  return { id: recordId(inputs), outs: toPlainJson(stateOf(inputs)) as unknown as Rfc2136RecordState };
}
