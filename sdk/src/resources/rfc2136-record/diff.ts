import type * as pulumi from "@pulumi/pulumi";
import type { ProviderContext } from "../../provider/context.js";
import { isUnknown } from "../../provider/unknown.js";
import type { Rfc2136RecordState } from "./inputs.js";

/** Where the record is and what kind it is: a change publishes a new record (and removes the old one). */
const IDENTITY = ["server", "zone", "fqdn", "type"] as const;
/** The content and the key: changed in place (a new value is one UPDATE: delete the old RR, add the new). */
const IN_PLACE = ["value", "ttl", "tsigKeyName", "tsigAlgorithm", "tsigSecret"] as const;

/**
 * `news` are checked (normalised) inputs, `olds` the old outputs, which hold
 * the same fields normalised the same way.
 *
 * A replacement normally creates the new record before deleting the old
 * one. The old one goes first when the new record would be the very same RR
 * (same name, type and value, e.g. the server's address spelled another
 * way: the old one's delete would remove it again), or another type at the
 * same name (a CNAME shares its name with nothing, so creating first would
 * be refused as a conflict with the old record).
 */
export async function diff(_ctx: ProviderContext, _id: string, olds: Rfc2136RecordState, news: Rfc2136RecordState): Promise<pulumi.dynamic.DiffResult> {
  const changed = (k: keyof Rfc2136RecordState) => isUnknown(news[k]) || news[k] !== olds[k];
  const replaces = IDENTITY.filter(changed);
  const updates = IN_PLACE.filter(changed);
  const sameName = !changed("fqdn");
  const sameRr = sameName && !changed("type") && !changed("value");
  return { changes: replaces.length + updates.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 && sameName && (sameRr || changed("type")) };
}
