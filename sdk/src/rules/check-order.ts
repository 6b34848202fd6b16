import type { Product } from "../client/types.js";
import { checkCompanyPresence } from "./company.js";
import { checkCustomCsr } from "./csr.js";
import { checkDomainType, checkNames } from "./domains.js";
import type { RuleFailure } from "./failure.js";
import { normalizeOrder } from "./normalize.js";
import { checkAlgorithms, checkMethod, checkTerm } from "./options.js";
import { quote, type Quote } from "./price.js";
import type { OrderSpec } from "./spec.js";

/** Result of {@link checkOrder}. */
export interface OrderCheck {
  /** Normalised inputs (placeholders kept) with product defaults applied. */
  values: Record<string, unknown>;
  failures: RuleFailure[];
  /** The price before any coupon, when product, term and names are known. */
  quote?: Quote;
}

/**
 * Every rule an Order's inputs can be held to before money moves. With
 * `product` undefined (catalogue unreachable, or the product code unknown at
 * preview) only the product-independent rules run.
 *
 * @example
 * ```ts
 * const { failures, quote } = await checkOrder(inputs, product);
 * ```
 */
export async function checkOrder(raw: Record<string, unknown>, product: Product | undefined): Promise<OrderCheck> {
  const { values, unknown, failures } = normalizeOrder(raw);
  const namesKnown = !["domain", "sanDomains", "wildcardDomains"].some((key) => unknown.has(key)) && typeof values.domain === "string";
  const spec = values as unknown as OrderSpec;
  let names: ReturnType<typeof checkNames> | undefined;
  if (namesKnown) {
    names = checkNames(spec);
    failures.push(...names.failures);
  }
  if (names && names.counts.wildcards > 0 && (spec.verificationMethod === "file" || spec.verificationMethod === "https") && !unknown.has("verificationMethod")) {
    // A file on one host cannot prove control of every name under a wildcard; CAs refuse it.
    failures.push({ property: "verificationMethod", reason: `${JSON.stringify(spec.verificationMethod)} validation cannot prove control of a wildcard name; use "dns", "cname" or "email"` });
  }
  let result: Quote | undefined;
  if (product) {
    if (values.verificationMethod === undefined && product.defaultVerificationMethod !== undefined) {
      values.verificationMethod = product.defaultVerificationMethod;
    }
    if (names && names.failures.length === 0) failures.push(...checkDomainType(product, spec, names.counts));
    if (!unknown.has("companyId") && !unknown.has("companyInfo")) failures.push(...checkCompanyPresence(product, spec));
    if (!unknown.has("months") && typeof spec.months === "number") failures.push(...checkTerm(product, spec.months));
    if (!["signatureAlgorithm", "keySpec", "hashAlgorithm"].some((key) => unknown.has(key))) failures.push(...checkAlgorithms(product, spec));
    if (!unknown.has("verificationMethod")) failures.push(...checkMethod(product, spec.verificationMethod));
    if (names && !unknown.has("months")) result = quote(product, spec.months, names.counts);
  }
  if (
    namesKnown &&
    typeof spec.customCsr === "string" &&
    !["customCsr", "signatureAlgorithm", "keySpec", "companyInfo"].some((key) => unknown.has(key)) &&
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
  return { values, failures, quote: result };
}
