import type { TermConfig } from "../config";
import type { OrderFacts } from "../order";

/**
 * Violations of the maximum term.
 *
 * @example
 * ```ts
 * checkTerm(readOrder({ months: 24 }), { maxMonths: 12 }); // ["months 24 exceeds the maximum term of 12 months."]
 * ```
 */
export function checkTerm(order: OrderFacts, config: TermConfig): string[] {
  return order.months > config.maxMonths
    ? [`months ${order.months} exceeds the maximum term of ${config.maxMonths} months.`]
    : [];
}
