import { createPrivateKey, createPublicKey, randomBytes, type webcrypto } from "node:crypto";
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CaStoreError } from "./errors.js";
import { issueLeaf, randomSerial, type LeafSigner } from "./issue.js";
import { generateCaKeyPair } from "./keys.js";
import { pemBlocks, toPem } from "./pem.js";
import type { CertificateAuthority, IssuedCertificate, IssueRequest } from "./types.js";
import { x509 } from "./x509.js";

const DAY_MS = 86_400_000;
/** Backdated so a leaf dated "now" by a slightly slow clock still chains. */
const CA_BACKDATE_MS = DAY_MS;
/** Long enough for sandbox clocks advanced by years of installments. */
const ROOT_LIFETIME_MS = 30 * 365 * DAY_MS;
const INTERMEDIATE_LIFETIME_MS = 25 * 365 * DAY_MS;

/** File names under `<dataDir>/ca`. Keys are PKCS#8 PEM, mode 0600. */
export const CA_FILES = {
  rootCertificate: "root.pem",
  rootKey: "root-key.pem",
  intermediateCertificate: "intermediate.pem",
  intermediateKey: "intermediate-key.pem",
} as const;

interface CaMaterial {
  rootPem: string;
  rootKeyPem: string;
  intermediatePem: string;
  intermediateKeyPem: string;
}

/**
 * The sandbox's test CA: a root and an intermediate (ECDSA P-256, made in a
 * few milliseconds) that issue real X.509 leaves.
 *
 * With `dataDir` the CA lives in `<dataDir>/ca` and is reloaded on every
 * start, so a root a user trusted once stays valid; a directory with missing
 * or mismatched files is an error rather than silently replaced. Without
 * `dataDir` a fresh CA is made in memory.
 *
 * @example
 * ```ts
 * const ca = await loadOrCreateCa("/var/lib/sandbox");
 * const cert = await ca.issue({
 *   names: ["example.com", "*.example.com"], keySpec: "p-256", hashAlgorithm: "sha256",
 *   notBefore: now, notAfter: new Date(now.getTime() + 365 * 86_400_000),
 * });
 * // cert.chainPem verifies against ca.rootPem
 * ```
 */
export async function loadOrCreateCa(dataDir?: string, opts: { nowMs?: number } = {}): Promise<CertificateAuthority> {
  if (dataDir === undefined) return SandboxCa.fromMaterial(await createMaterial(opts.nowMs), "memory");
  const dir = join(dataDir, "ca");
  const existing = await readMaterial(dir);
  if (existing !== undefined) return SandboxCa.fromMaterial(existing, dir);

  // Written to a private temporary directory and renamed into place, so a
  // crash leaves no half-written CA and two sandboxes starting on the same
  // data dir agree on one CA (the loser of the rename loads the winner's).
  await mkdir(dataDir, { recursive: true });
  const staging = await mkdtemp(join(dataDir, ".ca-staging-"));
  try {
    const material = await createMaterial(opts.nowMs);
    await writeFile(join(staging, CA_FILES.rootCertificate), material.rootPem, { mode: 0o644 });
    await writeFile(join(staging, CA_FILES.intermediateCertificate), material.intermediatePem, { mode: 0o644 });
    await writeFile(join(staging, CA_FILES.rootKey), material.rootKeyPem, { mode: 0o600 });
    await writeFile(join(staging, CA_FILES.intermediateKey), material.intermediateKeyPem, { mode: 0o600 });
    try {
      await rename(staging, dir);
      return SandboxCa.fromMaterial(material, dir);
    } catch (error) {
      if (!isCode(error, "EEXIST", "ENOTEMPTY")) throw error;
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  const winner = await readMaterial(dir);
  if (winner === undefined) throw new CaStoreError(`${dir} appeared while creating the CA but holds no CA files`);
  return SandboxCa.fromMaterial(winner, dir);
}

class SandboxCa implements CertificateAuthority {
  private constructor(
    readonly rootPem: string,
    readonly intermediatePem: string,
    private readonly signer: LeafSigner,
  ) {}

  static async fromMaterial(material: CaMaterial, where: string): Promise<SandboxCa> {
    const root = parseCertificate(material.rootPem, `${where}/${CA_FILES.rootCertificate}`);
    const intermediate = parseCertificate(material.intermediatePem, `${where}/${CA_FILES.intermediateCertificate}`);
    checkKeyMatches(material.rootKeyPem, root, `${where}/${CA_FILES.rootKey}`);
    const privateKey = importSigningKey(material.intermediateKeyPem, intermediate, `${where}/${CA_FILES.intermediateKey}`);
    if (!(await intermediate.verify({ publicKey: root.publicKey, signatureOnly: true }))) {
      throw new CaStoreError(`${where}: the intermediate certificate is not signed by the root; delete ${where} to make a new CA`);
    }
    const ski = intermediate.getExtension(x509.SubjectKeyIdentifierExtension);
    if (ski === null) throw new CaStoreError(`${where}: the intermediate certificate has no subject key identifier`);
    const signer: LeafSigner = { certificate: intermediate, pem: material.intermediatePem, privateKey, keyId: ski.keyId };
    return new SandboxCa(material.rootPem, material.intermediatePem, signer);
  }

  issue(req: IssueRequest): Promise<IssuedCertificate> {
    return issueLeaf(this.signer, req);
  }
}

/**
 * `clockMs`, the sandbox clock's "now", may lie before real time (a sandbox
 * started at a fixed date): the CA is then dated from the earlier of the two,
 * so leaves issued on that clock still chain.
 */
async function createMaterial(clockMs?: number): Promise<CaMaterial> {
  const tag = randomBytes(3).toString("hex");
  const now = Date.now();
  const notBefore = new Date(Math.min(now, clockMs ?? now) - CA_BACKDATE_MS);
  const [rootKeys, intermediateKeys] = await Promise.all([generateCaKeyPair(), generateCaKeyPair()]);
  const rootName: x509.JsonName = [{ O: ["Certreseller Sandbox"] }, { CN: [`Certreseller Sandbox Root CA ${tag}`] }];
  const intermediateName: x509.JsonName = [{ O: ["Certreseller Sandbox"] }, { CN: [`Certreseller Sandbox Intermediate CA ${tag}`] }];
  const signingAlgorithm = { name: "ECDSA", hash: "SHA-256" };
  const caUsages = x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign;

  const rootSki = await x509.SubjectKeyIdentifierExtension.create(rootKeys.keys.publicKey);
  const root = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: rootName,
    issuer: rootName,
    notBefore,
    notAfter: new Date(now + ROOT_LIFETIME_MS),
    publicKey: rootKeys.keys.publicKey,
    signingKey: rootKeys.keys.privateKey,
    signingAlgorithm,
    extensions: [new x509.BasicConstraintsExtension(true, undefined, true), new x509.KeyUsagesExtension(caUsages, true), rootSki],
  });
  const intermediate = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: intermediateName,
    issuer: rootName,
    notBefore,
    notAfter: new Date(now + INTERMEDIATE_LIFETIME_MS),
    publicKey: intermediateKeys.keys.publicKey,
    signingKey: rootKeys.keys.privateKey,
    signingAlgorithm,
    extensions: [
      // pathLen 0: the intermediate signs leaves only.
      new x509.BasicConstraintsExtension(true, 0, true),
      // digitalSignature too, so the intermediate could sign OCSP answers.
      new x509.KeyUsagesExtension(caUsages | x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth], false),
      await x509.SubjectKeyIdentifierExtension.create(intermediateKeys.keys.publicKey),
      new x509.AuthorityKeyIdentifierExtension(rootSki.keyId),
    ],
  });
  return {
    rootPem: toPem("CERTIFICATE", root.rawData),
    rootKeyPem: rootKeys.privateKeyPem,
    intermediatePem: toPem("CERTIFICATE", intermediate.rawData),
    intermediateKeyPem: intermediateKeys.privateKeyPem,
  };
}

/** The CA files in `dir`, or undefined when `dir` does not exist or is empty. */
async function readMaterial(dir: string): Promise<CaMaterial | undefined> {
  const read = async (file: string): Promise<string | undefined> => {
    try {
      return await readFile(join(dir, file), "utf8");
    } catch (error) {
      if (isCode(error, "ENOENT")) return undefined;
      throw new CaStoreError(`cannot read ${join(dir, file)}`, { cause: error });
    }
  };
  const [rootPem, rootKeyPem, intermediatePem, intermediateKeyPem] = await Promise.all([
    read(CA_FILES.rootCertificate),
    read(CA_FILES.rootKey),
    read(CA_FILES.intermediateCertificate),
    read(CA_FILES.intermediateKey),
  ]);
  const files = { rootPem, rootKeyPem, intermediatePem, intermediateKeyPem };
  const present = Object.values(files).filter((v) => v !== undefined).length;
  if (present === 0) return undefined;
  if (rootPem === undefined || rootKeyPem === undefined || intermediatePem === undefined || intermediateKeyPem === undefined) {
    const missing = Object.values(CA_FILES).filter((_, i) => Object.values(files)[i] === undefined);
    throw new CaStoreError(
      `${dir} is missing ${missing.join(", ")}; restore it, or delete ${dir} to make a new CA (clients must then trust the new root)`,
    );
  }
  return { rootPem, rootKeyPem, intermediatePem, intermediateKeyPem };
}

function parseCertificate(pem: string, file: string): x509.X509Certificate {
  const block = pemBlocks(pem).find((b) => b.label === "CERTIFICATE");
  if (block === undefined) throw new CaStoreError(`${file} holds no PEM certificate`);
  try {
    return new x509.X509Certificate(block.der);
  } catch (cause) {
    throw new CaStoreError(`${file} does not decode as an X.509 certificate`, { cause });
  }
}

function checkKeyMatches(keyPem: string, certificate: x509.X509Certificate, file: string): void {
  let spki: Buffer;
  try {
    spki = createPublicKey(createPrivateKey(keyPem)).export({ type: "spki", format: "der" });
  } catch (cause) {
    throw new CaStoreError(`${file} is not a readable private key`, { cause });
  }
  if (!spki.equals(Buffer.from(certificate.publicKey.rawData))) {
    throw new CaStoreError(`${file} does not belong to the certificate next to it`);
  }
}

function importSigningKey(keyPem: string, certificate: x509.X509Certificate, file: string): webcrypto.CryptoKey {
  checkKeyMatches(keyPem, certificate, file);
  const key = createPrivateKey(keyPem);
  const curve = key.asymmetricKeyDetails?.namedCurve;
  const namedCurve = curve === "prime256v1" ? "P-256" : curve === "secp384r1" ? "P-384" : undefined;
  if (key.asymmetricKeyType !== "ec" || namedCurve === undefined) {
    throw new CaStoreError(`${file} must be an ECDSA P-256 or P-384 key (the CA signs leaves with ECDSA)`);
  }
  return key.toCryptoKey({ name: "ECDSA", namedCurve }, false, ["sign"]);
}

function isCode(error: unknown, ...codes: string[]): boolean {
  return error instanceof Error && "code" in error && codes.includes(String(error.code));
}
