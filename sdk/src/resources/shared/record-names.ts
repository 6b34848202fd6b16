import type { RecordSet } from "../../client/types.js";
import { canonicalName } from "../../rules/index.js";

/**
 * The names GetRecord says an order covers (`all_domains`, else main + SANs +
 * wildcards): canonical, each once, sorted. Empty when the answer lists none
 * (an order not submitted yet).
 *
 * @example
 * recordNames(await api.getRecord({ orderNo })) // ["example.com", "www.example.com"]
 */
export function recordNames(stored: Pick<RecordSet, "allDomains" | "mainDomain" | "sansDomains" | "wildcardDomains">): string[] {
  const listed = stored.allDomains.length > 0 ? stored.allDomains : [stored.mainDomain, ...stored.sansDomains, ...stored.wildcardDomains].filter((n) => n !== "");
  return [...new Set(listed.map(canonicalName))].sort();
}
