import { createPublicKey } from "node:crypto";
import { CsrError } from "./errors.js";
import { canonicalIp } from "./names.js";
import { pemBlocks } from "./pem.js";
import { KEY_SPECS, type KeySpec, type ParsedCsr } from "./types.js";
import { x509 } from "./x509.js";

const CSR_LABELS = new Set(["CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST"]);
const CURVE_NAMES: Record<string, { name: string; bits: number }> = {
  prime256v1: { name: "P-256", bits: 256 },
  secp384r1: { name: "P-384", bits: 384 },
  secp521r1: { name: "P-521", bits: 521 },
};

export interface DecodedCsr {
  csr: x509.Pkcs10CertificateRequest;
  parsed: ParsedCsr;
  /** The CSR's PEM block as given, without surrounding text. */
  pem: string;
}

/**
 * Reads a PEM certificate signing request: subject CN and O, SAN DNS names and
 * IP addresses, key algorithm and size or curve, and whether its signature
 * verifies. Throws {@link CsrError} when the text is not a single decodable
 * PEM CSR; a CSR that decodes but is badly signed is returned with
 * `signatureValid: false` (the caller decides).
 *
 * @example
 * ```ts
 * const csr = await parseCsr(order.customCsr);
 * if (!csr.signatureValid) throw new Error("custom_csr: signature does not verify");
 * if (csr.commonName !== order.domain) throw new Error("custom_csr: CN must be the main domain");
 * ```
 */
export async function parseCsr(pem: string): Promise<ParsedCsr> {
  return (await decodeCsr(pem)).parsed;
}

export async function decodeCsr(pem: string): Promise<DecodedCsr> {
  if (typeof pem !== "string") throw new CsrError(`a CSR must be PEM text, got ${typeof pem}`);
  const blocks = pemBlocks(pem);
  if (blocks.length === 0) {
    throw new CsrError("the CSR is not PEM: expected a -----BEGIN CERTIFICATE REQUEST----- block");
  }
  if (blocks.length > 1) {
    throw new CsrError(`the CSR must be a single PEM block, found ${blocks.length} (${blocks.map((b) => b.label).join(", ")})`);
  }
  const block = blocks[0]!;
  if (!CSR_LABELS.has(block.label)) {
    const hint = block.label.includes("PRIVATE KEY") ? " — this is a private key; never send it, send the CSR made from it" : "";
    throw new CsrError(`the PEM block is "${block.label}", expected "CERTIFICATE REQUEST"${hint}`);
  }
  let csr: x509.Pkcs10CertificateRequest;
  try {
    csr = new x509.Pkcs10CertificateRequest(block.der);
  } catch (cause) {
    throw new CsrError("the CSR's PEM block does not decode as a PKCS#10 certification request", { cause });
  }

  const sans = csr.extensions.find((e) => e instanceof x509.SubjectAlternativeNameExtension);
  const dnsNames = sans?.names.items.filter((n) => n.type === "dns").map((n) => n.value.toLowerCase()) ?? [];
  const ipAddresses = sans?.names.items.filter((n) => n.type === "ip").map((n) => canonicalIp(n.value)) ?? [];
  const parsed: ParsedCsr = {
    dnsNames,
    ipAddresses,
    ...describeKey(csr.publicKey.rawData),
    signatureValid: await verifySignature(csr),
  };
  const commonName = csr.subjectName.getField("CN")[0];
  const organization = csr.subjectName.getField("O")[0];
  if (commonName !== undefined) parsed.commonName = commonName;
  if (organization !== undefined) parsed.organization = organization;
  return { csr, parsed, pem: `${block.text.replace(/\r\n?/g, "\n")}\n` };
}

function describeKey(spki: ArrayBuffer): Pick<ParsedCsr, "keyAlgorithm" | "keySize" | "namedCurve" | "keySpec"> {
  let key;
  try {
    key = createPublicKey({ key: Buffer.from(spki), format: "der", type: "spki" });
  } catch {
    return { keyAlgorithm: "other" };
  }
  const details = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === "rsa" && details.modulusLength !== undefined) {
    const keySize = details.modulusLength;
    const keySpec = `rsa-${keySize}`;
    return { keyAlgorithm: "rsa", keySize, ...(isKeySpec(keySpec) ? { keySpec } : {}) };
  }
  if (key.asymmetricKeyType === "ec" && details.namedCurve !== undefined) {
    const curve = CURVE_NAMES[details.namedCurve];
    if (curve === undefined) return { keyAlgorithm: "ecc", namedCurve: details.namedCurve };
    const keySpec = curve.name.toLowerCase();
    return { keyAlgorithm: "ecc", keySize: curve.bits, namedCurve: curve.name, ...(isKeySpec(keySpec) ? { keySpec } : {}) };
  }
  return { keyAlgorithm: "other" };
}

async function verifySignature(csr: x509.Pkcs10CertificateRequest): Promise<boolean> {
  try {
    return await csr.verify();
  } catch {
    // An algorithm WebCrypto cannot verify (or a malformed key) is a CSR the
    // CA cannot trust, which is what `false` says.
    return false;
  }
}

function isKeySpec(text: string): text is KeySpec {
  return (KEY_SPECS as readonly string[]).includes(text);
}
