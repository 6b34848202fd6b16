import { emailSuffixOf } from "../../client/vocabulary.js";

/**
 * True when two verification method codes name the same method. The service
 * may answer plain `email` for any of the `email-…` methods (spec 4.5), which
 * must not read as a change (a perpetual diff): `email` agrees with each of
 * them. The Order compares the method it asked for with the one reported;
 * the Validation compares the method it follows with the service's.
 *
 * @example
 * sameMethod("email", "email-hostmaster") === true
 * sameMethod("dns", "cname") === false
 */
export function sameMethod(reported: unknown, wanted: unknown): boolean {
  if (reported === wanted) return true;
  const email = (m: unknown) => typeof m === "string" && emailSuffixOf(m) !== undefined;
  return (reported === "email" && email(wanted)) || (wanted === "email" && email(reported));
}
