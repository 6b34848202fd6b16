import type * as pulumi from "@pulumi/pulumi";
import type { ProviderContext } from "../../provider/context.js";
import { toPlainJson } from "../../provider/plain-json.js";
import type { Rfc2136RecordState } from "./inputs.js";
import { publish } from "./publish.js";
import { describeRecord, recordId, recordOf, stateOf, targetOf, unsureLine } from "./target.js";

/**
 * Adds the record ({@link publish}): a TXT value joins any others at the
 * name (other validation tokens, SPF...); the very record already there is
 * kept as pre-existing, which delete leaves in place; a conflict with a
 * CNAME fails naming what is there, having changed nothing.
 */
export async function create(ctx: ProviderContext, inputs: Rfc2136RecordState): Promise<pulumi.dynamic.CreateResult<Rfc2136RecordState>> {
  const published = await publish(targetOf(inputs), recordOf(inputs));
  const log = ctx.log(inputs.fqdn);
  if (published.preExisting && published.unsure) log.warn(unsureLine(inputs));
  log.info(
    published.preExisting
      ? `found ${describeRecord(inputs)} with this value already in zone ${inputs.zone} at ${inputs.server}: kept as pre-existing (nothing added; destroy leaves it)`
      : `added ${describeRecord(inputs)} (TTL ${inputs.ttl}) to zone ${inputs.zone} at ${inputs.server} (${published.transport.toUpperCase()})`,
  );
  return { id: recordId(inputs), outs: toPlainJson(stateOf(inputs, published.preExisting)) as unknown as Rfc2136RecordState };
}
