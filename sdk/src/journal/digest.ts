import { createHash } from "node:crypto";
import { REPLACE_KEYS, type InputRecord, type OrderInputName } from "../resources/order/inputs.js";

/**
 * The inputs that make up a purchase: every input whose change replaces the
 * Order (`inputs.ts`), less `adoptOrderNo` (it names an order to take over
 * instead of buying, it is not something bought).
 */
export const PURCHASE_INPUTS: readonly OrderInputName[] = REPLACE_KEYS.filter((key) => key !== "adoptOrderNo");

/** JSON with object members sorted, so the same value always gives the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const members = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort();
    return `{${members.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * A SHA-256 of the purchase inputs of NORMALISED Order inputs (names
 * canonical and sorted, defaults filled, as `check` leaves them). The term
 * counts once, as `months`: normalisation fills `months` from `years` and
 * `check` holds the two to agree, and the declaration of `years` already
 * says `years: 2` and `months: 24` are the same purchase.
 *
 * @example
 * purchaseDigest({ productCode: "p", domain: "a.example", months: 12 }) === purchaseDigest({ productCode: "p", domain: "a.example", years: 1, months: 12 })
 */
export function purchaseDigest(inputs: InputRecord): string {
  const values: Record<string, unknown> = {};
  for (const key of PURCHASE_INPUTS) {
    if (key === "years" && typeof inputs.months === "number") continue;
    values[key] = inputs[key] ?? null;
  }
  return `sha256:${createHash("sha256").update(`certreseller-purchase-v1\n${canonicalJson(values)}`).digest("hex")}`;
}

/**
 * One short digest per purchase input, kept beside {@link purchaseDigest}
 * so that a refusal to resume can name WHAT changed without the journal
 * holding the values (company details, coupon codes).
 */
export function purchaseInputDigests(inputs: InputRecord): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const key of PURCHASE_INPUTS) {
    if (key === "years" && typeof inputs.months === "number") continue;
    digests[key] = createHash("sha256").update(`${key}\n${canonicalJson(inputs[key] ?? null)}`).digest("hex").slice(0, 12);
  }
  return digests;
}

/** The inputs whose digests differ: what a refusal to resume names. */
export function changedInputs(journaled: Readonly<Record<string, string>> | undefined, now: Readonly<Record<string, string>>): string[] {
  if (!journaled) return [];
  return [...new Set([...Object.keys(journaled), ...Object.keys(now)])].filter((key) => journaled[key] !== now[key]);
}
