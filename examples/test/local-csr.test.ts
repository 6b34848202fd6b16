/**
 * The custom-csr example's key/CSR provider, run for real: the CSR must be
 * one OpenSSL accepts (signature, subject, SANs) and match the private key.
 */
import { createPrivateKey, createPublicKey } from "node:crypto";
import { describe, expect, it } from "vitest";
import { opensslSync } from "../../tests/support/openssl";
import { localCsrProvider } from "../custom-csr/local-csr";

/** openssl reading `pem` (on stdin). */
const openssl = (args: string[], pem: string): string => opensslSync(args, { input: pem });

describe("LocalCsr provider", () => {
  it.each(["p-256", "rsa-2048"] as const)("creates a %s key and a CSR that OpenSSL verifies", async (keySpec) => {
    const names = ["csr.example.com", "www.csr.example.com", "*.csr.example.com"];
    const { id, outs } = await localCsrProvider.create({ commonName: names[0]!, dnsNames: names, keySpec, organization: "Example, Inc." });
    const text = openssl(["req", "-verify", "-noout", "-text"], outs.csrPem);
    expect(text).toMatch(/CN\s*=\s*csr\.example\.com/);
    expect(text).toMatch(/O\s*=\s*"?Example\\?, Inc\./);
    for (const n of names) expect(text).toContain(`DNS:${n}`);
    expect(text).toContain(keySpec === "p-256" ? "prime256v1" : "2048 bit");
    // The key in the outputs is the CSR's key, and the id does not reveal it.
    const fromKey = createPublicKey(createPrivateKey(outs.privateKeyPem)).export({ type: "spki", format: "pem" });
    expect(fromKey).toBe(outs.publicKeyPem);
    expect(openssl(["req", "-noout", "-pubkey"], outs.csrPem)).toBe(outs.publicKeyPem);
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(outs.csrPem).not.toContain("PRIVATE");
  });

  it("replaces the key when any input changes, and only then", async () => {
    const olds = { commonName: "a.example.com", dnsNames: ["a.example.com"], keySpec: "p-256" as const, csrPem: "", privateKeyPem: "", publicKeyPem: "" };
    expect(await localCsrProvider.diff("id", olds, { commonName: "a.example.com", dnsNames: ["a.example.com"], keySpec: "p-256" })).toEqual({ changes: false, replaces: [] });
    expect(await localCsrProvider.diff("id", olds, { commonName: "a.example.com", dnsNames: ["a.example.com", "b.example.com"], keySpec: "p-256" })).toEqual({
      changes: true,
      replaces: ["dnsNames"],
    });
  });

  it("names the field of a bad key spec at preview", async () => {
    const result = await localCsrProvider.check({}, { commonName: "a.example.com", dnsNames: ["a.example.com"], keySpec: "dsa-1024" as never });
    expect(result.failures).toEqual([{ property: "keySpec", reason: "keySpec must be one of p-256, p-384, rsa-2048, rsa-3072, rsa-4096" }]);
  });
});
