import { isPartnerApiError } from "../../client/errors.js";
import { CANCEL_REASON_MAX_LENGTH, CertStatus, type CancelOrderResult } from "../../client/types.js";
import { PurchaseJournal } from "../../journal/index.js";
import { resourceName, type ProviderContext } from "../../provider/index.js";
import { apiSays } from "./evidence.js";
import { describe } from "./sign.js";
import type { OrderState } from "./types.js";

/**
 * CancelOrder's `reason`: names the resource, not its whole URN (which can
 * exceed the client's cap with a long project, stack and parent chain).
 *
 * @example
 * cancelReason("urn:pulumi:dev::proj::pulumi-nodejs:dynamic/certreseller:Order::site", "CERT1") // 'pulumi: Order "site" destroyed or replaced'
 */
export function cancelReason(journalKey: string | undefined, orderNo: string): string {
  const name = journalKey ? resourceName(journalKey) : orderNo;
  const reason = `pulumi: Order "${name}" destroyed or replaced`;
  return reason.length <= CANCEL_REASON_MAX_LENGTH ? reason : `${reason.slice(0, CANCEL_REASON_MAX_LENGTH - 1)}…`;
}

function refundLine(id: string, result: CancelOrderResult): string {
  return (
    `order ${id} cancelled; refunded ${result.refundAmount ?? "an amount not reported"} to ${result.refundTo ?? "the account"} ` +
    `(mode ${result.refundMode ?? "not reported"}, refund order ${result.refundOrderNo ?? "n/a"})`
  );
}

/**
 * Cancels the order and reports the refund. CancelOrder moves money and is
 * never retried blindly: GetRecord first tells whether an earlier attempt
 * already went through. An order the service will not cancel (past the
 * refund window, already refunded, ...) is released with a warning instead
 * of blocking `destroy` forever — but only on the API's own answer: an error
 * page from something in between is not a refusal, and the delete fails so
 * that it can be run again. Keep orders with `retainOnDelete`.
 */
export async function remove(ctx: ProviderContext, id: string, props: OrderState): Promise<void> {
  const log = ctx.log(props.journalKey);
  const api = ctx.api();
  if (props.journalKey) {
    const journal = new PurchaseJournal(ctx.settings.journalDir);
    if ((await journal.read(props.journalKey))?.orderNo === id) await journal.clear(props.journalKey);
  }
  try {
    const stored = await api.getRecord({ orderNo: id });
    if (stored.certStatus === CertStatus.Revoked || stored.certStatus === CertStatus.RefundInProgress) {
      log.info(`order ${id} is already cancelled (cert status ${stored.certStatus}); nothing to refund`);
      return;
    }
  } catch (error) {
    if (apiSays(error, "not_found")) {
      log.warn(`order ${id} no longer exists for this account (the API answered 404); releasing it`);
      return;
    }
    throw new Error(`certreseller Order: reading order ${id} before cancelling it failed (${describe(error)}); nothing was cancelled, run again`, {
      cause: error,
    });
  }
  let result: CancelOrderResult;
  try {
    result = await api.cancelOrder({ orderNo: id, reason: cancelReason(props.journalKey, id) });
  } catch (error) {
    if (apiSays(error, "invalid_request", "not_found")) {
      log.warn(
        `order ${id} was NOT cancelled and is released from Pulumi: the service refuses to cancel it (${describe(error)}). ` +
          "Orders can be cancelled within 7 days of payment, once, and not while a refund is pending; anything else needs the reseller's support.",
      );
      return;
    }
    throw new Error(
      `certreseller Order: cancelling order ${id} failed (${describe(error)}). ` +
        (isPartnerApiError(error) && !error.mayHaveReachedServer
          ? "Nothing was sent; run again."
          : "The cancel may have gone through; the next run checks the order's state first and does not cancel twice."),
      { cause: error },
    );
  }
  if (result.refundMode === "audit") {
    log.warn(
      `order ${id} cancelled, but the upstream cancel failed and the refund went to MANUAL REVIEW (audit): no money back yet ` +
        `(${result.upstreamCancel?.message ?? "no detail"}); follow up with the reseller`,
    );
    return;
  }
  log.info(refundLine(id, result));
}
