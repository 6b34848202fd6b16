import type { HashAlgorithm, KeySpec, Product, SignatureAlgorithm } from "../client/types.js";
import type { RuleFailure } from "./failure.js";

const list = (values: readonly (string | number)[]): string => values.map((v) => JSON.stringify(v)).join(", ");

/**
 * Term: one the product sells (`valid_years[].months`). The property named
 * is the one the program set: `years` when it gave only years.
 *
 * @example
 * checkTerm(product, 7) // [{ property: "months", reason: "p is not sold for 7 months; available terms: 12, 24" }]
 */
export function checkTerm(product: Product, months: number, property: "months" | "years" = "months"): RuleFailure[] {
  const terms = product.validYears.map((term) => term.months);
  if (terms.length === 0 || terms.includes(months)) return [];
  return [{ property, reason: `${product.productCode} is not sold for ${months} months; available terms (months): ${list(terms)}` }];
}

/**
 * Signature algorithm, key spec and hash: ones the product supports. A
 * product whose list is empty says nothing either way and is not judged.
 *
 * @example
 * checkAlgorithms(rsaOnlyProduct, { signatureAlgorithm: "ecc", keySpec: "p-256", hashAlgorithm: "sha256" })
 * // [{ property: "signatureAlgorithm", reason: 'p does not support "ecc"; supported: "rsa"' }]
 */
export function checkAlgorithms(product: Product, spec: { signatureAlgorithm: SignatureAlgorithm; keySpec: KeySpec; hashAlgorithm: HashAlgorithm }): RuleFailure[] {
  const failures: RuleFailure[] = [];
  if (product.signatureAlgorithms.length > 0) {
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
  }
  if (product.hashAlgorithms.length > 0 && !product.hashAlgorithms.some((h) => h.code === spec.hashAlgorithm)) {
    failures.push({
      property: "hashAlgorithm",
      reason: `${product.productCode} does not support ${JSON.stringify(spec.hashAlgorithm)}; supported: ${list(product.hashAlgorithms.map((h) => h.code))}`,
    });
  }
  return failures;
}
