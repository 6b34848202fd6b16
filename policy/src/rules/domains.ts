import type { DomainsConfig } from "../config";
import type { OrderFacts } from "../order";

/** The name a wildcard covers (`*.example.com` -> `example.com`), lower-cased. */
function baseName(name: string): string {
  return (name.startsWith("*.") ? name.slice(2) : name).toLowerCase().replace(/\.$/, "");
}

/**
 * True when `name` equals `suffix` or lies under it (label boundary respected).
 *
 * @example
 * ```ts
 * underSuffix("*.api.example.com", "example.com"); // true
 * underSuffix("badexample.com", "example.com");    // false
 * ```
 */
export function underSuffix(name: string, suffix: string): boolean {
  const base = baseName(name);
  const s = suffix.toLowerCase().replace(/^\*?\./, "").replace(/\.$/, "");
  return base === s || base.endsWith(`.${s}`);
}

/**
 * Violations of the domain allow-list: one message naming every name outside it.
 *
 * @example
 * ```ts
 * checkDomains(readOrder({ domain: "shop.example.org" }), { allowedSuffixes: ["example.com"] });
 * // ['"shop.example.org" is outside the allowed domain suffixes (example.com).']
 * ```
 */
export function checkDomains(order: OrderFacts, config: DomainsConfig): string[] {
  const suffixes = config.allowedSuffixes;
  if (suffixes.length === 0) return [];
  const outside = order.names.filter((name) => !suffixes.some((s) => underSuffix(name, s)));
  return outside.length === 0
    ? []
    : [`${outside.map((n) => `"${n}"`).join(", ")} ${outside.length === 1 ? "is" : "are"} outside the allowed domain suffixes (${suffixes.join(", ")}).`];
}
