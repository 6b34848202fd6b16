import { execFileSync } from "node:child_process";
import { createPrivateKey, createPublicKey, X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handlers } from "../../src/resources/certificate/handlers.js";
import type { CertificateInputs, CertificateOutputs } from "../../src/resources/certificate/inputs.js";
import { startBench, type SandboxBench } from "../support/orders.js";

// The provider's create/diff/update against the sandbox (instant issuance):
// the PKCS#12 bundle it stores opens with OpenSSL 3 and holds the key of the leaf.
let h: SandboxBench;
let dir: string;
beforeAll(async () => {
  h = await startBench("Certificate", { validation: "auto", statusCooldownSeconds: 0, issueAfterSeconds: 0 });
  dir = mkdtempSync(join(tmpdir(), "cr-pfxlc-"));
});
afterAll(async () => {
  await h?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function pkcs12(outs: Pick<CertificateOutputs, "pfxBase64">, password: string, what: "-nokeys" | "-nocerts"): string {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pfx`);
  writeFileSync(file, Buffer.from(outs.pfxBase64, "base64"));
  return execFileSync("openssl", ["pkcs12", "-in", file, "-passin", `pass:${password}`, what, "-nodes"], { stdio: "pipe" }).toString();
}
const spki = (key: string) => createPublicKey(createPrivateKey(key)).export({ type: "spki", format: "der" }).toString("hex");

async function create(raw: Partial<CertificateInputs>): Promise<CertificateOutputs> {
  const checked = await handlers.check!(h.ctx, {} as CertificateInputs, raw as CertificateInputs);
  expect(checked.failures ?? []).toEqual([]);
  return (await handlers.create(h.ctx, checked.inputs as CertificateInputs)).outs!;
}

describe("Certificate PKCS#12 output", () => {
  let outs: CertificateOutputs;

  it("create stores a bundle (leaf, chain, matching key) under a generated strong password", async () => {
    const order = await h.buy({ productCode: "sandbox-dv-single", domain: "pfx.example.com", verificationMethod: "dns" });
    outs = await create({ orderNo: order.orderNo });
    expect(outs.pfxPassword).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const certs = pkcs12(outs, outs.pfxPassword, "-nokeys").match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)!;
    expect(certs.join("\n") + "\n").toBe(outs.fullChainPem);
    const key = pkcs12(outs, outs.pfxPassword, "-nocerts").match(/-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/)![0];
    expect(spki(key)).toBe(new X509Certificate(outs.certificatePem).publicKey.export({ type: "spki", format: "der" }).toString("hex"));
    expect(spki(key)).toBe(spki(outs.privateKeyPem));
  });

  it("a given password is used; changing it is an in-place update that rebuilds the bundle", async () => {
    const inputs = { orderNo: outs.orderNo, timeoutMinutes: outs.timeoutMinutes, pfxPassword: "first password" };
    const diff = await handlers.diff!(h.ctx, outs.certId, outs, inputs as CertificateInputs);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const updated = (await handlers.update!(h.ctx, outs.certId, outs, inputs as CertificateInputs)).outs!;
    expect(updated.pfxPassword).toBe("first password");
    expect(updated.certId).toBe(outs.certId);
    expect(updated.privateKeyPem).toBe(outs.privateKeyPem);
    expect(pkcs12(updated, "first password", "-nokeys")).toContain("BEGIN CERTIFICATE");
    expect(() => pkcs12(updated, outs.pfxPassword, "-nokeys")).toThrow();
    // The same password again: no change, the stored bundle is kept byte for byte.
    expect((await handlers.diff!(h.ctx, outs.certId, updated, inputs as CertificateInputs)).changes).toBe(false);
  });

  it("a certificate stored by an earlier release (no bundle) gets one by an in-place update, not a new certificate", async () => {
    const { pfxBase64: _b, pfxPassword: _p, ...old } = outs;
    const inputs = { orderNo: outs.orderNo, timeoutMinutes: outs.timeoutMinutes };
    const diff = await handlers.diff!(h.ctx, outs.certId, old as CertificateOutputs, inputs as CertificateInputs);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const updated = (await handlers.update!(h.ctx, outs.certId, old as CertificateOutputs, inputs as CertificateInputs)).outs!;
    expect(updated.pfxPassword).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(pkcs12(updated, updated.pfxPassword, "-nocerts")).toContain("BEGIN PRIVATE KEY");
  });

  it("an empty pfxPassword fails check without echoing anything", async () => {
    const r = await handlers.check!(h.ctx, {} as CertificateInputs, { orderNo: "CERT1", pfxPassword: "" } as CertificateInputs);
    expect(r.failures).toEqual([{ property: "pfxPassword", reason: expect.stringContaining("non-empty") }]);
  });
});
