import { X509Certificate, createPrivateKey, createPublicKey } from "node:crypto";

/** What the Certificate resource reports about a leaf, read from the certificate itself. */
export interface CertificateFacts {
  /** Uppercase hex without separators or leading zeros, as `openssl x509 -serial` prints it. */
  serialNumber: string;
  /** Uppercase hex, colon-separated: `openssl x509 -fingerprint -sha256`. */
  fingerprintSha256: string;
  /** ISO 8601 (UTC). */
  notBefore: string;
  notAfter: string;
  /** DNS names and IP addresses from the subjectAltName extension, in certificate order. */
  subjectAltNames: string[];
}

/** Parses a PEM certificate; the error names `what` so a bad bundle is traceable. */
export function parseCertificate(pem: string, what = "certificate"): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch (cause) {
    throw new Error(`${what} is not a valid PEM X.509 certificate`, { cause });
  }
}

export function certificateFacts(pem: string): CertificateFacts {
  const cert = parseCertificate(pem);
  return {
    serialNumber: normaliseSerial(cert.serialNumber),
    fingerprintSha256: normaliseFingerprint(cert.fingerprint256),
    notBefore: new Date(cert.validFrom).toISOString(),
    notAfter: new Date(cert.validTo).toISOString(),
    subjectAltNames: parseSubjectAltNames(cert.subjectAltName),
  };
}

/**
 * Canonical fingerprint form, so values from the API (any case, with or
 * without colons) compare equal to what Node computes.
 */
export function normaliseFingerprint(value: string): string {
  const hex = value.replace(/[^0-9a-fA-F]/g, "").toUpperCase();
  return hex.match(/../g)?.join(":") ?? "";
}

/** Canonical serial form: uppercase hex without separators or leading zeros. */
export function normaliseSerial(value: string): string {
  const hex = value.replace(/[^0-9a-fA-F]/g, "").toUpperCase().replace(/^0+(?=.)/, "");
  return hex;
}

function parseSubjectAltNames(text: string | undefined): string[] {
  if (!text) return [];
  return text
    .split(/,\s*/)
    .map((entry) => {
      const [kind, ...rest] = entry.split(":");
      const value = rest.join(":");
      return kind === "DNS" || kind === "IP Address" ? value : undefined;
    })
    .filter((v): v is string => v !== undefined && v !== "");
}

/** True when `keyPem` is the private half of the leaf's public key. */
export function keyMatchesCertificate(certPem: string, keyPem: string): boolean {
  const cert = parseCertificate(certPem);
  let key;
  try {
    key = createPrivateKey(keyPem);
  } catch (cause) {
    // The message must not echo the key: only say what kind of thing failed.
    throw new Error("private key is not a valid PEM private key", { cause });
  }
  if (cert.checkPrivateKey(key)) return true;
  // checkPrivateKey is strict about key types; compare the public halves as a second opinion.
  const fromKey = createPublicKey(key).export({ type: "spki", format: "der" });
  const fromCert = cert.publicKey.export({ type: "spki", format: "der" });
  return Buffer.compare(fromKey, fromCert) === 0;
}

/** True when `child` was signed by `issuer` (used to check the chain order). */
export function isIssuedBy(childPem: string, issuerPem: string): boolean {
  const child = parseCertificate(childPem);
  const issuer = parseCertificate(issuerPem);
  return child.checkIssued(issuer) && child.verify(issuer.publicKey);
}
