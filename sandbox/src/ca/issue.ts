import { createHash, randomBytes, type webcrypto } from "node:crypto";
import { decodeCsr } from "./csr.js";
import { CsrError, IssueRequestError } from "./errors.js";
import { generateKeyPairFor, WEBCRYPTO_HASH } from "./keys.js";
import { parseSubjectName, type SubjectName } from "./names.js";
import { toPem } from "./pem.js";
import { KEY_SPECS, type IssuedCertificate, type IssueRequest } from "./types.js";
import { x509 } from "./x509.js";

/** What issuing needs from the CA: the intermediate that signs leaves. */
export interface LeafSigner {
  certificate: x509.X509Certificate;
  pem: string;
  privateKey: webcrypto.CryptoKey;
  /** Hex key identifier of the intermediate, the leaves' AKI. */
  keyId: string;
}

/** Issues one leaf certificate; see {@link IssueRequest} for the rules. */
export async function issueLeaf(signer: LeafSigner, req: IssueRequest): Promise<IssuedCertificate> {
  const names = checkRequest(req);
  const hash = WEBCRYPTO_HASH[req.hashAlgorithm];
  const notBefore = wholeSeconds(req.notBefore);
  const notAfter = wholeSeconds(req.notAfter);
  const subject = subjectName(names[0]!.value, req);
  // With no subject at all (a name too long for CN and no O/C), RFC 5280
  // requires the SAN to be critical.
  const san = new x509.SubjectAlternativeNameExtension(
    names.map((n) => ({ type: n.kind, value: n.value })),
    subject.length === 0,
  );

  let publicKey: x509.PublicKey | webcrypto.CryptoKey;
  let keyAlgorithm: "rsa" | "ecc";
  let privateKeyPem = "";
  let csrPem: string;
  if (req.csrPem !== undefined) {
    const { csr, parsed, pem } = await decodeCsr(req.csrPem);
    if (!parsed.signatureValid) throw new CsrError("the CSR's signature does not verify with its own public key");
    if (parsed.keyAlgorithm === "other") throw new CsrError("the CSR's key is neither RSA nor ECDSA; the CA signs only those");
    publicKey = csr.publicKey;
    keyAlgorithm = parsed.keyAlgorithm;
    csrPem = pem;
  } else {
    const generated = await generateKeyPairFor(req.keySpec, req.hashAlgorithm);
    const csr = await x509.Pkcs10CertificateRequestGenerator.create({
      name: subject,
      keys: generated.keys,
      signingAlgorithm: generated.algorithm === "rsa" ? { name: "RSASSA-PKCS1-v1_5", hash } : { name: "ECDSA", hash },
      extensions: [san],
    });
    publicKey = generated.keys.publicKey;
    keyAlgorithm = generated.algorithm;
    privateKeyPem = generated.privateKeyPem;
    csrPem = toPem("CERTIFICATE REQUEST", csr.rawData);
  }

  const serialNumber = randomSerial();
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber,
    subject,
    issuer: signer.certificate.subjectName,
    notBefore,
    notAfter,
    publicKey: publicKey as x509.PublicKeyType,
    signingKey: signer.privateKey,
    signingAlgorithm: { name: "ECDSA", hash },
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(
        keyAlgorithm === "rsa"
          ? x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment
          : x509.KeyUsageFlags.digitalSignature,
        true,
      ),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth], false),
      await x509.SubjectKeyIdentifierExtension.create(publicKey as x509.PublicKeyType),
      new x509.AuthorityKeyIdentifierExtension(signer.keyId),
      san,
    ],
  });

  const leafPem = toPem("CERTIFICATE", leaf.rawData);
  return {
    leafPem,
    intermediatePem: signer.pem,
    chainPem: leafPem + signer.pem,
    privateKeyPem,
    csrPem,
    serialNumber,
    fingerprintSha256: fingerprintSha256(new Uint8Array(leaf.rawData)),
    notBefore,
    notAfter,
  };
}

/** SHA-256 of a DER certificate in `openssl x509 -fingerprint -sha256` form. */
export function fingerprintSha256(der: Uint8Array): string {
  return createHash("sha256").update(der).digest("hex").toUpperCase().replace(/(..)(?!$)/g, "$1:");
}

/**
 * 128 random bits as a positive DER INTEGER of exactly 16 octets: the top
 * octet is 0x01..0x7F, so no sign octet is added and none is stripped, and the
 * hex here is exactly what `openssl x509 -serial` prints.
 */
export function randomSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) || 0x01;
  return bytes.toString("hex").toUpperCase();
}

/** X.509's upper bound for a CN (ub-common-name). */
const MAX_COMMON_NAME = 64;

/**
 * C, O and CN = the first name. A first name longer than a CN may be is left
 * out of the subject (it is in the SAN, which is what clients match), as
 * public CAs do.
 */
function subjectName(commonName: string, req: IssueRequest): x509.JsonName {
  const name: x509.JsonName = [];
  if (req.country !== undefined) name.push({ C: [req.country.toUpperCase()] });
  if (req.organization !== undefined) name.push({ O: [req.organization] });
  if (commonName.length <= MAX_COMMON_NAME) name.push({ CN: [commonName] });
  return name;
}

function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

function checkRequest(req: IssueRequest): SubjectName[] {
  if (!Array.isArray(req.names) || req.names.length === 0) {
    throw new IssueRequestError("names", "at least one name is required (the first becomes the subject CN)");
  }
  const names = req.names.map((raw, i) => {
    if (typeof raw !== "string") throw new IssueRequestError(`names[${i}]`, `must be a string, got ${typeof raw}`);
    const parsed = parseSubjectName(raw);
    if ("error" in parsed) throw new IssueRequestError(`names[${i}]`, parsed.error);
    return parsed;
  });
  const seen = new Set<string>();
  names.forEach((n, i) => {
    if (seen.has(n.value)) throw new IssueRequestError(`names[${i}]`, `"${n.value}" is listed twice`);
    seen.add(n.value);
  });
  if (req.csrPem === undefined && !KEY_SPECS.includes(req.keySpec)) {
    throw new IssueRequestError("keySpec", `must be one of ${KEY_SPECS.join(", ")}, got ${JSON.stringify(req.keySpec)}`);
  }
  if (req.hashAlgorithm !== "sha256" && req.hashAlgorithm !== "sha384") {
    throw new IssueRequestError("hashAlgorithm", `must be sha256 or sha384, got ${JSON.stringify(req.hashAlgorithm)}`);
  }
  for (const field of ["notBefore", "notAfter"] as const) {
    const value = req[field];
    if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw new IssueRequestError(field, "must be a valid Date");
  }
  if (wholeSeconds(req.notAfter) <= wholeSeconds(req.notBefore)) {
    throw new IssueRequestError("notAfter", "must be at least one second after notBefore");
  }
  if (req.country !== undefined && !/^[A-Za-z]{2}$/.test(req.country)) {
    throw new IssueRequestError("country", `must be an ISO 3166 alpha-2 code, got ${JSON.stringify(req.country)}`);
  }
  if (req.organization !== undefined && (req.organization.trim() === "" || req.organization.length > 64)) {
    throw new IssueRequestError("organization", "must be 1 to 64 characters");
  }
  return names;
}
