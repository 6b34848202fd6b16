/**
 * Money is kept in integer cents so that charges and refunds add up exactly.
 * The Partner API sends it as a JSON number (spec 2.1, 2.6, 4.3); the
 * management API keeps decimal strings with two places.
 */
export type Cents = number;

/** Cents as the JSON number the Partner API sends (`12345` → `123.45`). */
export function toAmount(cents: Cents): number {
  return cents / 100;
}

export function formatMoney(cents: Cents): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** Parses `"12.34"` or `12.34` into cents; undefined when it is not a non-negative amount with at most two decimals. */
export function parseMoney(value: unknown): Cents | undefined {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : undefined;
  if (text === undefined || !/^\d+(\.\d{1,2})?$/.test(text)) return undefined;
  const [whole, frac = ""] = text.split(".");
  return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
}
