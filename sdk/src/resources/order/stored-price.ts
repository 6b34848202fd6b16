/**
 * The Order's `price` output as stored and as shown: zero members are left
 * out of state and read back as zero by the class.
 */
import type { OrderPriceState } from "./types.js";

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
