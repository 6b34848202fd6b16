import { sendUpdate } from "../../dns/update.js";
import type { ProviderContext } from "../../provider/context.js";
import type { Rfc2136RecordState } from "./inputs.js";
import { describeRecord, recordOf, targetOf } from "./target.js";

/**
 * Deletes exactly this record's RR (class NONE, RFC 2136 2.5.4): other
 * values at the same name stay. A record that was there before the resource
 * (`preExisting`) is not its to delete: nothing is sent. One already gone is
 * no error (the server answers NOERROR). A failure fails the destroy rather
 * than forget a record that is still published.
 */
export async function remove(ctx: ProviderContext, _id: string, props: Rfc2136RecordState): Promise<void> {
  if (props.preExisting === true) {
    ctx.log(props.fqdn).info(`left ${describeRecord(props)} in zone ${props.zone} at ${props.server} in place: it was there before this resource`);
    return;
  }
  await sendUpdate(targetOf(props), { deletes: [recordOf(props)], adds: [] });
  ctx.log(props.fqdn).info(`deleted ${describeRecord(props)} from zone ${props.zone} at ${props.server}`);
}
