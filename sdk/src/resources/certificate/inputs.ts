/** Default wait for issuance: DV validation usually completes within a few status cooldowns. */
export const DEFAULT_TIMEOUT_MINUTES = 60;
/** A week: longer waits belong in a later `up`, not in one blocked process. */
export const MAX_TIMEOUT_MINUTES = 7 * 24 * 60;

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
  /** The resource's URN, set by the class: ties preview warnings to the resource. Not compared. */
  resourceUrn?: string;
}
