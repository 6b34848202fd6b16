import { isPartnerApiError } from "../../client/errors.js";
import { REFUND_WINDOW_DAYS } from "../../money/summary.js";
import { CANCEL_REASON_MAX_LENGTH, CertStatus, OrderStatus, type CancelOrderResult, type PartnerApi, type RecordSet } from "../../client/types.js";
import { describeError } from "../../client/describe-error.js";
import { resourceName, type ProviderContext } from "../../provider/index.js";
import { accountOf, incompleteRecord, otherAccountError } from "./account.js";
import { apiSays, apiSaysNoSuchOrder, unconfirmedNotFound } from "./evidence.js";
import { forgetJournalEntry } from "./journal-entry.js";
import { forgetMarks, takenOverByAnother } from "./resumed-mark.js";
import { parseServiceTime } from "./service-time.js";
import { settlementOf, SettlementUnknownError } from "./settlement.js";
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
 * When the order was paid, at the latest, and what that time is: `paidAt`
 * (CreateOrder's answer received) or, for an adopted order,
 * `paidNoLaterThan` (the service's time when it first showed the order).
 */
function paymentBound(props: OrderState): { at: Date; text: string } | undefined {
  const bound = props.paidAt
    ? { iso: props.paidAt, text: `paid at ${props.paidAt}` }
    : props.paidNoLaterThan
      ? { iso: props.paidNoLaterThan, text: `paid no later than ${props.paidNoLaterThan} (when the service first showed it to this Order)` }
      : undefined;
  const at = bound ? parseServiceTime(bound.iso) : undefined;
  return bound && at ? { at, text: bound.text } : undefined;
}

/**
 * Why the service will not cancel the order any more, when something proves
 * it; undefined when nothing does (then the refusal is a real failure: bad
 * parameters, a pending review, an upstream refusal...). Reads in order of
 * cost: GetRecord (free), the service's clock (GetUserData), and only then
 * GetCertificateStatus (one read per order per 180 s; a 429 proves nothing).
 *
 * Cert status 5 is not proof: it reads "revoked/refunded", and a certificate
 * revoked outside Pulumi leaves the order paid and unrefunded. Only the
 * order status (3 cancelled, 4 refunded), a refund in progress (cert status
 * 6), the API's 404 or the window proves it. `statusJustRead`: the order
 * status was read before CancelOrder and showed neither.
 */
async function whyNotCancellable(api: PartnerApi, id: string, props: OrderState, statusJustRead: boolean): Promise<{ proof?: string; statusUnread?: true }> {
  try {
    const stored = await api.getRecord({ orderNo: id });
    if (stored.certStatus === CertStatus.RefundInProgress) return { proof: `a refund is already in progress (cert status ${stored.certStatus})` };
  } catch (error) {
    // The account was confirmed before CancelOrder (GetRecord answered): a 404 now is the API's own word.
    if (await apiSaysNoSuchOrder(api, id, error)) return { proof: "the API now answers that it does not exist for the account that holds it (404)" };
  }
  const paid = paymentBound(props);
  if (paid) {
    try {
      const serverNow = parseServiceTime((await api.getUserData({ timeoutMs: 15_000 })).serverTime);
      if (serverNow && serverNow.getTime() - paid.at.getTime() > REFUND_WINDOW_DAYS * 86_400_000 + WINDOW_MARGIN_MS) {
        return {
          proof:
            `it was ${paid.text}, more than ${REFUND_WINDOW_DAYS} days and 15 hours before the service's clock (${serverNow.toISOString()} read as UTC; ` +
            "the margin covers any zone the service may report in): past the refund window",
        };
      }
    } catch {
      // The clock is unknown: fall through to the status read.
    }
  }
  // Read just before CancelOrder (a revoked certificate): a second read now would only meet the 180 s limit.
  if (statusJustRead) return {};
  try {
    const status = await api.getCertificateStatus({ orderNo: id });
    if (status.orderStatus === OrderStatus.Cancelled || status.orderStatus === OrderStatus.Refunded) {
      return { proof: `its order status is ${status.orderStatus} (${status.orderStatus === OrderStatus.Cancelled ? "cancelled" : "refunded"})` };
    }
    if (status.certStatus === CertStatus.RefundInProgress) return { proof: `a refund is already in progress (cert status ${status.certStatus})` };
  } catch {
    // Rate limited (429) or unreadable: unknown, which is not proof.
    return { statusUnread: true };
  }
  return {};
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
  const resumed = await takenOverByAnother(ctx, id, props);
  if (resumed) {
    // In this process, the engine recorded the replacement (which holds the order) before asking for this delete.
    const { here } = resumed;
    ctx.log(props.journalKey).warn(
      `order ${id} is not cancelled: the purchase journal shows that a create of this resource resumed it at ${resumed.mark.resumedAt} ` +
        "(its replacement, which found the order journaled and held it instead of buying: e.g. `pulumi up --replace` right after the up that bought it). " +
        "No new certificate was bought: run the replacement again to buy one." +
        (here
          ? ""
          : ` If no Order of the stack holds ${id} now (that create did not finish), it is paid and untracked: \`${resumed.journal.command("ls")}\` ` +
            "shows its entry; adopt it (`adoptOrderNo`) or cancel it with the reseller"),
    );
    // The mark stays: should the engine die before it records this delete, the repeated delete must skip again. The
    // resumer's own delete removes it. Elsewhere, the entry stays for the replacement's diff, or for the user if that
    // create never finished.
    if (here) await forgetJournalEntry(ctx, { ...props, orderNo: id });
    return;
  }
  await cancel(ctx, id, props);
  // Only once the money is settled: the journal is bookkeeping, and a journal that cannot be read
  // (a CI job without the bucket's credentials, a broken mount) must never hold up a refund.
  await forgetJournalEntry(ctx, { ...props, orderNo: id });
  await forgetMarks(ctx, { ...props, orderNo: id }, "own");
}

/** The money part of delete: cancel and refund, or release on proof (see {@link remove}). */
async function cancel(ctx: ProviderContext, id: string, props: OrderState): Promise<void> {
  const log = ctx.log(props.journalKey);
  const api = ctx.api();
  let stored: RecordSet;
  try {
    stored = await api.getRecord({ orderNo: id });
  } catch (error) {
    if (await apiSaysNoSuchOrder(api, id, error)) {
      const account = await accountOf(ctx, props, `deleting order ${id} (the API answered 404)`);
      if (account.same) {
        log.warn(`order ${id} no longer exists for the account that bought it (app id ${account.current} at ${account.currentEndpoint}; the API answered 404); releasing it`);
        return;
      }
      if (account.other) throw otherAccountError({ orderNo: id, journalKey: props.journalKey, account, verb: "cancelled or released" });
      throw new Error(
        `certreseller Order: order ${id} was neither cancelled nor released. ${incompleteRecord(account)}. ` +
          "Look the order up in the reseller account that bought it. If another key or base URL bought it: set that one " +
          "(`pulumi config set --secret certreseller:apiKey ...` / `pulumi config set certreseller:baseUrl ...`), run `pulumi up`, then destroy again. If it is really gone: " +
          `\`pulumi state delete '${props.journalKey ?? id}'\`.`,
        { cause: error },
      );
    }
    throw new Error(`certreseller Order: reading order ${id} before cancelling it failed (${describeError(error)}${unconfirmedNotFound(error)}); nothing was cancelled, run again`, {
      cause: error,
    });
  }
  let revoked = false;
  try {
    // The order status decides, not a revoked certificate (settlement.ts).
    const settlement = await settlementOf(api, id, stored.certStatus);
    if (settlement.kind === "settled") {
      log.info(`order ${id} is already ${settlement.why}; nothing to cancel or refund`);
      return;
    }
    revoked = settlement.kind === "revoked";
  } catch (error) {
    if (!(error instanceof SettlementUnknownError)) throw error;
    throw new Error(
      `certreseller Order: ${error.message}; nothing was cancelled, run \`pulumi destroy\` again${error.retryAfter ? ` in ${error.retryAfter} s` : ""}`,
      { cause: error },
    );
  }
  let result: CancelOrderResult;
  try {
    result = await api.cancelOrder({ orderNo: id, reason: cancelReason(props.journalKey, id) });
  } catch (error) {
    if (apiSays(error, "invalid_request", "not_found")) {
      const { proof, statusUnread } = await whyNotCancellable(api, id, props, revoked);
      if (proof) {
        log.warn(
          `order ${id} was NOT cancelled and is released from Pulumi: the service refuses to cancel it (${describeError(error)}), and ${proof}. ` +
            "Orders can be cancelled within 7 days of payment, once, and not while a refund is pending; anything else needs the reseller's support.",
        );
        return;
      }
      throw new Error(
        `certreseller Order: the service refused to cancel order ${id} (${describeError(error)}), and nothing shows that it cannot be cancelled any more ` +
          `(no refund or cancellation shown, ${paymentBound(props) ? `${paymentBound(props)!.text}, not provably past the ${REFUND_WINDOW_DAYS}-day refund window` : "payment time unknown: `pulumi refresh` records when the service shows the order, which bounds it"}` +
          `${statusUnread ? "; the order status could not be read now (one read per order per 180 s)" : ""}` +
          `${revoked ? "; its certificate was revoked (cert status 5) and the order status shows no refund or cancellation: ask the reseller's support for the refund" : ""}). ` +
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
