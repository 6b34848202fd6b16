/**
 * Digests of a purchase, so that a resumed create can tell the purchase it
 * journaled from another one.
 *
 * The journal does not know the Order's inputs: which of them make up a
 * purchase is the Order's to say (`purchaseInputsOf` in
 * `resources/order/journal-entry.ts`), and its callers pass that list in.
 */
import { createHash } from "node:crypto";

/** Inputs as the Order holds them (normalised), by input name. */
export type PurchaseInputs = Readonly<Record<string, unknown>>;

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
 * canonical and sorted, defaults filled, as `check` leaves them).
 * `purchaseInputs` names the inputs that make up the purchase (the Order's
 * `purchaseInputsOf(inputs)`); an absent one counts as `null`.
 *
 * @example
 * purchaseDigest({ productCode: "p", domain: "a.example", months: 12 }, ["productCode", "domain", "months"])
 */
export function purchaseDigest(inputs: PurchaseInputs, purchaseInputs: readonly string[]): string {
  const values: Record<string, unknown> = {};
  for (const key of purchaseInputs) values[key] = inputs[key] ?? null;
  return `sha256:${createHash("sha256").update(`certreseller-purchase-v1\n${canonicalJson(values)}`).digest("hex")}`;
}

/**
 * One short digest per purchase input, kept beside {@link purchaseDigest}
 * so that a refusal to resume can name WHAT changed without the journal
 * holding the values (company details, coupon codes).
 */
export function purchaseInputDigests(inputs: PurchaseInputs, purchaseInputs: readonly string[]): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const key of purchaseInputs) {
    digests[key] = createHash("sha256").update(`${key}\n${canonicalJson(inputs[key] ?? null)}`).digest("hex").slice(0, 12);
  }
  return digests;
}

/** The inputs whose digests differ: what a refusal to resume names. */
export function changedInputs(journaled: Readonly<Record<string, string>> | undefined, now: Readonly<Record<string, string>>): string[] {
  if (!journaled) return [];
  return [...new Set([...Object.keys(journaled), ...Object.keys(now)])].filter((key) => journaled[key] !== now[key]);
}
