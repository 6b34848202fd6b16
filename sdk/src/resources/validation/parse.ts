/** Parse rules of the Validation's inputs (see `declaration.ts`). */
import { VERIFICATION_METHODS } from "../../client/vocabulary.js";
import { normaliseName } from "../../rules/names.js";
import { bad, ok } from "../../schema/parse.js";
import type { InputFailure, Parsed } from "../../schema/property.js";

/**
 * The spec 4.5 codes, plus `email`: the Order's method output is what
 * ApplySign answered, and the service may answer `email` for any e-mail method.
 */
const METHODS: readonly string[] = [...VERIFICATION_METHODS, "email"];

export const MISSING_ORDER_NO = "orderNo is required: pass `order` (an Order resource) or the order number";
export const MISSING_DOMAINS = "domains must list the ordered names (at least the main domain)";

export const parseValidationInput = {
  orderNo: (value: unknown): Parsed => (typeof value === "string" && value.trim() !== "" ? ok(value.trim()) : bad("orderNo", MISSING_ORDER_NO)),
  /** Each name normalised, each listed once (names are case-insensitive); a failure names the entry. */
  domains(value: unknown): Parsed {
    if (!Array.isArray(value) || value.length === 0) return bad("domains", MISSING_DOMAINS);
    const failures: InputFailure[] = [];
    const seen = new Set<string>();
    const names: string[] = [];
    value.forEach((d: unknown, i) => {
      if (typeof d !== "string" || d.trim() === "") return void failures.push({ property: `domains[${i}]`, reason: "each domain must be a non-empty string" });
      const norm = normaliseName(d);
      if (seen.has(norm)) return void failures.push({ property: `domains[${i}]`, reason: `"${d}" is listed twice (names are case-insensitive)` });
      seen.add(norm);
      names.push(norm);
    });
    return failures.length > 0 ? { failures } : ok(names);
  },
  /** An Order whose method the service has not reported yet gives an empty string: unset. */
  method(value: unknown): Parsed {
    if (value === "") return ok(undefined);
    if (METHODS.includes(String(value))) return ok(value);
    const https = value === "https" ? " (there is no https method: file validation is served over http, method file)" : "";
    return bad("method", `method must be one of ${VERIFICATION_METHODS.join(", ")}; got "${String(value)}"${https}`);
  },
  requestId: (value: unknown): Parsed => (typeof value === "string" ? ok(value) : bad("requestId", "requestId must be a string")),
} as const;
