import type { Open, VerificationMethod } from "../../client/types.js";
import { isVerificationMethod } from "../../client/vocabulary.js";
import { sameMethod } from "../shared/verification-method.js";

/**
 * The method to keep after an answer: the service may say plain `email` for
 * an `email-…` method the program asked for, which is kept as asked.
 *
 * @example
 * reportedMethod("email", "email-admin") === "email-admin"
 */
export function reportedMethod(reported: Open<VerificationMethod> | undefined, wanted: Open<VerificationMethod> | undefined) {
  if (reported === undefined) return wanted;
  return wanted !== undefined && sameMethod(reported, wanted) ? wanted : reported;
}

/**
 * The `verificationMethod` input an imported order is declared with: the
 * reported method when it is a code the input takes. Plain `email` (what the
 * service reports for every `email-…` method) names no mailbox, and the input
 * refuses it, so the input stays unset: unset keeps the order's method, and
 * the output still reports it.
 *
 * @example
 * importedMethod("dns") === "dns"
 * importedMethod("email") === undefined
 */
export function importedMethod(reported: Open<VerificationMethod> | undefined): VerificationMethod | undefined {
  return isVerificationMethod(reported) ? reported : undefined;
}
