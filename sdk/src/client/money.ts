/**
 * A monetary amount as a decimal string with exactly two places.
 *
 * The specification sends amounts as JSON numbers (`120`, `120.5`); a
 * string (`"120.50"`) is accepted too. Both are normalised to `"120.50"`, so
 * money never goes through float arithmetic beyond reading the number.
 *
 * @example
 * const total: Money | undefined = order.totalAmount; // "120.00"
 */
export type Money = string;

const DECIMAL = /^(-?)(\d+)(?:\.(\d*))?$/;

/**
 * Normalises an amount from the wire to a {@link Money} string with two
 * places, or returns `undefined` when it is not an amount.
 *
 * Strings are converted exactly (no float on the way), so `"0.10"` stays
 * `"0.10"`. Numbers — the specification's form — are taken to the cent they
 * denote: a JSON number such as `120.5` or `0.30000000000000004` (float
 * noise from a service's own arithmetic) is `"120.50"` / `"0.30"`. Either
 * way, an amount with more than two significant decimals (`"1.005"`,
 * `1.005`) is refused rather than rounded, because rounding money silently
 * hides a contract break.
 *
 * @example
 * toMoney("199") === "199.00"; toMoney(120.5) === "120.50"; toMoney("1.005") === undefined; toMoney(0.125) === undefined;
 */
export function toMoney(value: string | number): Money | undefined {
  if (typeof value === "number") {
    // Beyond 1e11 a double cannot tell whole cents from half cents reliably enough.
    if (!Number.isFinite(value) || Math.abs(value) >= 1e11) return undefined;
    const cents = value * 100;
    // Within float noise of a whole cent, or not a cent amount at all.
    const noise = Math.max(1e-6, 8 * Number.EPSILON * Math.abs(cents));
    if (Math.abs(cents - Math.round(cents)) > noise) return undefined;
    const fixed = value.toFixed(2);
    return fixed === "-0.00" ? "0.00" : fixed;
  }
  const match = DECIMAL.exec(value.trim());
  if (!match) return undefined;
  const [, sign = "", whole = "", fraction = ""] = match;
  const significant = fraction.replace(/0+$/, "");
  if (significant.length > 2) return undefined;
  const cents = significant.padEnd(2, "0");
  const integer = whole.replace(/^0+(?=\d)/, "");
  const negative = sign === "-" && !(/^0+$/.test(integer) && cents === "00");
  return `${negative ? "-" : ""}${integer}.${cents}`;
}
