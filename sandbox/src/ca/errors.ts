/**
 * A certificate signing request that cannot be used: not PEM, not a CSR, not
 * decodable, or with a key the CA does not sign. The message names the
 * problem; it never repeats the submitted text (a private key pasted by
 * mistake must not end up in a log).
 */
export class CsrError extends Error {
  override readonly name = "CsrError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * An {@link IssueRequest} field that breaks a rule; `field` names the field
 * (e.g. `names[2]`, `notAfter`).
 */
export class IssueRequestError extends TypeError {
  override readonly name = "IssueRequestError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

/**
 * The CA's own material is unusable: a data directory with missing or
 * mismatched files. The message names the file and what to do.
 */
export class CaStoreError extends Error {
  override readonly name = "CaStoreError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
