import type { CertificateInputValues } from "./properties.generated.js";

/** Default wait for issuance: DV validation usually completes within a few status cooldowns. */
export const DEFAULT_TIMEOUT_MINUTES = 60;
/** A week: longer waits belong in a later `up`, not in one blocked process. */
export const MAX_TIMEOUT_MINUTES = 7 * 24 * 60;

/** Default wait for the validation records to be visible in DNS: propagation inside a provider's network takes seconds to minutes. */
export const DEFAULT_PROPAGATION_MINUTES = 10;
/** A day: a record not visible after that is not propagating, it is missing. */
export const MAX_PROPAGATION_MINUTES = 24 * 60;

/**
 * What the Certificate's handlers receive after `check`: the declared inputs
 * plus what the class adds (internal, not declared, as the Order's `INTERNAL_INPUTS`).
 */
export type CertificateInputs = CertificateInputValues & {
  /**
   * Set by the class when the wait comes from `customTimeouts` (e.g.
   * `customTimeouts.create "1m"`): the timeout error names it.
   */
  timeoutOrigin?: string;
  /** The resource's URN, set by the class: ties preview warnings to the resource. Not compared. */
  resourceUrn?: string;
};
