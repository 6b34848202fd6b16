import { isPartnerApiError } from "../../client/errors.js";
import { REFUND_WINDOW_DAYS } from "../../money/summary.js";
import { CANCEL_REASON_MAX_LENGTH, CertStatus, OrderStatus, type CancelOrderResult, type PartnerApi } from "../../client/types.js";
import { resourceName, type ProviderContext } from "../../provider/index.js";
import { accountOf, otherAccountError } from "./account.js";
import { describeError } from "./describe-error.js";
import { apiSays, apiSaysNoSuchOrder, unconfirmedNotFound } from "./evidence.js";
import { forgetJournalEntry } from "./journal-entry.js";
import { parseServiceTime } from "./service-time.js";
import type { OrderState } from "./state.js";

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
 * How far past the window the service's clock must read before a refused
 * cancel is released. `server_time` carries no zone: it is read as UTC, but
 * the service may report its local time (UTC+8, say), so the margin covers
 * every zone offset (UTC-12 to UTC+14) plus an hour of clock skew between
 * the provider (which stamped `paidAt`) and the service. Releasing early
 * would give up a refund; releasing 15 hours late costs nothing.
 */
export const WINDOW_MARGIN_MS = (14 + 1) * 60 * 60 * 1000;

/**
 * Why the service will not cancel the order any more, when something proves
 * it; undefined when nothing does (then the refusal is a real failure: bad
 * parameters, a pending review, an upstream refusal...). Reads in order of
 * cost: GetRecord (free), the service's clock (GetUserData), and only then
 * GetCertificateStatus (one read per order per 180 s; a 429 proves nothing).
 */
async function whyNotCancellable(api: PartnerApi, id: string, props: OrderState): Promise<string | undefined> {
  try {
    const stored = await api.getRecord({ orderNo: id });
    if (stored.certStatus === CertStatus.Revoked || stored.certStatus === CertStatus.RefundInProgress) {
      return `it is already refunded or being refunded (cert status ${stored.certStatus})`;
    }
  } catch (error) {
    // The account was confirmed before CancelOrder (GetRecord answered): a 404 now is the API's own word.
    if (await apiSaysNoSuchOrder(api, id, error)) return "the API now answers that it does not exist for the account that holds it (404)";
  }
  const paid = props.paidAt ? parseServiceTime(props.paidAt) : undefined;
  if (paid) {
    try {
      const serverNow = parseServiceTime((await api.getUserData({ timeoutMs: 15_000 })).serverTime);
      if (serverNow && serverNow.getTime() - paid.getTime() > REFUND_WINDOW_DAYS * 86_400_000 + WINDOW_MARGIN_MS) {
        return (
          `it was paid at ${props.paidAt}, more than ${REFUND_WINDOW_DAYS} days and 15 hours before the service's clock (${serverNow.toISOString()} read as UTC; ` +
          "the margin covers any zone the service may report in): past the refund window"
        );
      }
    } catch {
      // The clock is unknown: fall through to the status read.
    }
  }
  try {
    const status = await api.getCertificateStatus({ orderNo: id });
    if (status.orderStatus === OrderStatus.Cancelled || status.orderStatus === OrderStatus.Refunded) {
      return `its order status is ${status.orderStatus} (${status.orderStatus === OrderStatus.Cancelled ? "cancelled" : "refunded"})`;
    }
    if (status.certStatus === CertStatus.Revoked || status.certStatus === CertStatus.RefundInProgress) {
      return `it is already refunded or being refunded (cert status ${status.certStatus})`;
    }
  } catch {
    // Rate limited (429) or unreadable: unknown, which is not proof.
  }
  return undefined;
}

/**
 * Cancels the order and reports the refund. CancelOrder moves money and is
 * never retried blindly: GetRecord first tells whether an earlier attempt
 * already went through, and shows the order to the current key (a 404 there
 * releases the order only under the account recorded in `accountId`). When
 * the service refuses to cancel (its own 400/404), the order is released
 * from Pulumi only on proof that it will never be cancelled: past the 7-day
 * refund window by the service's clock, already refunded or cancelled, or
 * gone for its own account. Any other refusal fails the delete with the
 * service's message and keeps the order in state. An error page from
 * something in between is never a refusal. Keep orders with `retainOnDelete`.
 */
export async function remove(ctx: ProviderContext, id: string, props: OrderState): Promise<void> {
  await cancel(ctx, id, props);
  // Only once the money is settled: the journal is bookkeeping, and a journal that cannot be read
  // (a CI job without the bucket's credentials, a broken mount) must never hold up a refund.
  await forgetJournalEntry(ctx, { ...props, orderNo: id });
}

/** The money part of delete: cancel and refund, or release on proof (see {@link remove}). */
async function cancel(ctx: ProviderContext, id: string, props: OrderState): Promise<void> {
  const log = ctx.log(props.journalKey);
  const api = ctx.api();
  try {
    const stored = await api.getRecord({ orderNo: id });
    if (stored.certStatus === CertStatus.Revoked || stored.certStatus === CertStatus.RefundInProgress) {
      log.info(`order ${id} is already cancelled (cert status ${stored.certStatus}); nothing to refund`);
      return;
    }
  } catch (error) {
    if (await apiSaysNoSuchOrder(api, id, error)) {
      const account = await accountOf(api, props.accountId, `deleting order ${id} (the API answered 404)`);
      if (account.same) {
        log.warn(`order ${id} no longer exists for the account that bought it (app id ${account.current}; the API answered 404); releasing it`);
        return;
      }
      if (account.recorded !== undefined) {
        throw otherAccountError({ orderNo: id, journalKey: props.journalKey, recorded: account.recorded, current: account.current, verb: "cancelled or released" });
      }
      throw new Error(
        `certreseller Order: order ${id} was neither cancelled nor released: the API answers 404 for the current key (app id ${account.current ?? "not shown"}), ` +
          `which means "does not exist" OR "belongs to another account", and this state was written before the Order recorded its account. ` +
          "Look the order up in the reseller account that bought it. If another key bought it: set that key " +
          "(`pulumi config set --secret certreseller:apiKey ...`), run `pulumi up`, then destroy again. If it is really gone: " +
          `\`pulumi state delete '${props.journalKey ?? id}'\`.`,
        { cause: error },
      );
    }
    throw new Error(`certreseller Order: reading order ${id} before cancelling it failed (${describeError(error)}${unconfirmedNotFound(error)}); nothing was cancelled, run again`, {
      cause: error,
    });
  }
  let result: CancelOrderResult;
  try {
    result = await api.cancelOrder({ orderNo: id, reason: cancelReason(props.journalKey, id) });
  } catch (error) {
    if (apiSays(error, "invalid_request", "not_found")) {
      const proof = await whyNotCancellable(api, id, props);
      if (proof) {
        log.warn(
          `order ${id} was NOT cancelled and is released from Pulumi: the service refuses to cancel it (${describeError(error)}), and ${proof}. ` +
            "Orders can be cancelled within 7 days of payment, once, and not while a refund is pending; anything else needs the reseller's support.",
        );
        return;
      }
      throw new Error(
        `certreseller Order: the service refused to cancel order ${id} (${describeError(error)}), and nothing shows that it cannot be cancelled any more ` +
          `(not refunded, not cancelled, ${props.paidAt ? `paid at ${props.paidAt}, not provably past the ${REFUND_WINDOW_DAYS}-day refund window` : "payment time unknown"}). ` +
          "The order is kept in state and may still be refundable: fix what the service says and run `pulumi destroy` again; " +
          `to keep the order instead, set \`retainOnDelete\`, or \`pulumi state delete '${props.journalKey ?? id}'\` to abandon it (it stays paid).`,
        { cause: error },
      );
    }
    throw new Error(
      `certreseller Order: cancelling order ${id} failed (${describeError(error)}). ` +
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
