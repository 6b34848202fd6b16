import { generateKeyPair } from "node:crypto";
import { promisify } from "node:util";
import type { KeySpec } from "../../../src/ca/index.js";
import { openssl, scratchDir } from "../../../../tests/support/openssl.js";

const generateKeyPairAsync = promisify(generateKeyPair);

/** A PKCS#8 PEM private key of the given spec (Node's native generator: fast, async). */
export async function privateKeyPemFor(spec: KeySpec | "ed25519"): Promise<string> {
  const pair =
    spec === "ed25519"
      ? await generateKeyPairAsync("ed25519")
      : spec.startsWith("rsa-")
        ? await generateKeyPairAsync("rsa", { modulusLength: Number(spec.slice(4)) })
        : await generateKeyPairAsync("ec", { namedCurve: spec === "p-256" ? "P-256" : "P-384" });
  return pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
}

/**
 * A CSR made by `openssl req` (not by the code under test) for a key of the
 * given spec, with the subject and SANs given (`subject` in openssl's
 * `/CN=.../O=...` form, `sans` like `DNS:a.test,IP:192.0.2.1`).
 */
export async function opensslCsr(spec: KeySpec | "ed25519", subject: string, sans?: string): Promise<{ csrPem: string; keyPem: string }> {
  const keyPem = await privateKeyPemFor(spec);
  const dir = await scratchDir();
  try {
    const keyFile = await dir.write("key.pem", keyPem);
    const args = ["req", "-new", "-key", keyFile, "-subj", subject];
    if (sans !== undefined) args.push("-addext", `subjectAltName=${sans}`);
    const { stdout, stderr, code } = await openssl(args);
    if (code !== 0) throw new Error(`openssl req failed: ${stderr}`);
    return { csrPem: stdout, keyPem };
  } finally {
    await dir.dispose();
  }
}

/** The same CSR with one byte of `needle` (inside the signed part) changed. */
export function tamperCsr(csrPem: string, needle: string): string {
  const body = csrPem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");
  const der = Buffer.from(body, "base64");
  const at = der.indexOf(Buffer.from(needle, "latin1"));
  if (at < 0) throw new Error(`"${needle}" is not in the CSR`);
  der[at] = der[at]! ^ 0x01;
  const base64 = der.toString("base64").replace(/.{1,64}/g, "$&\n");
  return `-----BEGIN CERTIFICATE REQUEST-----\n${base64}-----END CERTIFICATE REQUEST-----\n`;
}
