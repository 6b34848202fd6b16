import { X509Certificate } from "node:crypto";

/** What the demo prints about the issued certificate: read from the PEM itself, not from the provider's outputs. */
export function describeCertificate(fullChainPem: string): string[] {
  const leafPem = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(fullChainPem)?.[0];
  if (!leafPem) throw new Error("the stack output fullChainPem holds no PEM certificate");
  const leaf = new X509Certificate(leafPem);
  const chainLength = fullChainPem.match(/-----BEGIN CERTIFICATE-----/g)?.length ?? 0;
  return [
    `subject      ${leaf.subject.replace(/\n/g, ", ")}`,
    `SANs         ${leaf.subjectAltName ?? "(none)"}`,
    `issuer       ${leaf.issuer.replace(/\n/g, ", ")}`,
    `valid        ${leaf.validFrom}  →  ${leaf.validTo}`,
    `serial       ${leaf.serialNumber}`,
    `SHA-256      ${leaf.fingerprint256}`,
    `chain        ${chainLength} certificate(s) in fullChainPem`,
  ];
}
