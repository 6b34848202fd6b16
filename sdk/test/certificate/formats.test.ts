import { execFileSync } from "node:child_process";
import { createPrivateKey, createPublicKey, generateKeyPairSync, X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { combinedPem, generatePfxPassword, toPkcs12Base64, toPkcs8Pem } from "../../src/pem/formats.js";
import { makeChain, type TestChain } from "./fixtures.js";

let chain: TestChain;
let dir: string;
beforeAll(() => {
  chain = makeChain(["pfx.example.com"]);
  dir = mkdtempSync(join(tmpdir(), "cr-pfx-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** openssl pkcs12 (OpenSSL 3, no -legacy) on the bundle; throws with openssl's message when it refuses. */
function openssl(pfxBase64: string, password: string, what: "-nokeys" | "-nocerts"): string {
  const file = join(dir, `b-${Math.random().toString(36).slice(2)}.pfx`);
  writeFileSync(file, Buffer.from(pfxBase64, "base64"));
  return execFileSync("openssl", ["pkcs12", "-in", file, "-passin", `pass:${password}`, what, ...(what === "-nocerts" ? ["-nodes"] : [])], { stdio: "pipe" }).toString();
}

const spki = (keyPem: string) => createPublicKey(createPrivateKey(keyPem)).export({ type: "spki", format: "der" }).toString("base64");
const fullChain = () => `${chain.leafPem.trim()}\n${chain.intermediatePem.trim()}\n`;

describe("PKCS#12 bundle", () => {
  it("opens with OpenSSL 3 without -legacy: leaf + chain, and a key that matches the leaf (EC key)", () => {
    const password = generatePfxPassword();
    const pfx = toPkcs12Base64({ privateKeyPem: chain.leafKeyPem, fullChainPem: fullChain(), password, friendlyName: "pfx.example.com" });
    const certsOut = openssl(pfx, password, "-nokeys");
    const certs = certsOut.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)!;
    expect(certs.map((c) => new X509Certificate(c).fingerprint256)).toEqual([
      new X509Certificate(chain.leafPem).fingerprint256,
      new X509Certificate(chain.intermediatePem).fingerprint256,
    ]);
    expect(certsOut).toContain("friendlyName: pfx.example.com");
    const keyOut = openssl(pfx, password, "-nocerts");
    const keyPem = keyOut.match(/-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/)![0];
    expect(spki(keyPem)).toBe(new X509Certificate(chain.leafPem).publicKey.export({ type: "spki", format: "der" }).toString("base64"));
  });

  it("holds an RSA key too, and refuses a wrong password", () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const rsaPem = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
    const password = "correct horse battery staple";
    const pfx = toPkcs12Base64({ privateKeyPem: rsaPem, fullChainPem: fullChain(), password });
    const keyPem = openssl(pfx, password, "-nocerts").match(/-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/)![0];
    expect(spki(keyPem)).toBe(spki(rsaPem));
    expect(() => openssl(pfx, "wrong password", "-nokeys")).toThrow(/mac verify failure|invalid password/i);
  });

  it("is empty without a key (custom CSR), and each bundle has its own salt", () => {
    expect(toPkcs12Base64({ privateKeyPem: "", fullChainPem: fullChain(), password: "x" })).toBe("");
    const a = toPkcs12Base64({ privateKeyPem: chain.leafKeyPem, fullChainPem: fullChain(), password: "p" });
    const b = toPkcs12Base64({ privateKeyPem: chain.leafKeyPem, fullChainPem: fullChain(), password: "p" });
    expect(a).not.toBe(b);
  });

  it("generates strong, distinct passwords", () => {
    const seen = new Set(Array.from({ length: 50 }, generatePfxPassword));
    expect(seen.size).toBe(50);
    for (const p of seen) expect(p).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });
});

describe("PKCS#8 and combined PEM", () => {
  it("converts PKCS#1 RSA, SEC1 EC and PKCS#8 keys to the same PKCS#8 key", () => {
    const { privateKey: rsa } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const { privateKey: ec } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    for (const key of [rsa, ec]) {
      const forms = [
        key.export({ type: key.asymmetricKeyType === "rsa" ? "pkcs1" : "sec1", format: "pem" }).toString(),
        key.export({ type: "pkcs8", format: "pem" }).toString(),
      ];
      expect(forms[0]).toMatch(/BEGIN (RSA|EC) PRIVATE KEY/);
      for (const form of forms) {
        const out = toPkcs8Pem(form);
        expect(out).toMatch(/^-----BEGIN PRIVATE KEY-----\n[\s\S]+-----END PRIVATE KEY-----\n$/);
        expect(spki(out)).toBe(spki(forms[1]!));
      }
    }
    expect(toPkcs8Pem("")).toBe("");
  });

  it("puts the key before the full chain for HAProxy, and is empty without a key", () => {
    const out = combinedPem(chain.leafKeyPem, fullChain());
    const labels = [...out.matchAll(/-----BEGIN ([A-Z ]+)-----/g)].map((m) => m[1]);
    expect(labels).toEqual([expect.stringMatching(/PRIVATE KEY/), "CERTIFICATE", "CERTIFICATE"]);
    expect(out.endsWith("-----\n")).toBe(true);
    expect(combinedPem("", fullChain())).toBe("");
  });
});
