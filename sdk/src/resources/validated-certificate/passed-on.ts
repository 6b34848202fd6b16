/**
 * The Certificate's outputs a `ValidatedCertificate` reports as its own, read
 * from its Certificate child: the declaration describes them, the class
 * forwards them.
 */
export const FROM_CERTIFICATE = [
  "domains",
  "certificatePem",
  "chainPem",
  "fullChainPem",
  "privateKeyPem",
  "privateKeyPkcs8Pem",
  "combinedPem",
  "pfxBase64",
  "serialNumber",
  "fingerprintSha256",
  "notBefore",
  "notAfter",
] as const;

export type FromCertificate = (typeof FROM_CERTIFICATE)[number];
