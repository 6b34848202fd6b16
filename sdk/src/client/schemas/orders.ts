import type { PaymentMethod, RefundMode, RefundStatus, RefundTarget } from "../vocabulary.js";
import { boolean, expected, integer, money, nonEmptyText, object, openInteger, openText, optional, required, text } from "./read.js";

// CreateOrder (spec 4.3) and CancelOrder (spec 2.6, 4.7). Both answers
// arrive after money moved: the account is charged, or the refund is made.
// So an answer is a success as soon as it can say which order: every other
// field is `expected` — read when it is there and readable, otherwise
// reported to the logger and left out, never failing the call.

export const createOrderResult = object({
  /** `CERT<digits>`. */
  orderNo: required(nonEmptyText),
  totalAmount: expected(money),
  discountAmount: expected(money),
  payableAmount: expected(money),
  unitPrice: expected(money),
  sanPrice: expected(money),
  wildcardPrice: expected(money),
  extraSanCount: expected(integer),
  extraWcCount: expected(integer),
  /** How many certificates the order holds (more than 1 when the term exceeds one certificate's lifetime). */
  installmentsCount: expected(integer),
  totalDomains: expected(integer),
  years: expected(integer),
  months: expected(integer),
  paymentMethod: expected(openText<PaymentMethod>()),
  deductAmount: expected(money),
  isCustomCsr: expected(boolean),
});

/** `upstream_cancel`: the cancel at the upstream certificate provider. */
export const upstreamCancel = object({
  success: expected(boolean),
  /** Name of the upstream certificate provider. */
  provider: expected(text),
  message: expected(text),
  upstreamCode: expected(text),
  /** True when nothing had been sent upstream, so there was nothing to cancel. */
  skipped: expected(boolean),
});

/**
 * CancelOrder's answer. `orderNo` may be missing from it: the client then
 * uses the order it asked to cancel (see partner-client.ts).
 */
export const cancelOrderResult = object(
  {
    orderNo: expected(nonEmptyText),
    refundId: expected(integer),
    refundAmount: expected(money),
    refundTo: expected(openText<RefundTarget>()),
    // Absent in audit mode (the refund awaits an administrator): not worth a warning.
    /** `REFUND<digits>`; absent in `audit` mode. */
    refundOrderNo: optional(nonEmptyText),
    refundMode: expected(openText<RefundMode>()),
    refundStatus: expected(openInteger<RefundStatus>()),
    upstreamCancel: expected(upstreamCancel),
  },
  { tolerateNonObject: true },
);
