/**
 * One problem with an input, in the engine's `CheckFailure` shape: the
 * engine prints `property <property> ... has a problem: <reason>` and fails
 * the preview before anything is bought.
 */
export interface RuleFailure {
  /** The input at fault, as the user spells it (`sanDomains`, `companyInfo.country`). */
  property: string;
  /** The rule that was broken, in words, with the offending value where useful. */
  reason: string;
}
