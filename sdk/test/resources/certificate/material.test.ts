import { beforeAll, describe, expect, it } from "vitest";
import { certificateBlocks } from "../../../src/pem/blocks.js";
import { fullChainPem } from "../../../src/pem/formats.js";
import { verifyMaterial } from "../../../src/resources/certificate/material.js";
import { opensslChain, opensslFingerprint, opensslSerial, type TestChain } from "../../../../tests/support/openssl.js";

let chain: TestChain;
beforeAll(() => {
  chain = opensslChain();
});

describe("verifyMaterial", () => {
  it("splits leaf, intermediates and full chain and reads the facts from the leaf", () => {
    const m = verifyMaterial(
      {
        leafPem: chain.leafPem,
        chainPem: chain.leafPem + chain.intermediatePem,
        intermediatePem: chain.intermediatePem,
        privateKeyPem: chain.leafKeyPem,
        fingerprintSha256: opensslFingerprint(chain.leafPem).toLowerCase(),
        serialNumber: opensslSerial(chain.leafPem),
      },
      "CERT1",
    );
    expect(certificateBlocks(m.certificatePem)).toHaveLength(1);
    expect(certificateBlocks(m.chainPem)).toEqual(certificateBlocks(chain.intermediatePem));
    expect(certificateBlocks(m.fullChainPem)).toEqual([...certificateBlocks(chain.leafPem), ...certificateBlocks(chain.intermediatePem)]);
    expect(m.fingerprintSha256).toBe(opensslFingerprint(chain.leafPem));
    expect(m.serialNumber).toBe(opensslSerial(chain.leafPem).replace(/^0+/, ""));
    expect(m.subjectAltNames).toEqual(["example.com", "www.example.com"]);
    expect(Date.parse(m.notAfter) - Date.parse(m.notBefore)).toBe(10 * 86_400_000);
    expect(m.privateKeyPem).toContain("PRIVATE KEY");
  });

  it("derives leaf and intermediates from the chain alone, tolerating CRLF", () => {
    const m = verifyMaterial({ chainPem: (chain.leafPem + chain.intermediatePem).replace(/\n/g, "\r\n") }, "CERT1");
    expect(certificateBlocks(m.certificatePem)).toEqual(certificateBlocks(chain.leafPem));
    expect(certificateBlocks(m.chainPem)).toEqual(certificateBlocks(chain.intermediatePem));
    expect(m.privateKeyPem).toBe("");
  });

  it("certificatePem + chainPem is byte for byte the fullChainPem earlier releases stored (the class derives it)", () => {
    const crlf = (t: string) => t.replace(/\n/g, "\r\n");
    const downloads = [
      { leafPem: chain.leafPem, chainPem: chain.leafPem + chain.intermediatePem, intermediatePem: chain.intermediatePem },
      { chainPem: crlf(chain.leafPem + "\n\n  " + chain.intermediatePem + "  \n") },
      { leafPem: `  ${chain.leafPem}\n\n`, intermediatePem: `${chain.intermediatePem}${chain.rootPem}`.replace(/\n/g, "  \n") },
      { leafPem: chain.leafPem.trim() },
      { chainPem: crlf(chain.leafPem) },
    ];
    for (const download of downloads) {
      const m = verifyMaterial(download, "CERT1");
      expect(fullChainPem(m.certificatePem, m.chainPem)).toBe(m.fullChainPem);
    }
    expect(verifyMaterial(downloads[2]!, "CERT1").fullChainPem.match(/BEGIN CERTIFICATE/g)).toHaveLength(3);
  });

  it("refuses a fingerprint that does not match the leaf", () => {
    expect(() =>
      verifyMaterial({ leafPem: chain.leafPem, intermediatePem: chain.intermediatePem, fingerprintSha256: "AA:".repeat(31) + "AA" }, "CERT1"),
    ).toThrow(/fingerprint_sha256 .* but the downloaded leaf's SHA-256 fingerprint is/);
  });

  it("refuses a serial that does not match the leaf", () => {
    expect(() => verifyMaterial({ leafPem: chain.leafPem, serialNumber: "0BADBEEF" }, "CERT1")).toThrow(/serial_number 0BADBEEF/);
  });

  it("refuses a private key of another certificate, without echoing the key", () => {
    let message = "";
    try {
      verifyMaterial({ leafPem: chain.leafPem, privateKeyPem: chain.otherKeyPem }, "CERT1");
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/private key does not belong to the downloaded certificate/);
    expect(message).not.toContain("PRIVATE KEY");
  });

  it("refuses a chain in the wrong order or with a foreign intermediate", () => {
    expect(() => verifyMaterial({ leafPem: chain.leafPem, intermediatePem: chain.rootPem + chain.intermediatePem }, "CERT1")).toThrow(/not signed by certificate 2/);
    const other = opensslChain(["other.test"]);
    expect(() => verifyMaterial({ leafPem: chain.leafPem, intermediatePem: other.intermediatePem }, "CERT1")).toThrow(/not signed/);
  });

  it("refuses an empty download", () => {
    expect(() => verifyMaterial({ leafPem: "", chainPem: null }, "CERT1")).toThrow(/contains no certificate/);
  });
});
