import { caBrowserMaxDays } from "../../rules/lifetime.js";
import { KEY_SPECS_BY_ALGORITHM, keySpecFits, isSignatureAlgorithm } from "../../client/vocabulary.js";
import { checkInputs, type CheckedInputs } from "../shared/inputs.js";
import { INPUT_DECLARATIONS, INTERNAL_INPUTS, ORDER_INPUTS, RETIRED_INPUTS } from "./inputs.js";

/** Result of {@link normalizeOrder}. */
export type Normalized = CheckedInputs;

/**
 * Type checks, canonical forms and product-independent defaults for Order
 * inputs from their declarations (`inputs.ts`, through the shared
 * `checkInputs`), then the rules that relate two inputs and the refusal of
 * keys the Order does not take.
 *
 * @example
 * normalizeOrder({ productCode: "p", domain: "WWW.Example.com.", years: 2 }).values
 * // { productCode: "p", domain: "www.example.com", sanDomains: [], wildcardDomains: [], years: 2, months: 24, signatureAlgorithm: "rsa", ... }
 */
export function normalizeOrder(raw: Record<string, unknown>): Normalized {
  const { values, unknown, rejected, failures } = checkInputs(ORDER_INPUTS, raw);
  const fail = (property: string, reason: string) => failures.push({ property, reason });
  const present = (key: string) => raw[key] !== undefined && raw[key] !== null;

  // `check` computes the quote and the journal's plan afresh.
  for (const key of INTERNAL_INPUTS) if (present(key) && key !== "quotedPrice" && key !== "resumesOrderNo") values[key] = raw[key];

  const knownNumber = (key: string) => (!unknown.has(key) && typeof values[key] === "number" ? (values[key] as number) : undefined);
  const years = knownNumber("years");
  const months = knownNumber("months");
  if (years !== undefined && present("months") && months !== undefined && months !== years * 12) {
    fail(
      "years",
      `${years} years are ${years * 12} months but months is ${months}: the service uses months when both are given (spec 4.3 CreateOrder); give one`,
    );
  }
  const algorithm = values.signatureAlgorithm;
  const keySpec = values.keySpec;
  if (isSignatureAlgorithm(algorithm) && typeof keySpec === "string" && !unknown.has("keySpec") && !keySpecFits(algorithm, keySpec)) {
    const fitting = KEY_SPECS_BY_ALGORITHM[algorithm].map((spec) => JSON.stringify(spec)).join(", ");
    fail("keySpec", `${JSON.stringify(keySpec)} does not fit signatureAlgorithm ${JSON.stringify(algorithm)}; use one of ${fitting}`);
  }
  if (present("companyId") && present("companyInfo")) fail("companyInfo", "give either companyId or companyInfo, not both");
  const renew = knownNumber("renewBeforeDays");
  if (renew !== undefined && months !== undefined && renew >= months * 28) {
    fail("renewBeforeDays", `${renew} days is not shorter than the ${months}-month term; the order would be renewed at every update`);
  } else if (renew !== undefined && renew >= caBrowserMaxDays(new Date())) {
    // The window is measured on the certificate: a window as long as its lifetime opens at issuance.
    fail(
      "renewBeforeDays",
      `${renew} days is not shorter than a certificate issued today may live (${caBrowserMaxDays(new Date())} days, CA/Browser Forum ballot SC-081v3); ` +
        "renewal is measured on the current certificate's expiry, so the certificate would be reissued at every update",
    );
  }

  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined || value === null || key in ORDER_INPUTS || (INTERNAL_INPUTS as readonly string[]).includes(key)) continue;
    const retired = RETIRED_INPUTS[key];
    fail(key, retired ?? `is not an input of Order; inputs: ${INPUT_DECLARATIONS.map(([name]) => name).join(", ")}`);
  }
  return { values, unknown, rejected, failures };
}
