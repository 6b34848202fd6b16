import { generateKeyPair, type KeyObject, type webcrypto } from "node:crypto";
import { promisify } from "node:util";
import type { HashAlgorithm, KeySpec } from "./types.js";

const generateKeyPairAsync = promisify(generateKeyPair);

export interface GeneratedKeyPair {
  /** WebCrypto keys, for @peculiar/x509 (the CSR is signed with `privateKey`). */
  keys: webcrypto.CryptoKeyPair;
  /** PKCS#8 PEM of the private key. */
  privateKeyPem: string;
  algorithm: "rsa" | "ecc";
}

export const WEBCRYPTO_HASH: Record<HashAlgorithm, "SHA-256" | "SHA-384"> = { sha256: "SHA-256", sha384: "SHA-384" };

/**
 * Generates a key pair of the given spec with node:crypto's async generator,
 * which runs on libuv's thread pool: RSA-4096 takes hundreds of milliseconds
 * and must not stall the sandbox's event loop (bench/ca/issuance.ts measures
 * the stall). `toCryptoKey` then hands the keys to @peculiar/x509 directly.
 */
export async function generateKeyPairFor(spec: KeySpec, hash: HashAlgorithm): Promise<GeneratedKeyPair> {
  if (spec.startsWith("rsa-")) {
    const modulusLength = Number(spec.slice(4));
    const pair = await generateKeyPairAsync("rsa", { modulusLength, publicExponent: 0x10001 });
    const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: WEBCRYPTO_HASH[hash] };
    return toWebCrypto(pair, algorithm, "rsa");
  }
  const namedCurve = spec === "p-256" ? "P-256" : "P-384";
  const pair = await generateKeyPairAsync("ec", { namedCurve });
  return toWebCrypto(pair, { name: "ECDSA", namedCurve }, "ecc");
}

/** An ECDSA P-256 pair for the CA itself: fast to make at every in-memory start. */
export async function generateCaKeyPair(): Promise<{ keys: webcrypto.CryptoKeyPair; privateKeyPem: string }> {
  const pair = await generateKeyPairAsync("ec", { namedCurve: "P-256" });
  return toWebCrypto(pair, { name: "ECDSA", namedCurve: "P-256" }, "ecc");
}

function toWebCrypto(
  pair: { publicKey: KeyObject; privateKey: KeyObject },
  algorithm: webcrypto.RsaHashedImportParams | webcrypto.EcKeyImportParams,
  kind: "rsa" | "ecc",
): GeneratedKeyPair {
  return {
    keys: {
      publicKey: pair.publicKey.toCryptoKey(algorithm, true, ["verify"]),
      privateKey: pair.privateKey.toCryptoKey(algorithm, false, ["sign"]),
    },
    privateKeyPem: pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    algorithm: kind,
  };
}
