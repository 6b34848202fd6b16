import type { PaymentMethod, RefundMode, RefundStatus, RefundTarget } from "../vocabulary.js";
import { boolean, expected, integer, money, nonEmptyText, object, openInteger, openText, optional, required, text } from "./read.js";

// CreateOrder (spec 4.3) and CancelOrder (spec 2.6, 4.7). Both answers
// arrive after money moved: the account is charged, or the refund is made.
// So an answer is a success as soon as it can say which order: every other
// field is `expected` — read when it is there and readable, otherwise
// reported to the logger and left out, never failing the call.

export const createOrderResult = object({
  /** `CERT<digits>`. */
  orderNo: required("order_no", nonEmptyText),
  totalAmount: expected("total_amount", money),
  discountAmount: expected("discount_amount", money),
  payableAmount: expected("payable_amount", money),
  unitPrice: expected("unit_price", money),
  sanPrice: expected("san_price", money),
  wildcardPrice: expected("wildcard_price", money),
  extraSanCount: expected("extra_san_count", integer),
  extraWcCount: expected("extra_wc_count", integer),
  /** How many certificates the order holds (more than 1 when the term exceeds one certificate's lifetime). */
  installmentsCount: expected("installments_count", integer),
  totalDomains: expected("total_domains", integer),
  years: expected("years", integer),
  months: expected("months", integer),
  paymentMethod: expected("payment_method", openText<PaymentMethod>()),
  deductAmount: expected("deduct_amount", money),
  isCustomCsr: expected("is_custom_csr", boolean),
});

/** `upstream_cancel`: the cancel at the upstream certificate provider. */
export const upstreamCancel = object({
  success: expected("success", boolean),
  /** Name of the upstream certificate provider. */
  provider: expected("provider", text),
  message: expected("message", text),
  upstreamCode: expected("upstream_code", text),
  /** True when nothing had been sent upstream, so there was nothing to cancel. */
  skipped: expected("skipped", boolean),
});

/**
 * CancelOrder's answer. `orderNo` may be missing from it: the client then
 * uses the order it asked to cancel (see partner-client.ts).
 */
export const cancelOrderResult = object(
  {
    orderNo: expected("order_no", nonEmptyText),
    refundId: expected("refund_id", integer),
    refundAmount: expected("refund_amount", money),
    refundTo: expected("refund_to", openText<RefundTarget>()),
    // Absent in audit mode (the refund awaits an administrator): not worth a warning.
    /** `REFUND<digits>`; absent in `audit` mode. */
    refundOrderNo: optional("refund_order_no", nonEmptyText),
    refundMode: expected("refund_mode", openText<RefundMode>()),
    refundStatus: expected("refund_status", openInteger<RefundStatus>()),
    upstreamCancel: expected("upstream_cancel", upstreamCancel),
  },
  { tolerateNonObject: true },
);
