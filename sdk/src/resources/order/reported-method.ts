import type { Open, VerificationMethod } from "../../client/types.js";
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
