import type { Product } from "../../client/types.js";
import { checkCompanyPresence } from "../../rules/company.js";
import { checkCustomCsr } from "../../rules/csr.js";
import { checkDomainType, checkNames } from "../../rules/domains.js";
import type { RuleFailure } from "../../rules/failure.js";
import { checkAlgorithms, checkTerm } from "../../rules/options.js";
import { quote, type Quote } from "../../money/price.js";
import type { OrderInputValues } from "./properties.generated.js";

/** Result of {@link checkOrder}. */
export interface OrderCheck {
  failures: RuleFailure[];
  /** What the rules could not judge, for preview warnings (never a failure). */
  warnings: string[];
  /** The price before any coupon, when product, term and names are known. */
  quote?: Quote;
}

/**
 * Every product-dependent and cross-field rule an Order's normalised inputs
 * are held to before money moves. `unknown` names the inputs that cannot be
 * judged (the preview placeholder, or a value already refused): the rules
 * that need them are skipped. With
 * `product` undefined (catalogue unreachable, or the product code unknown at
 * preview) only the product-independent rules run.
 *
 * @example
 * ```ts
 * const { values, unknown } = normalizeOrder(raw);
 * const { failures, warnings, quote } = await checkOrder(values as OrderInputValues, unknown, product);
 * ```
 */
export async function checkOrder(spec: OrderInputValues, unknown: ReadonlySet<string>, product: Product | undefined): Promise<OrderCheck> {
  const failures: RuleFailure[] = [];
  const warnings: string[] = [];
  const known = (...keys: (keyof OrderInputValues)[]) => !keys.some((key) => unknown.has(key));
  const namesKnown = known("domain", "sanDomains", "wildcardDomains") && typeof spec.domain === "string";
  let names: ReturnType<typeof checkNames> | undefined;
  if (namesKnown) {
    names = checkNames(spec);
    failures.push(...names.failures);
  }
  if (names && names.counts.wildcards > 0 && spec.verificationMethod === "file" && known("verificationMethod")) {
    // A file on one host cannot prove control of every name under a wildcard; CAs refuse it.
    failures.push({
      property: "verificationMethod",
      reason: `"file" validation cannot prove control of a wildcard name; use "dns", "cname" or an "email-…" method`,
    });
  }
  let result: Quote | undefined;
  if (product) {
    if (names && names.failures.length === 0) {
      const typed = checkDomainType(product, spec, names.counts);
      failures.push(...typed.failures);
      if (typed.unchecked) warnings.push(typed.unchecked);
    }
    if (known("companyId", "companyInfo")) failures.push(...checkCompanyPresence(product, spec));
    if (known("months", "years") && typeof spec.months === "number") {
      failures.push(...checkTerm(product, spec.months, spec.years !== undefined ? "years" : "months"));
    }
    if (known("signatureAlgorithm", "keySpec", "hashAlgorithm")) failures.push(...checkAlgorithms(product, spec));
    if (names && known("months", "years")) result = quote(product, spec.months, names.counts);
  }
  if (
    namesKnown &&
    typeof spec.customCsr === "string" &&
    known("customCsr", "signatureAlgorithm", "keySpec", "companyInfo") &&
    !failures.some((f) => f.property === "customCsr" || f.property === "keySpec" || f.property === "signatureAlgorithm")
  ) {
    failures.push(
      ...(await checkCustomCsr(spec.customCsr, {
        names: [spec.domain, ...spec.sanDomains, ...spec.wildcardDomains],
        signatureAlgorithm: spec.signatureAlgorithm,
        keySpec: spec.keySpec,
        companyName: spec.companyInfo?.companyName,
      })),
    );
  }
  return { failures, warnings, quote: result };
}
