import { isPartnerApiError } from "../../client/errors.js";
import { CertStatus } from "../../client/types.js";
import { PurchaseJournal } from "../../journal/index.js";
import type { ProviderContext } from "../../provider/index.js";
import { describe } from "./sign.js";
import type { OrderState } from "./types.js";

/**
 * Cancels the order and reports the refund. CancelOrder moves money and is
 * never retried blindly: GetRecord first tells whether an earlier attempt
 * already went through. An order the service will not cancel (past the
 * refund window, already refunded, ...) is released with a warning instead
 * of blocking `destroy` forever. Keep orders with `retainOnDelete`.
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
    if (isPartnerApiError(error, "not_found")) {
      log.warn(`order ${id} no longer exists for this account; releasing it`);
      return;
    }
    throw error;
  }
  let result;
  try {
    result = await api.cancelOrder({ orderNo: id, reason: `pulumi destroy/replace of ${props.journalKey ?? id}` });
  } catch (error) {
    if (isPartnerApiError(error, "invalid_request", "not_found")) {
      log.warn(
        `order ${id} was NOT cancelled and is released from Pulumi: the service refuses to cancel it (${describe(error)}). ` +
          "Orders can be cancelled within 7 days of payment, once, and not while a refund is pending; anything else needs the reseller's support.",
      );
      return;
    }
    throw new Error(
      `certreseller Order: cancelling order ${id} failed (${describe(error)}). ` +
        (isPartnerApiError(error) && error.mayHaveReachedServer
          ? "The cancel may have gone through; the next run checks the order's state first and does not cancel twice."
          : "Nothing was sent; run again."),
      { cause: error },
    );
  }
  if (result.refundMode === "audit") {
    log.warn(
      `order ${id} cancelled, but the upstream cancel failed and the refund went to MANUAL REVIEW (audit): no money back yet ` +
        `(${result.upstreamCancel.message ?? "no detail"}); follow up with the reseller`,
    );
    return;
  }
  log.info(
    `order ${id} cancelled; refunded ${result.refundAmount ?? "?"} to ${result.refundTo ?? "the account"} (mode ${result.refundMode}, refund order ${result.refundOrderNo ?? "n/a"})`,
  );
}
