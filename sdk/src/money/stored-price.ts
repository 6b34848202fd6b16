/**
 * The Order's `price` output: taken from CreateOrder's answer, stored
 * without its zero members, and read back with them as zero by the class.
 */
import type { CreateOrderResult, Money } from "../client/types.js";

/**
 * What an order cost, from CreateOrder's answer (spec 4.3), as stored in the
 * Order's `price` output. Each member is absent when the answer lacked it.
 *
 * | member | from |
 * |---|---|
 * | `basePrice` | `unit_price` |
 * | `sanCount`, `sanPrice` | `extra_san_count`, `san_price` |
 * | `wildcardCount`, `wildcardPrice` | `extra_wc_count`, `wildcard_price` |
 * | `discount` | `discount_amount` |
 * | `total` | `payable_amount`, else `total_amount` |
 *
 * @example
 * ```ts
 * export const charged = order.price.apply((p) => p?.total); // "140.00"
 * ```
 */
export interface OrderPriceState {
  basePrice?: Money;
  sanCount?: number;
  sanPrice?: Money;
  wildcardCount?: number;
  wildcardPrice?: Money;
  discount?: Money;
  total?: Money;
}

/** Members a price may leave out in state: {@link expandPrice} reads them as zero. */
const ZERO_MEMBERS: Required<Pick<OrderPriceState, "sanCount" | "sanPrice" | "wildcardCount" | "wildcardPrice" | "discount">> = { sanCount: 0, sanPrice: "0.00", wildcardCount: 0, wildcardPrice: "0.00", discount: "0.00" };

const isZero = (value: unknown) => value === 0 || (typeof value === "string" && /^0+(\.0+)?$/.test(value));

/**
 * The price as stored: without its zero members (most orders have no extra
 * names and no discount). The engine rewrites the whole checkpoint after
 * every step, so every stored key costs time in large stacks.
 */
export function storedPrice(price: OrderPriceState): OrderPriceState {
  return Object.fromEntries(Object.entries(price).filter(([key, value]) => !(key in ZERO_MEMBERS && isZero(value)))) as OrderPriceState;
}

/**
 * The price as the Order class shows it: every member present, those the
 * state leaves out (zero, or not in the answer) as zero. Undefined stays
 * undefined (an adopted order has no price).
 *
 * @example
 * ```ts
 * expandPrice({ basePrice: "100.00", total: "100.00" });
 * // { sanCount: 0, sanPrice: "0.00", wildcardCount: 0, wildcardPrice: "0.00", discount: "0.00", basePrice: "100.00", total: "100.00" }
 * ```
 */
export function expandPrice(price: OrderPriceState | undefined): OrderPriceState | undefined {
  return price === undefined || price === null ? undefined : { ...ZERO_MEMBERS, ...price };
}

/**
 * The Order's `price` from CreateOrder's answer; undefined when the answer
 * carried none of it.
 *
 * @example
 * priceFrom({ orderNo: "CERT1", unitPrice: "100.00", payableAmount: "90.00" }) // { basePrice: "100.00", total: "90.00" }
 */
export function priceFrom(created: CreateOrderResult): OrderPriceState | undefined {
  const price: OrderPriceState = {
    basePrice: created.unitPrice,
    sanCount: created.extraSanCount,
    sanPrice: created.sanPrice,
    wildcardCount: created.extraWcCount,
    wildcardPrice: created.wildcardPrice,
    discount: created.discountAmount,
    total: created.payableAmount ?? created.totalAmount,
  };
  const present = Object.fromEntries(Object.entries(price).filter(([, v]) => v !== undefined)) as OrderPriceState;
  return Object.keys(present).length > 0 ? storedPrice(present) : undefined;
}
