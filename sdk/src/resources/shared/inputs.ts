/**
 * The check and diff every resource derives from its declaration
 * (`schema/property.ts`): each input's `parse` (else its declared type),
 * `fallback`, `required`,
 * `same` and `change`. A resource's own `check` / `diff` adds only what no
 * single property can say (a rule relating two inputs, a read of the service).
 */
import { containsUnknown, UNKNOWN } from "../../provider/unknown.js";
import { parseDeclared, providerInputs, sameValue, type InputFailure, type InputRecord, type PropertyTable } from "../../schema/property.js";

/** Result of {@link checkInputs}. */
export interface CheckedInputs {
  /** The declared inputs in canonical form with their fallbacks; unknown values kept as the placeholder. */
  values: Record<string, unknown>;
  /** Input names whose value is not known yet (preview). */
  unknown: Set<string>;
  /** Input names whose value was refused (a failure names each): rules that need them are skipped, not failed twice. */
  rejected: Set<string>;
  failures: InputFailure[];
}

/**
 * Checks and canonicalises each declared input of `raw` (the engine's inputs:
 * anything may be the preview placeholder, and a program in plain JavaScript
 * may send any type). Absent means undefined or null.
 *
 * @example
 * checkInputs(ORDER_INPUTS, { productCode: "p", domain: "WWW.Example.com." }).values.domain // "www.example.com"
 */
export function checkInputs(table: PropertyTable, raw: InputRecord): CheckedInputs {
  const values: Record<string, unknown> = {};
  const unknown = new Set<string>();
  const rejected = new Set<string>();
  const failures: InputFailure[] = [];
  for (const [key, declaration] of providerInputs(table)) {
    const value = raw[key];
    if (value === undefined || value === null) {
      if (declaration.required) failures.push({ property: key, reason: declaration.missing ?? "is required" });
      else if (declaration.fallback) {
        const filled = declaration.fallback(values, unknown);
        if (filled === UNKNOWN) unknown.add(key);
        if (filled !== undefined) values[key] = filled;
      }
      continue;
    }
    if (containsUnknown(value)) {
      unknown.add(key);
      values[key] = value;
      continue;
    }
    const parsed = parseDeclared(declaration, value, key);
    if (parsed.failures) {
      failures.push(...parsed.failures);
      rejected.add(key);
    } else values[key] = parsed.value;
  }
  return { values, unknown, rejected, failures };
}

/** Result of {@link changedInputs}: declared inputs whose change replaces, and those updated in place. */
export interface ChangedInputs {
  replaces: string[];
  updates: string[];
}

/**
 * The inputs that differ between the old outputs and the new (checked)
 * inputs, by each one's `same` rule, sorted by what their `change` does; a
 * value not known yet counts as changed. Inputs that change nothing are not
 * compared.
 *
 * @example
 * changedInputs(RFC2136_RECORD_PROPERTIES, olds, { ...olds, ttl: 300 }) // { replaces: [], updates: ["ttl"] }
 */
export function changedInputs(table: PropertyTable, olds: InputRecord, news: InputRecord): ChangedInputs {
  const result: ChangedInputs = { replaces: [], updates: [] };
  for (const [key, declaration] of providerInputs(table)) {
    if (declaration.change !== "replace" && declaration.change !== "update") continue;
    if (!containsUnknown(news[key]) && sameValue(declaration, olds[key], news[key], olds, news)) continue;
    (declaration.change === "replace" ? result.replaces : result.updates).push(key);
  }
  return result;
}
