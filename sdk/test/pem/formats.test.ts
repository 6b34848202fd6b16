import { createPrivateKey, createPublicKey, generateKeyPairSync, X509Certificate } from "node:crypto";
import * as forge from "node-forge";
import { beforeAll, describe, expect, it } from "vitest";
import { combinedPem, derivePfxPassword, fullChainPem, pfxBundle, toPkcs12Base64, toPkcs8Pem } from "../../src/pem/formats.js";
import { opensslChain, opensslPkcs12, opensslPkcs12Info, type TestChain } from "../../../tests/support/openssl.js";

let chain: TestChain;
beforeAll(() => {
  chain = opensslChain(["pfx.example.com"]);
});

/** The MAC salt, the PBKDF2 salt and the AES IV of a bundle (hex), read from its ASN.1. */
function saltsOf(pfx: Buffer): { macSalt: string; pbkdf2Salt: string; iv: string } {
  const { asn1 } = forge;
  const hex = (n: forge.asn1.Asn1) => Buffer.from(n.value as string, "binary").toString("hex");
  const kids = (n: forge.asn1.Asn1) => n.value as forge.asn1.Asn1[];
  const root = kids(asn1.fromDer(pfx.toString("binary")));
  const authSafe = kids(asn1.fromDer(kids(kids(root[1]!)[1]!)[0]!.value as string));
  const keyBags = kids(asn1.fromDer(kids(kids(authSafe[1]!)[1]!)[0]!.value as string));
  const encrypted = kids(kids(keyBags[0]!)[1]!)[0]!;
  const pbes2 = kids(kids(kids(encrypted)[0]!)[1]!);
  return { macSalt: hex(kids(root[2]!)[1]!), pbkdf2Salt: hex(kids(kids(pbes2[0]!)[1]!)[0]!), iv: hex(kids(pbes2[1]!)[1]!) };
}

const spki = (keyPem: string) => createPublicKey(createPrivateKey(keyPem)).export({ type: "spki", format: "der" }).toString("base64");
const fullChain = () => `${chain.leafPem.trim()}\n${chain.intermediatePem.trim()}\n`;

describe("PKCS#12 bundle", () => {
  it("opens with OpenSSL 3 without -legacy: leaf + chain, and a key that matches the leaf (EC key)", () => {
    const password = derivePfxPassword(chain.leafKeyPem);
    const pfx = toPkcs12Base64({ privateKeyPem: chain.leafKeyPem, fullChainPem: fullChain(), password, friendlyName: "pfx.example.com" });
    const certsOut = opensslPkcs12(pfx, password, "-nokeys");
    const certs = certsOut.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)!;
    expect(certs.map((c) => new X509Certificate(c).fingerprint256)).toEqual([
      new X509Certificate(chain.leafPem).fingerprint256,
      new X509Certificate(chain.intermediatePem).fingerprint256,
    ]);
    expect(certsOut).toContain("friendlyName: pfx.example.com");
    const keyOut = opensslPkcs12(pfx, password, "-nocerts");
    const keyPem = keyOut.match(/-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/)![0];
    expect(spki(keyPem)).toBe(new X509Certificate(chain.leafPem).publicKey.export({ type: "spki", format: "der" }).toString("base64"));
  });

  it("holds an RSA key too, and refuses a wrong password", () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const rsaPem = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
    const password = "correct horse battery staple";
    const pfx = toPkcs12Base64({ privateKeyPem: rsaPem, fullChainPem: fullChain(), password });
    const keyPem = opensslPkcs12(pfx, password, "-nocerts").match(/-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/)![0];
    expect(spki(keyPem)).toBe(spki(rsaPem));
    expect(() => opensslPkcs12(pfx, "wrong password", "-nokeys")).toThrow(/mac verify failure|invalid password/i);
  });

  it("is empty without a key (custom CSR)", () => {
    expect(toPkcs12Base64({ privateKeyPem: "", fullChainPem: fullChain(), password: "x" })).toBe("");
    expect(pfxBundle({ privateKeyPem: "", fullChainPem: fullChain() })).toEqual({ pfxBase64: "", pfxPassword: "" });
    expect(pfxBundle({ privateKeyPem: " \n", fullChainPem: fullChain(), password: "given" })).toEqual({ pfxBase64: "", pfxPassword: "" });
    expect(derivePfxPassword("")).toBe("");
  });

  it("uses the algorithms OpenSSL 3 opens without -legacy: PBES2 (PBKDF2-HMAC-SHA256, AES-256-CBC) and an HMAC-SHA256 MAC", () => {
    const { pfxBase64, pfxPassword } = pfxBundle({ privateKeyPem: chain.leafKeyPem, fullChainPem: fullChain() });
    const info = opensslPkcs12Info(pfxBase64, pfxPassword);
    expect(info).toMatch(/MAC: sha256, Iteration 2048/);
    expect(info).toMatch(/MAC length: 32, salt length: 16/);
    expect(info).toMatch(/Shrouded Keybag: PBES2, PBKDF2, AES-256-CBC, Iteration 2048, PRF hmacWithSHA256/);
  });
});

describe("PKCS#12 bundle is deterministic", () => {
  it("the same key, chain and password give the same bytes on every build", () => {
    const input = { privateKeyPem: chain.leafKeyPem, fullChainPem: fullChain(), password: "p", friendlyName: "pfx.example.com" };
    const a = toPkcs12Base64(input);
    expect(toPkcs12Base64(input)).toBe(a);
    expect(toPkcs12Base64({ ...input })).toBe(a);
    // The key's PEM form does not matter: every derivation reads its PKCS#8 DER.
    expect(toPkcs12Base64({ ...input, privateKeyPem: toPkcs8Pem(chain.leafKeyPem) })).toBe(a);
    const sec1 = createPrivateKey(chain.leafKeyPem).export({ type: "sec1", format: "pem" }).toString();
    expect(toPkcs12Base64({ ...input, privateKeyPem: sec1 })).toBe(a);
  });

  it("another password, chain or friendly name gives other bytes (new password: new salts and IV too)", () => {
    const input = { privateKeyPem: chain.leafKeyPem, fullChainPem: fullChain(), password: "p", friendlyName: "pfx.example.com" };
    const a = Buffer.from(toPkcs12Base64(input), "base64");
    const b = Buffer.from(toPkcs12Base64({ ...input, password: "q" }), "base64");
    expect(b.equals(a)).toBe(false);
    // Not only the MAC: the salts and the IV differ as well.
    const [sa, sb] = [saltsOf(a), saltsOf(b)];
    for (const k of ["macSalt", "pbkdf2Salt", "iv"] as const) {
      expect(sa[k]).toHaveLength(32);
      expect(sb[k], k).not.toBe(sa[k]);
    }
    expect(new Set(Object.values(sa)).size).toBe(3);
    expect(toPkcs12Base64({ ...input, friendlyName: "other.example.com" })).not.toBe(toPkcs12Base64(input));
    expect(toPkcs12Base64({ ...input, fullChainPem: chain.leafPem })).not.toBe(toPkcs12Base64(input));
  });

  it("derives a 32-character password from the key: the same for the same key in any form, another for another key", () => {
    const p = derivePfxPassword(chain.leafKeyPem);
    expect(p).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(derivePfxPassword(toPkcs8Pem(chain.leafKeyPem))).toBe(p);
    expect(derivePfxPassword(chain.otherKeyPem)).not.toBe(p);
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs1", format: "pem" }).toString();
    expect(derivePfxPassword(rsa)).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(() => derivePfxPassword("-----BEGIN PRIVATE KEY-----\nnot-a-key\n-----END PRIVATE KEY-----\n")).toThrow(/not a private key node:crypto can read/);
  });

  it("opens with OpenSSL under the derived password, holding the leaf's key; a given password wins", () => {
    const derived = pfxBundle({ privateKeyPem: chain.leafKeyPem, fullChainPem: fullChain(), friendlyName: "pfx.example.com" });
    expect(derived.pfxPassword).toBe(derivePfxPassword(chain.leafKeyPem));
    expect(pfxBundle({ privateKeyPem: chain.leafKeyPem, fullChainPem: fullChain(), friendlyName: "pfx.example.com" })).toEqual(derived);
    const keyPem = opensslPkcs12(derived.pfxBase64, derived.pfxPassword, "-nocerts").match(/-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/)![0];
    expect(spki(keyPem)).toBe(new X509Certificate(chain.leafPem).publicKey.export({ type: "spki", format: "der" }).toString("base64"));
    const certs = opensslPkcs12(derived.pfxBase64, derived.pfxPassword, "-nokeys").match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)!;
    expect(certs.join("\n") + "\n").toBe(fullChain());
    const given = pfxBundle({ privateKeyPem: chain.leafKeyPem, fullChainPem: fullChain(), password: "given password" });
    expect(given.pfxPassword).toBe("given password");
    expect(opensslPkcs12(given.pfxBase64, "given password", "-nokeys")).toContain("BEGIN CERTIFICATE");
    expect(() => opensslPkcs12(given.pfxBase64, derived.pfxPassword, "-nokeys")).toThrow(/mac verify failure|invalid password/i);
  });
});

describe("fullChainPem", () => {
  it("is certificatePem then chainPem", () => {
    const leaf = chain.leafPem.trim() + "\n";
    const ints = chain.intermediatePem.trim() + "\n";
    expect(fullChainPem(leaf, ints)).toBe(fullChain());
    expect(fullChainPem(leaf, "")).toBe(leaf);
    expect(fullChainPem(chain.leafPem.trim(), ints)).toBe(fullChain());
    expect(fullChainPem("", "")).toBe("");
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
