// The sandbox's test certificate authority: a persisted root + intermediate
// that issue real X.509 leaves, and a CSR reader for CreateOrder's checks.
export { CA_FILES, loadOrCreateCa } from "./authority.js";
export { parseCsr } from "./csr.js";
export { CaStoreError, CsrError, IssueRequestError } from "./errors.js";
export { fingerprintSha256 } from "./issue.js";
export { KEY_SPECS } from "./types.js";
export type { CertificateAuthority, HashAlgorithm, IssuedCertificate, IssueRequest, KeySpec, ParsedCsr } from "./types.js";
