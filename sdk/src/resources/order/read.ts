import type * as pulumi from "@pulumi/pulumi";
import { isPartnerApiError } from "../../client/errors.js";
import { CertStatus } from "../../client/types.js";
import { toPlainJson, type ProviderContext } from "../../provider/index.js";
import { forgetJournalEntry } from "./diff.js";
import type { OrderState } from "./types.js";

/** Cert states that mean the purchase is gone: revoked/refunded, refund in progress. */
const GONE: readonly number[] = [CertStatus.Revoked, CertStatus.RefundInProgress];

/**
 * Refresh through GetRecord (no rate limit). An order that no longer exists,
 * or was cancelled, refunded or revoked outside Pulumi, is dropped from state
 * with a warning, so the next `up` previews buying a new one.
 */
export async function read(ctx: ProviderContext, id: string, props: OrderState): Promise<pulumi.dynamic.ReadResult<OrderState>> {
  const log = ctx.log(props.journalKey);
  await forgetJournalEntry(ctx, props);
  let stored;
  try {
    stored = await ctx.api().getRecord({ orderNo: id });
  } catch (error) {
    if (isPartnerApiError(error, "not_found")) {
      log.warn(`order ${id} no longer exists for this account; removing it from state`);
      return {};
    }
    throw error;
  }
  const certStatus = stored.certStatus ?? props.certStatus;
  if (GONE.includes(certStatus)) {
    log.warn(
      `order ${id} was ${certStatus === CertStatus.Revoked ? "revoked or refunded" : "cancelled (refund in progress)"} outside Pulumi; ` +
        "removing it from state — the next `pulumi up` will buy a new one",
    );
    return {};
  }
  if (certStatus === CertStatus.Revoking) log.warn(`order ${id}'s certificate is being revoked`);
  const state: OrderState = {
    ...props,
    certStatus,
    requestId: stored.requestId ?? undefined,
    records: stored.records,
    verificationMethod: stored.verificationMethod ?? props.verificationMethod,
    emailSuffix: stored.emailSuffix ?? props.emailSuffix,
  };
  return { id, props: toPlainJson(state) as unknown as OrderState };
}
