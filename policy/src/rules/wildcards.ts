import type { WildcardsConfig } from "../config";
import { isWildcard, type OrderFacts } from "../order";

/**
 * Violations of the wildcard ban (when wildcards are not allowed).
 *
 * @example
 * ```ts
 * checkWildcards(readOrder({ domain: "*.example.com" }), { allowWildcards: false });
 * // ["wildcard names are not allowed in this stack: *.example.com."]
 * ```
 */
export function checkWildcards(order: OrderFacts, config: WildcardsConfig): string[] {
  if (config.allowWildcards) return [];
  const wildcards = order.names.filter(isWildcard);
  return wildcards.length === 0 ? [] : [`wildcard names are not allowed in this stack: ${wildcards.join(", ")}.`];
}
