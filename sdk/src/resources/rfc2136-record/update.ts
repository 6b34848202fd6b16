import type * as pulumi from "@pulumi/pulumi";
import type { ProviderContext } from "../../provider/context.js";
import { toPlainJson } from "../../provider/plain-json.js";
import type { Rfc2136RecordState } from "./inputs.js";
import { publish } from "./publish.js";
import { describeRecord, recordOf, stateOf, targetOf, unsureLine } from "./target.js";

/**
 * A new value or TTL: ONE update deletes exactly the old RR and adds the new
 * one ({@link publish}), which the server applies all or nothing, so the
 * name never holds neither. A pre-existing old record is not the
 * resource's to delete: it stays, and only the new one is added. It is
 * signed with the new key settings (those the server is expected to take
 * now). A change of the key settings alone sends nothing: they are kept for
 * the next update and the delete.
 */
export async function update(ctx: ProviderContext, _id: string, olds: Rfc2136RecordState, news: Rfc2136RecordState): Promise<pulumi.dynamic.UpdateResult<Rfc2136RecordState>> {
  const wasPreExisting = olds.preExisting === true;
  if (news.value === olds.value && news.ttl === olds.ttl) return { outs: toPlainJson(stateOf(news, wasPreExisting)) as unknown as Rfc2136RecordState };
  const log = ctx.log(news.fqdn);
  if (news.value === olds.value && wasPreExisting) {
    log.info(`kept the TTL of ${describeRecord(news)} in zone ${news.zone} at ${news.server} as it is: the record was there before this resource, which does not change it`);
    return { outs: toPlainJson(stateOf(news, true)) as unknown as Rfc2136RecordState };
  }
  const published = await publish(targetOf(news), recordOf(news), wasPreExisting ? undefined : recordOf(olds));
  if (published.preExisting && published.unsure) log.warn(unsureLine(news));
  const oldLeft = wasPreExisting ? "; the pre-existing old value is left in place" : "";
  const what = news.value === olds.value ? "set the TTL of" : wasPreExisting ? "added the new value of" : "replaced the value of";
  log.info(
    published.preExisting
      ? `found the new value of ${describeRecord(news)} already in zone ${news.zone} at ${news.server}: kept as pre-existing (nothing added)${oldLeft || "; deleted this resource's old value"}`
      : `${what} ${describeRecord(news)} in zone ${news.zone} at ${news.server} in one update (${published.transport.toUpperCase()})${oldLeft}`,
  );
  return { outs: toPlainJson(stateOf(news, published.preExisting)) as unknown as Rfc2136RecordState };
}
