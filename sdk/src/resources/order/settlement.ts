/**
 * Whether an order is still paid and live, or settled (cancelled, refunded,
 * being refunded): the one rule refresh, resume and destroy all read.
 *
 * `cert_status` belongs to one certificate of the order, and 5 reads
 * "revoked/refunded": a certificate revoked outside Pulumi leaves the order
 * paid, and an order of several installments keeps its remaining ones. So a
 * 5 alone never settles an order: the order status (GetCertificateStatus's
 * `order_status`, 3 cancelled or 4 refunded) decides, and until it has been
 * read nothing is dropped, forgotten or bought again.
 */
import { isPartnerApiError } from "../../client/errors.js";
import { describeError } from "../../client/describe-error.js";
import { CertStatus, OrderStatus, type PartnerApi } from "../../client/types.js";

/** What the API's own answers say about an order's money. */
export type Settlement =
  /** Paid and live; its certificate is not revoked. */
  | { kind: "live" }
  /** Paid and live (order status 0–2), but the current certificate was revoked (cert status 5). */
  | { kind: "revoked"; orderStatus: number }
  /** Cancelled, refunded or being refunded: `why` says which, with the status that shows it. */
  | { kind: "settled"; why: string };

/**
 * The order's certificate is revoked and whether the order itself was
 * refunded could not be read (one status read per order per 180 s): nothing
 * may be decided yet. `retryAfter` is the service's wait, when it gave one.
 */
export class SettlementUnknownError extends Error {
  override readonly name = "SettlementUnknownError";
  readonly retryAfter?: number;
  constructor(orderNo: string, cause: unknown) {
    const retryAfter = isPartnerApiError(cause, "rate_limited") ? cause.retryAfter : undefined;
    super(
      `order ${orderNo}'s certificate is revoked (cert status 5, which the service also reports for a refunded order), and the order status that tells ` +
        `whether the order was refunded could not be read (${describeError(cause)})${retryAfter ? `; the service allows the next read in ${retryAfter} s` : ""}`,
      { cause },
    );
    this.retryAfter = retryAfter;
  }
}

/**
 * Reads the settlement of `orderNo` whose certificate GetRecord showed in
 * `certStatus`. Only a revoked certificate costs a status read; cert status
 * 6 (refund in progress) settles on its own. Throws
 * {@link SettlementUnknownError} when that read fails.
 *
 * @example
 * const s = await settlementOf(api, "CERT1", (await api.getRecord({ orderNo: "CERT1" })).certStatus);
 * if (s.kind === "settled") log.info(`order CERT1 is ${s.why}`);
 */
export async function settlementOf(api: PartnerApi, orderNo: string, certStatus: number | undefined): Promise<Settlement> {
  if (certStatus === CertStatus.RefundInProgress) return { kind: "settled", why: `being refunded (cert status ${certStatus})` };
  if (certStatus !== CertStatus.Revoked) return { kind: "live" };
  let status;
  try {
    status = await api.getCertificateStatus({ orderNo });
  } catch (error) {
    throw new SettlementUnknownError(orderNo, error);
  }
  if (status.orderStatus === OrderStatus.Cancelled) return { kind: "settled", why: `cancelled (order status ${status.orderStatus})` };
  if (status.orderStatus === OrderStatus.Refunded) return { kind: "settled", why: `refunded (order status ${status.orderStatus})` };
  if (status.certStatus === CertStatus.RefundInProgress) return { kind: "settled", why: `being refunded (cert status ${status.certStatus})` };
  return { kind: "revoked", orderStatus: status.orderStatus };
}

/**
 * What to tell a user whose order is live with a revoked certificate: the
 * order stays (it is paid), and how to get a certificate again.
 *
 * @example
 * log.warn(revokedAdvice("CERT1", 2, "urn:pulumi:dev::p::certreseller:index:Order::site"));
 */
export function revokedAdvice(orderNo: string, orderStatus: number, urn: string | undefined): string {
  return (
    `order ${orderNo}'s current certificate was revoked (cert status 5) but the order is still paid and live (order status ${orderStatus}), so it is KEPT: ` +
    "nothing is bought again on its account. To get a certificate again: ask the reseller's support to reissue under this order, " +
    `or replace the Order (without \`adoptOrderNo\`, and after one plain \`pulumi up\`: \`pulumi up --replace '${urn ?? orderNo}'\`), which buys a new order and cancels this one (refunded within 7 days of payment)`
  );
}
