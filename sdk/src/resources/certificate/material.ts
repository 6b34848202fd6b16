import { certificateBlocks, joinPem } from "../../pem/blocks.js";
import {
  certificateFacts,
  isIssuedBy,
  keyMatchesCertificate,
  normaliseFingerprint,
  normaliseSerial,
} from "../../pem/inspect.js";

/** What DownloadCertificate returned, reduced to the fields the checks need. */
export interface DownloadedMaterial {
  /** `certificate.certificate_leaf`; may be empty when only the chain is sent. */
  leafPem?: string | null;
  /** `certificate.certificate_chain` (leaf + intermediates). */
  chainPem?: string | null;
  /** `certificate.intermediate_certificate`. */
  intermediatePem?: string | null;
  /** `certificate.private_key`; empty when the order used a custom CSR. */
  privateKeyPem?: string | null;
  csrPem?: string | null;
  /** The API's claims, checked against the certificate itself. */
  fingerprintSha256?: string | null;
  serialNumber?: string | null;
}

/**
 * What verified downloaded material consists of. The Certificate stores
 * only part of it (see CertificateOutputs): its class recomputes
 * `fullChainPem` (`certificatePem` + `chainPem`, the same bytes as
 * `joinPem(ordered)` here), `serialNumber`, `fingerprintSha256` and
 * `notBefore` from the stored leaf.
 */
export interface VerifiedMaterial {
  certificatePem: string;
  chainPem: string;
  fullChainPem: string;
  privateKeyPem: string;
  csrPem: string;
  serialNumber: string;
  fingerprintSha256: string;
  notBefore: string;
  notAfter: string;
  subjectAltNames: string[];
}

/** Downloaded material that does not hold together; never carries key text. */
export class CertificateMaterialError extends Error {
  override name = "CertificateMaterialError";
}

/**
 * Splits and verifies downloaded material: the leaf is the first certificate,
 * the chain the intermediates after it; the leaf's fingerprint (and serial,
 * when the API states one) must match the API's claims, each intermediate must
 * sign the certificate before it, and the private key must belong to the leaf.
 * Anything else means the bundle is not what was ordered, so it is refused
 * rather than deployed.
 */
export function verifyMaterial(input: DownloadedMaterial, orderNo: string): VerifiedMaterial {
  const chainBlocks = certificateBlocks(input.chainPem);
  const leafBlocks = certificateBlocks(input.leafPem);
  const leaf = leafBlocks[0] ?? chainBlocks[0];
  if (!leaf) {
    throw new CertificateMaterialError(`order ${orderNo}: the download contains no certificate (certificate_leaf and certificate_chain are empty)`);
  }
  let intermediates = certificateBlocks(input.intermediatePem);
  if (intermediates.length === 0) intermediates = chainBlocks.filter((b) => b !== leaf);
  if (chainBlocks.length > 0 && chainBlocks[0] !== leaf) {
    throw new CertificateMaterialError(`order ${orderNo}: certificate_chain does not start with certificate_leaf`);
  }

  const facts = certificateFacts(leaf);
  if (input.fingerprintSha256 && normaliseFingerprint(input.fingerprintSha256) !== facts.fingerprintSha256) {
    throw new CertificateMaterialError(
      `order ${orderNo}: the API reports fingerprint_sha256 ${normaliseFingerprint(input.fingerprintSha256)} but the downloaded leaf's SHA-256 fingerprint is ${facts.fingerprintSha256}`,
    );
  }
  if (input.serialNumber && /^[0-9a-fA-F:]+$/.test(input.serialNumber) && normaliseSerial(input.serialNumber) !== facts.serialNumber) {
    throw new CertificateMaterialError(
      `order ${orderNo}: the API reports serial_number ${input.serialNumber} but the downloaded leaf's serial is ${facts.serialNumber}`,
    );
  }
  const ordered = [leaf, ...intermediates];
  for (let i = 0; i + 1 < ordered.length; i++) {
    if (!isIssuedBy(ordered[i]!, ordered[i + 1]!)) {
      throw new CertificateMaterialError(`order ${orderNo}: certificate ${i + 1} of the chain is not signed by certificate ${i + 2} (wrong order or foreign intermediate)`);
    }
  }

  const privateKeyPem = (input.privateKeyPem ?? "").trim();
  if (privateKeyPem !== "" && !keyMatchesCertificate(leaf, privateKeyPem)) {
    throw new CertificateMaterialError(`order ${orderNo}: the downloaded private key does not belong to the downloaded certificate`);
  }

  return {
    certificatePem: joinPem([leaf]),
    chainPem: joinPem(intermediates),
    fullChainPem: joinPem(ordered),
    privateKeyPem: privateKeyPem === "" ? "" : privateKeyPem + "\n",
    csrPem: (input.csrPem ?? "").trim() === "" ? "" : input.csrPem!.trim() + "\n",
    serialNumber: facts.serialNumber,
    fingerprintSha256: facts.fingerprintSha256,
    notBefore: facts.notBefore,
    notAfter: facts.notAfter,
    subjectAltNames: facts.subjectAltNames,
  };
}
