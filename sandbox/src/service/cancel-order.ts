import { findProductById } from "../catalogue/products.js";
import { badRequest } from "../errors.js";
import type { AccountRecord, OrderRecord } from "../store/types.js";
import { newRefundOrderNo } from "../util/ids.js";
import { toAmount } from "../util/money.js";
import { formatDateTime } from "../util/time.js";
import type { OperationRequest, ServiceContext } from "./context.js";
import { optionalString } from "./fields.js";
import { currentCert, findOrder, refreshOrder } from "./lifecycle.js";

/** Returns the money the way it was paid: to the balance, or back to the credit line. */
export function refund(ctx: ServiceContext, account: AccountRecord, order: OrderRecord): void {
  const r = order.refund!;
  if (r.to === "balance") account.balance += r.amount;
  else account.creditUsed -= r.amount;
  const now = ctx.clock.nowMs();
  r.status = 3;
  r.refundedAt = now;
  r.refundOrderNo = newRefundOrderNo(new Date(now));
  order.orderStatus = 4;
  // The whole order is refunded, so every installment is revoked.
  for (const c of order.certificates) c.status = 5;
}

/**
 * CancelOrder: within the refund window, in cert_status 0–3, once. Nothing
 * sent upstream → refund directly; otherwise cancel upstream and refund, or,
 * when the upstream cancel fails, queue an `audit` refund for an administrator.
 */
export async function cancelOrder(ctx: ServiceContext, { account, body }: OperationRequest): Promise<Record<string, unknown>> {
  const order = findOrder(ctx, account, body);
  const reason = optionalString(body, "reason") ?? null;
  await refreshOrder(ctx, order);
  const cert = currentCert(order);
  if (order.refund !== null || order.orderStatus === 3 || order.orderStatus === 4) {
    const what = order.refund?.status === 0 ? "has a pending refund request" : "is already cancelled or refunded";
    throw badRequest("order_no", `order ${order.orderNo} ${what}; CancelOrder is allowed once`);
  }
  if (![0, 1, 2, 3].includes(cert.status)) {
    throw badRequest("order_no", `CancelOrder is allowed only in cert_status 0, 1, 2 or 3; the certificate is in cert_status ${cert.status}`);
  }
  const now = ctx.clock.nowMs();
  const windowMs = ctx.config.refundWindowDays * 86_400_000;
  if (now > order.paidAt + windowMs) {
    throw badRequest("order_no", `the refund window of ${ctx.config.refundWindowDays} days after payment (${formatDateTime(order.paidAt)}) has passed`);
  }
  const nothingUpstream = cert.status === 0 && order.certificates.every((c) => c.requestId === null);
  const upstreamFails = !nothingUpstream && ctx.config.upstreamCancelFails;
  const provider = findProductById(order.productId)!.brand.provider;
  order.refund = {
    id: nextRefundId(ctx),
    mode: upstreamFails ? "audit" : "direct",
    status: 0,
    to: order.paymentMethod,
    amount: order.price.total,
    refundOrderNo: null,
    reason,
    upstream: nothingUpstream
      ? { success: true, provider, message: "nothing was submitted upstream; cancellation skipped", upstreamCode: "", skipped: true }
      : upstreamFails
        ? { success: false, provider, message: "upstream CA refused the cancellation; refund queued for review", upstreamCode: "CANCEL_REFUSED", skipped: false }
        : { success: true, provider, message: "cancelled upstream", upstreamCode: "OK", skipped: false },
    requestedAt: now,
    refundedAt: null,
  };
  if (upstreamFails) {
    order.orderStatus = 2;
    cert.status = 6;
  } else {
    refund(ctx, account, order);
  }
  ctx.store.markOrder(order);
  return renderRefund(order);
}

/** Spec 4.7 data: `order_no` plus the refund fields of 2.6; an `audit` refund has no refund_order_no yet (reference). */
function renderRefund(order: OrderRecord): Record<string, unknown> {
  const r = order.refund!;
  const u = r.upstream;
  return {
    order_no: order.orderNo,
    refund_id: r.id,
    refund_amount: toAmount(r.amount),
    refund_to: r.to,
    ...(r.refundOrderNo === null ? {} : { refund_order_no: r.refundOrderNo }),
    refund_mode: r.mode,
    refund_status: r.status,
    upstream_cancel: { success: u.success, provider: u.provider, message: u.message, upstream_code: u.upstreamCode, skipped: u.skipped },
  };
}

/** Refund ids count up over every refund the sandbox has recorded, so they stay unique across restarts. */
function nextRefundId(ctx: ServiceContext): number {
  let max = 0;
  for (const o of ctx.store.orders.values()) if (o.refund !== null && o.refund.id > max) max = o.refund.id;
  return max + 1;
}
