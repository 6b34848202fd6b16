import type * as pulumi from "@pulumi/pulumi";
import { CertStatus } from "../../client/types.js";
import { toPlainJson, type ProviderContext } from "../../provider/index.js";
import { forgetJournalEntry } from "./diff.js";
import { apiSays } from "./evidence.js";
import { describe, reportedMethod } from "./sign.js";
import { withoutRetired, type OrderState } from "./types.js";

/** Cert states that mean the purchase is gone: revoked/refunded, refund in progress. */
const GONE: readonly number[] = [CertStatus.Revoked, CertStatus.RefundInProgress];

/**
 * Refresh through GetRecord (no rate limit). An order the API itself says
 * no longer exists (its 404), or was cancelled, refunded or revoked outside
 * Pulumi, is dropped from state with a warning, so the next `up` previews
 * buying a new one. Any other failure (an HTML error page, a timeout) fails
 * the refresh and leaves the state as it was: dropping a paid order on
 * anything less than the API's word would buy it again.
 */
export async function read(ctx: ProviderContext, id: string, props: OrderState): Promise<pulumi.dynamic.ReadResult<OrderState>> {
  const log = ctx.log(props.journalKey);
  await forgetJournalEntry(ctx, props);
  let stored;
  try {
    stored = await ctx.api().getRecord({ orderNo: id });
  } catch (error) {
    if (apiSays(error, "not_found")) {
      log.warn(`order ${id} no longer exists for this account (the API answered 404); removing it from state`);
      return {};
    }
    throw new Error(`certreseller Order: reading order ${id} failed (${describe(error)}); the order is kept in state as it was`, { cause: error });
  }
  const certStatus = stored.certStatus;
  if (GONE.includes(certStatus)) {
    log.warn(
      `order ${id} was ${certStatus === CertStatus.Revoked ? "revoked or refunded" : "cancelled (refund in progress)"} outside Pulumi; ` +
        "removing it from state — the next `pulumi up` will buy a new one",
    );
    return {};
  }
  if (certStatus === CertStatus.Revoking) log.warn(`order ${id}'s certificate is being revoked`);
  const state: OrderState = withoutRetired({
    ...props,
    certStatus,
    verificationMethod: reportedMethod(stored.verificationMethod, props.verificationMethod),
  });
  return { id, props: toPlainJson(state) as unknown as OrderState };
}
