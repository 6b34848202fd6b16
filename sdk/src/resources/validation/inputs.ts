/** What the Validation provider receives (after the class flattened `{ order }`). */
export interface ValidationInputs {
  orderNo: string;
  /** The ordered names (main, SANs, wildcards), as the program declared them. */
  domains: string[];
  /** The method the Order reports (a spec 4.5 code, or `email` for any e-mail method); a change re-reads the records. */
  method?: string;
  /**
   * The Order's sign request id (from ApplySign or its last method change);
   * GetRecord does not report one (spec 4.6), so this is what tells the
   * Validation that the tokens changed.
   */
  requestId?: string;
}
