/**
 * Parse rules for declared inputs (a property's `parse`): each checks one
 * present value and gives its canonical form, or a failure naming the
 * property and the rule.
 */
import type { Parsed } from "./property.js";

export const ok = (value: unknown): Parsed => ({ value });
export const bad = (property: string, reason: string): Parsed => ({ failures: [{ property, reason }] });
export const quoted = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(", ");

/** A non-empty string, trimmed. @example text("product code")(" p ", "productCode") // { value: "p" } */
export function text(what: string) {
  return (value: unknown, property: string): Parsed =>
    typeof value === "string" && value.trim() !== "" ? ok(value.trim()) : bad(property, `must be a non-empty ${what}`);
}

/** One code of a closed list, trimmed and lower case. */
export function oneOf(allowed: readonly string[]) {
  return (value: unknown, property: string): Parsed => {
    const code = typeof value === "string" ? value.trim().toLowerCase() : value;
    return typeof code === "string" && allowed.includes(code) ? ok(code) : bad(property, `must be one of ${quoted(allowed)}, got ${JSON.stringify(value)}`);
  };
}

/** A whole number within bounds. */
export function integer(min: number, max: number) {
  return (value: unknown, property: string): Parsed =>
    typeof value === "number" && Number.isInteger(value) && value >= min && value <= max
      ? ok(value)
      : bad(property, `must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
}

export function flag(value: unknown, property: string): Parsed {
  return typeof value === "boolean" ? ok(value) : bad(property, `must be true or false, got ${JSON.stringify(value)}`);
}
