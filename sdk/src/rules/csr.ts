import { createPublicKey } from "node:crypto";
import type * as X509 from "@peculiar/x509";
import type { KeySpec, SignatureAlgorithm } from "../client/types.js";
import type { RuleFailure } from "./failure.js";
import { canonicalName } from "./names.js";

/** What the rules need to know about a PEM CSR. */
export interface CsrFacts {
  commonName?: string;
  /** DNS names and IP addresses of the subjectAltName extension, canonical. */
  altNames: string[];
  organization?: string;
  algorithm: SignatureAlgorithm | "unknown";
  keySpec?: KeySpec;
  signatureValid: boolean;
}

/**
 * @peculiar/x509 (with reflect-metadata, which it needs first), loaded on the
 * first custom CSR: it takes about 130 ms to load, and the Order handlers
 * import these rules, so a static import made every provider process pay it
 * before its first check, on the critical path of every `up`, whether or not
 * any Order has a custom CSR.
 */
function loadX509(): typeof X509 {
  require("reflect-metadata");
  return require("@peculiar/x509") as typeof X509;
}

/** Parses a PEM CSR; throws an error naming the problem (the caller names the property). */
export async function readCsr(pem: string): Promise<CsrFacts> {
  const x509 = loadX509();
  let csr: X509.Pkcs10CertificateRequest;
  try {
    csr = new x509.Pkcs10CertificateRequest(pem.trim());
  } catch (cause) {
    throw new Error("is not a PEM certificate signing request (-----BEGIN CERTIFICATE REQUEST-----)", { cause });
  }
  const first = (oid: string): string | undefined => csr.subjectName.getField(oid)[0];
  const sanExtension = csr.getExtension("2.5.29.17");
  const san =
    sanExtension === null || sanExtension instanceof x509.SubjectAlternativeNameExtension
      ? sanExtension
      : new x509.SubjectAlternativeNameExtension(sanExtension.rawData);
  const altNames = (san?.names.items ?? [])
    .filter((n) => n.type === "dns" || n.type === "ip")
    .map((n) => canonicalName(n.value));
  const key = createPublicKey({ key: Buffer.from(csr.publicKey.rawData), format: "der", type: "spki" });
  let algorithm: CsrFacts["algorithm"] = "unknown";
  let keySpec: KeySpec | undefined;
  if (key.asymmetricKeyType === "rsa") {
    algorithm = "rsa";
    const bits = key.asymmetricKeyDetails?.modulusLength;
    keySpec = bits === 2048 || bits === 3072 || bits === 4096 ? (`rsa-${bits}` as KeySpec) : undefined;
  } else if (key.asymmetricKeyType === "ec") {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === "SM2") {
      algorithm = "sm2";
      keySpec = "sm2";
    } else {
      algorithm = "ecc";
      keySpec = curve === "prime256v1" ? "p-256" : curve === "secp384r1" ? "p-384" : undefined;
    }
  }
  let signatureValid = false;
  try {
    signatureValid = await csr.verify();
  } catch {
    signatureValid = false;
  }
  const commonName = first("2.5.4.3");
  return {
    commonName: commonName === undefined ? undefined : canonicalName(commonName),
    altNames,
    organization: first("2.5.4.10"),
    algorithm,
    keySpec,
    signatureValid,
  };
}

/**
 * A custom CSR must name exactly the ordered names (CN and subjectAltName
 * together), use the ordered key type, carry a valid self-signature, and for
 * OV/EV name the same organisation — the service checks the same and would
 * refuse the order only after the preview said it was fine.
 */
export async function checkCustomCsr(
  pem: string,
  order: { names: string[]; signatureAlgorithm: SignatureAlgorithm; keySpec: KeySpec; companyName?: string },
): Promise<RuleFailure[]> {
  let facts: CsrFacts;
  try {
    facts = await readCsr(pem);
  } catch (error) {
    return [{ property: "customCsr", reason: (error as Error).message }];
  }
  const failures: RuleFailure[] = [];
  const fail = (reason: string) => failures.push({ property: "customCsr", reason });
  if (!facts.signatureValid) fail("has an invalid self-signature (the request was altered or is corrupt)");
  const inCsr = new Set([...(facts.commonName ? [facts.commonName] : []), ...facts.altNames]);
  const ordered = new Set(order.names);
  const missing = [...ordered].filter((name) => !inCsr.has(name));
  const extra = [...inCsr].filter((name) => !ordered.has(name));
  if (missing.length > 0) fail(`does not name ${missing.join(", ")} (ordered but absent from the CSR's CN and subjectAltName)`);
  if (extra.length > 0) fail(`names ${extra.join(", ")}, which the order does not cover`);
  if (facts.algorithm !== order.signatureAlgorithm) {
    fail(`holds a ${facts.algorithm} key but the order says signatureAlgorithm ${JSON.stringify(order.signatureAlgorithm)}`);
  } else if (facts.keySpec !== order.keySpec) {
    fail(`holds a ${facts.keySpec ?? "unsupported"} key but the order says keySpec ${JSON.stringify(order.keySpec)}`);
  }
  if (order.companyName !== undefined && facts.organization !== undefined && facts.organization !== order.companyName) {
    fail(`names organisation ${JSON.stringify(facts.organization)} but companyInfo.companyName is ${JSON.stringify(order.companyName)}`);
  }
  return failures;
}
