import type { OrderPriceConfig, StackPriceConfig } from "../config";
import type { OrderFacts } from "../order";

const money = (n: number) => n.toFixed(2);

/**
 * Violations of the per-Order price cap. Adopted orders spend nothing.
 *
 * @example
 * ```ts
 * checkOrderPrice(readOrder({ quotedPrice: "1200.00" }), { maxOrderPrice: 1000, requireQuotedPrice: false });
 * // ["quotedPrice 1200.00 exceeds the per-order maximum of 1000.00."]
 * ```
 */
export function checkOrderPrice(order: OrderFacts, config: OrderPriceConfig): string[] {
  if (order.adopted) return [];
  if (order.price === undefined) {
    return config.requireQuotedPrice
      ? ["quotedPrice is missing: the provider could not quote this Order at preview (is the API reachable?), and this stack requires a quote."]
      : [];
  }
  return order.price > config.maxOrderPrice
    ? [`quotedPrice ${money(order.price)} exceeds the per-order maximum of ${money(config.maxOrderPrice)}.`]
    : [];
}

/** One Order of the stack, as the stack policy sees it. */
export interface StackOrder {
  name: string;
  order: OrderFacts;
}

/**
 * Violations of the per-stack cap: the sum of the prices of every Order the
 * stack declares (quoted for new ones, paid for existing ones; adopted orders
 * count nothing), i.e. a budget for what the stack holds.
 *
 * @example
 * ```ts
 * checkStackPrice([{ name: "a", order: readOrder({ quotedPrice: "3000" }) }, { name: "b", order: readOrder({ quotedPrice: "2500" }) }], { maxStackPrice: 5000 });
 * // ["Orders in this stack total 5500.00, above the stack maximum of 5000.00 (a 3000.00, b 2500.00)."]
 * ```
 */
export function checkStackPrice(orders: StackOrder[], config: StackPriceConfig): string[] {
  const priced = orders.filter((o) => !o.order.adopted && o.order.price !== undefined);
  const total = priced.reduce((sum, o) => sum + o.order.price!, 0);
  if (total <= config.maxStackPrice) return [];
  const parts = priced.map((o) => `${o.name} ${money(o.order.price!)}`).join(", ");
  return [`Orders in this stack total ${money(total)}, above the stack maximum of ${money(config.maxStackPrice)} (${parts}).`];
}
