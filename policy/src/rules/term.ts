import type { TermConfig } from "../config";
import type { OrderFacts } from "../order";

/** Violations of the maximum term. */
export function checkTerm(order: OrderFacts, config: TermConfig): string[] {
  return order.months > config.maxMonths
    ? [`months ${order.months} exceeds the maximum term of ${config.maxMonths} months.`]
    : [];
}
