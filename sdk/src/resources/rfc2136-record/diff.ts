import type * as pulumi from "@pulumi/pulumi";
import type { ProviderContext } from "../../provider/context.js";
import { isUnknown } from "../../provider/unknown.js";
import { changedInputs } from "../shared/inputs.js";
import { RFC2136_RECORD_PROPERTIES } from "./declaration.js";
import type { Rfc2136RecordState } from "./inputs.js";

/**
 * What each change does is declared (`declaration.ts`: where the record is
 * and what kind replaces; its content and key update in place). `news` are
 * checked (normalised) inputs, `olds` the old outputs, which hold the same
 * fields normalised the same way.
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
  const { replaces, updates } = changedInputs(RFC2136_RECORD_PROPERTIES, olds as never, news as never);
  const sameName = !changed("fqdn");
  const sameRr = sameName && !changed("type") && !changed("value");
  return { changes: replaces.length + updates.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 && sameName && (sameRr || changed("type")) };
}
