import type { Money, Product } from "../client/types.js";
import type { NameCounts } from "../rules/domains.js";

/**
 * Money as integer cents: prices never pass through floating point.
 *
 * @example
 * toCents("199.9") === 19990
 */
export function toCents(money: Money | number | null | undefined): number {
  if (money === null || money === undefined) return 0;
  const text = typeof money === "number" ? money.toFixed(2) : money.trim();
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) throw new Error(`not a decimal amount: ${JSON.stringify(money)}`);
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "").padEnd(2, "0"));
  return match[1] === "-" ? -cents : cents;
}

/**
 * Integer cents back to a two-place decimal string.
 *
 * @example
 * fromCents(7) === "0.07"
 */
export function fromCents(cents: number): Money {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** How a quote was computed; mirrors CreateOrder's price breakdown (spec 4.3). */
export interface Quote {
  basePrice: Money;
  sanCount: number;
  sanPrice: Money;
  wildcardCount: number;
  wildcardPrice: Money;
  total: Money;
}

/**
 * What CreateOrder will charge before any coupon, in the terms of its
 * answer (spec 4.3): the term's base price (`unit_price`) covers the main
 * name, whatever its kind; each name of `sanDomains` costs the term's
 * `san_price` (`extra_san_count`), each name of `wildcardDomains` its
 * `wildcard_price` (`extra_wc_count`). Undefined when the product does not
 * sell the term.
 *
 * @example
 * ```ts
 * quote(product, 12, counts)?.total; // "140.00"
 * ```
 */
export function quote(product: Product, months: number, counts: NameCounts): Quote | undefined {
  const term = product.validYears.find((t) => t.months === months);
  if (!term) return undefined;
  const mainIsWildcard = counts.mainKind === "wildcard";
  const sanCount = Math.max(0, counts.fqdns + counts.ips - (mainIsWildcard ? 0 : 1));
  const wildcardCount = Math.max(0, counts.wildcards - (mainIsWildcard ? 1 : 0));
  const base = toCents(term.price);
  const san = toCents(term.sanPrice ?? product.sanPrice);
  const wildcard = toCents(term.wildcardPrice ?? product.wildcardPrice);
  return {
    basePrice: fromCents(base),
    sanCount,
    sanPrice: fromCents(san),
    wildcardCount,
    wildcardPrice: fromCents(wildcard),
    total: fromCents(base + sanCount * san + wildcardCount * wildcard),
  };
}
