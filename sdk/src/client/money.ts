import type { Money } from "./types.js";

const DECIMAL = /^(-?)(\d+)(?:\.(\d*))?$/;

/**
 * Normalises an amount from the wire to a {@link Money} string with two
 * places, or returns `undefined` when it is not an amount.
 *
 * Strings are converted exactly (no float on the way), so `"0.10"` stays
 * `"0.10"`; more than two significant decimals is refused rather than
 * rounded, because rounding money silently hides a contract break. Numbers
 * (JSON floats such as `199.9`) are rounded to cents, which is exact for any
 * amount a service can mean.
 *
 * @example
 * toMoney("199") === "199.00"; toMoney(120.5) === "120.50"; toMoney("1.005") === undefined;
 */
export function toMoney(value: string | number): Money | undefined {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || Math.abs(value) >= 1e13) return undefined;
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
