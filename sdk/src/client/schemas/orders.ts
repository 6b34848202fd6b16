import { z } from "zod";
import { boolish, certStatus, int, money, orderStatus, paymentMethod, refundStatus, verificationMethod, wireObject } from "./common.js";

// CreateOrder (seed 4.3) and CancelOrder (seed 2.6). CreateOrder's answer is
// read leniently beyond what the resource layer needs (order number, states,
// price): the account is already charged when it arrives, so a cosmetic
// difference must not turn a purchase into an error.

const price = wireObject({
  base_price: money,
  san_count: int,
  san_price: money,
  san_total: money.optional(),
  wildcard_count: int,
  wildcard_price: money,
  wildcard_total: money.optional(),
  discount: money,
  total: money,
});

export const createOrderResultSchema = wireObject({
  order_no: z.string().min(1),
  order_status: orderStatus,
  cert_status: certStatus,
  product_code: z.string().optional(),
  product_name: z.string().optional(),
  domain: z.string().optional(),
  san_domains: z.array(z.string()).optional(),
  wildcard_domains: z.array(z.string()).optional(),
  months: int.optional(),
  years: int.optional(),
  installments_count: int.optional(),
  signature_algorithm: z.string().optional(),
  key_spec: z.string().optional(),
  hash_algorithm: z.string().optional(),
  verification_method: verificationMethod.optional(),
  payment_method: paymentMethod.optional(),
  price,
  amount: money.optional(),
  balance_after: money.nullish(),
  credit_available_after: money.nullish(),
  paid_at: z.string().nullish(),
  created_at: z.string().nullish(),
});

const upstreamCancel = wireObject({ skipped: boolish, success: boolish, message: z.string().nullish() });

export const cancelOrderResultSchema = wireObject({
  order_no: z.string().min(1),
  order_status: orderStatus,
  cert_status: certStatus,
  refund_status: refundStatus,
  refund_mode: z.enum(["direct", "audit"]),
  refund_to: z.enum(["balance", "credit"]).nullish(),
  refund_amount: money.nullish().transform((v) => v ?? null),
  refund_order_no: z.string().nullish().transform((v) => v ?? null),
  upstream_cancel: upstreamCancel,
  cancelled_at: z.string().nullish(),
});
