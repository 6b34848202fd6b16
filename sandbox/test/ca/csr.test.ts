import { describe, expect, it } from "vitest";
import { CsrError, parseCsr } from "../../src/ca/index.js";
import { opensslCsr, privateKeyPemFor, tamperCsr } from "./support/csr.js";

describe("parseCsr", () => {
  it("reads CN, O, SAN DNS names and IP addresses, and the RSA key size", async () => {
    const { csrPem } = await opensslCsr(
      "rsa-2048",
      "/C=DE/O=Acme GmbH/CN=shop.example.com",
      "DNS:shop.example.com,DNS:*.Shop.example.com,IP:192.0.2.10,IP:2001:db8::a",
    );
    expect(await parseCsr(csrPem)).toEqual({
      commonName: "shop.example.com",
      organization: "Acme GmbH",
      dnsNames: ["shop.example.com", "*.shop.example.com"],
      ipAddresses: ["192.0.2.10", "2001:db8::a"],
      keyAlgorithm: "rsa",
      keySize: 2048,
      keySpec: "rsa-2048",
      signatureValid: true,
    });
  });

  it.each([
    ["p-256", 256, "P-256"],
    ["p-384", 384, "P-384"],
  ] as const)("reads an ECDSA %s key", async (spec, keySize, namedCurve) => {
    const { csrPem } = await opensslCsr(spec, "/CN=ec.example.com");
    expect(await parseCsr(csrPem)).toEqual({
      commonName: "ec.example.com",
      dnsNames: [],
      ipAddresses: [],
      keyAlgorithm: "ecc",
      keySize,
      namedCurve,
      keySpec: spec,
      signatureValid: true,
    });
  });

  it("reports a key type the CA does not issue for as other", async () => {
    const { csrPem } = await opensslCsr("ed25519", "/CN=ed.example.com");
    const parsed = await parseCsr(csrPem);
    expect(parsed.keyAlgorithm).toBe("other");
    expect(parsed.keySpec).toBeUndefined();
  });

  it("says signatureValid false for a CSR altered after signing", async () => {
    const { csrPem } = await opensslCsr("p-256", "/CN=tamper.example.com", "DNS:tamper.example.com");
    expect((await parseCsr(csrPem)).signatureValid).toBe(true);
    const tampered = await parseCsr(tamperCsr(csrPem, "tamper.example.com"));
    expect(tampered.signatureValid).toBe(false);
    expect(tampered.commonName).toBe("uamper.example.com");
  });

  it("accepts the legacy NEW CERTIFICATE REQUEST label and surrounding text", async () => {
    const { csrPem } = await opensslCsr("p-256", "/CN=legacy.example.com");
    const legacy = `Subject: legacy\n${csrPem.replace(/CERTIFICATE REQUEST/g, "NEW CERTIFICATE REQUEST")}\n`;
    expect((await parseCsr(legacy)).commonName).toBe("legacy.example.com");
  });

  it("keeps only the CSR block when the CA issues for a CSR pasted with surrounding text", async () => {
    const { loadOrCreateCa } = await import("../../src/ca/index.js");
    const { csrPem } = await opensslCsr("p-256", "/CN=pasted.example.com");
    const ca = await loadOrCreateCa();
    const now = Date.now();
    const cert = await ca.issue({
      names: ["pasted.example.com"], keySpec: "p-256", hashAlgorithm: "sha256",
      csrPem: `Here is my CSR:\r\n${csrPem.replace(/\n/g, "\r\n")}\r\nthanks\r\n`,
      notBefore: new Date(now), notAfter: new Date(now + 86_400_000),
    });
    expect(cert.csrPem).toBe(csrPem);
  });

  describe("throws CsrError saying what is wrong", () => {
    it("for text that is not PEM", async () => {
      await expect(parseCsr("hello")).rejects.toThrow(CsrError);
      await expect(parseCsr("hello")).rejects.toThrow(/not PEM: expected a -----BEGIN CERTIFICATE REQUEST----- block/);
    });

    it("for a private key, without repeating it", async () => {
      const keyPem = await privateKeyPemFor("p-256");
      const error = await parseCsr(keyPem).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CsrError);
      expect((error as Error).message).toMatch(/"PRIVATE KEY", expected "CERTIFICATE REQUEST" — this is a private key/);
      const body = keyPem.split("\n")[1]!;
      expect((error as Error).message).not.toContain(body.slice(0, 16));
    });

    it("for a CSR block that does not decode", async () => {
      const garbage = `-----BEGIN CERTIFICATE REQUEST-----\n${Buffer.from("not asn.1 at all").toString("base64")}\n-----END CERTIFICATE REQUEST-----\n`;
      await expect(parseCsr(garbage)).rejects.toThrow(/does not decode as a PKCS#10/);
    });

    it("for two CSRs in one text", async () => {
      const { csrPem } = await opensslCsr("p-256", "/CN=twice.example.com");
      await expect(parseCsr(csrPem + csrPem)).rejects.toThrow(/single PEM block, found 2/);
    });
  });
});
