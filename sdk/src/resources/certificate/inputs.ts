/** Default wait for issuance: DV validation usually completes within a few status cooldowns. */
export const DEFAULT_TIMEOUT_MINUTES = 60;
/** A week: longer waits belong in a later `up`, not in one blocked process. */
export const MAX_TIMEOUT_MINUTES = 7 * 24 * 60;

/** Default wait for the validation records to be visible in DNS: propagation inside a provider's network takes seconds to minutes. */
export const DEFAULT_PROPAGATION_MINUTES = 10;
/** A day: a record not visible after that is not propagating, it is missing. */
export const MAX_PROPAGATION_MINUTES = 24 * 60;

export interface CertificateInputs {
  orderNo: string;
  /** Target installment of a multi-installment order (1-based). */
  installmentNo?: number;
  /** Target certificate id (UUID); wins over `installmentNo`. */
  certId?: string;
  timeoutMinutes?: number;
  /**
   * Set by the class when the wait comes from `customTimeouts` (e.g.
   * `customTimeouts.create "1m"`): the timeout error names it.
   */
  timeoutOrigin?: string;
  /**
   * The Order's sign request id (`{ order }` passes it): a new one means the
   * Order submitted the next installment, and the update downloads it.
   */
  requestId?: string;
  /** The Order's renewal settings (`{ order }` passes them): for `renewsAt` and the expiry warning. */
  renewBeforeDays?: number;
  renewBeforePercentage?: number;
  /**
   * Wait for the validation records (methods `dns`, `cname`) to be visible
   * in DNS before waiting for issuance; unset: on, except against a sandbox
   * on this machine with no DNS server named. Used at create only.
   */
  propagationCheck?: boolean;
  /** How long the propagation check waits (default {@link DEFAULT_PROPAGATION_MINUTES}). */
  propagationTimeoutMinutes?: number;
  /** Servers (`address:port`, canonical after check) asked instead of each zone's authoritative servers. */
  propagationResolvers?: string[];
  /** The resource's URN, set by the class: ties preview warnings to the resource. Not compared. */
  resourceUrn?: string;
}
