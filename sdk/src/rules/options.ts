import type { Product } from "../client/types.js";
import type { RuleFailure } from "./failure.js";
import type { OrderSpec } from "./spec.js";

const list = (values: readonly (string | number)[]): string => values.map((v) => JSON.stringify(v)).join(", ");

/** Term: one the product sells. */
export function checkTerm(product: Product, months: number): RuleFailure[] {
  const terms = product.validYears.map((term) => term.months);
  return terms.includes(months)
    ? []
    : [{ property: "months", reason: `${product.productCode} is not sold for ${months} months; available terms: ${list(terms)}` }];
}

/** Signature algorithm, key spec and hash: ones the product supports. */
export function checkAlgorithms(product: Product, spec: Pick<OrderSpec, "signatureAlgorithm" | "keySpec" | "hashAlgorithm">): RuleFailure[] {
  const failures: RuleFailure[] = [];
  const algorithm = product.signatureAlgorithms.find((a) => a.code === spec.signatureAlgorithm);
  if (!algorithm) {
    failures.push({
      property: "signatureAlgorithm",
      reason: `${product.productCode} does not support ${JSON.stringify(spec.signatureAlgorithm)}; supported: ${list(product.signatureAlgorithms.map((a) => a.code))}`,
    });
  } else if (algorithm.encryptionStrengths.length > 0 && !algorithm.encryptionStrengths.some((s) => s.code === spec.keySpec)) {
    failures.push({
      property: "keySpec",
      reason: `${product.productCode} does not support ${JSON.stringify(spec.keySpec)} with ${spec.signatureAlgorithm}; supported: ${list(algorithm.encryptionStrengths.map((s) => s.code))}`,
    });
  }
  if (!product.hashAlgorithms.some((h) => h.code === spec.hashAlgorithm)) {
    failures.push({
      property: "hashAlgorithm",
      reason: `${product.productCode} does not support ${JSON.stringify(spec.hashAlgorithm)}; supported: ${list(product.hashAlgorithms.map((h) => h.code))}`,
    });
  }
  return failures;
}

/** Verification method: one the product supports (when the product lists them). */
export function checkMethod(product: Product, method: string | undefined): RuleFailure[] {
  const supported = product.verificationMethods?.map((m) => m.code);
  if (method === undefined || supported === undefined || supported.includes(method)) return [];
  return [
    {
      property: "verificationMethod",
      reason: `${product.productCode} does not support ${JSON.stringify(method)} validation; supported: ${list(supported)}`,
    },
  ];
}
