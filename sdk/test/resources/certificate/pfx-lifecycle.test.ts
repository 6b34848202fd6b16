import { createPrivateKey, createPublicKey, X509Certificate } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fullChainPem, pfxBundle } from "../../../src/pem/formats.js";
import { certificateFacts } from "../../../src/pem/inspect.js";
import { handlers } from "../../../src/resources/certificate/handlers.js";
import type { CertificateInputs } from "../../../src/resources/certificate/inputs.js";
import { DERIVED_OUTPUTS, type CertificateState } from "../../../src/resources/certificate/state.js";
import { makeCsr } from "../../support/csr.js";
import { opensslPkcs12 } from "../../../../tests/support/openssl.js";
import { startBench, type SandboxBench } from "../../support/orders.js";

// The provider's create/diff/update against the sandbox (instant issuance):
// it stores only what cannot be recomputed, the PKCS#12 bundle the class
// builds from those outputs opens with OpenSSL 3, and a state written by the
// previous release (which stored the bundle, its password, the full chain,
// serial, fingerprint and notBefore) upgrades without an update.
let h: SandboxBench;
beforeAll(async () => {
  h = await startBench("Certificate", { validation: "auto", statusCooldownSeconds: 0, issueAfterSeconds: 0 });
});
afterAll(async () => {
  await h?.stop();
});

const spki = (key: string) => createPublicKey(createPrivateKey(key)).export({ type: "spki", format: "der" }).toString("hex");

async function check(raw: Partial<CertificateInputs>): Promise<CertificateInputs> {
  const checked = await handlers.check!(h.ctx, {} as CertificateInputs, raw as CertificateInputs);
  expect(checked.failures ?? []).toEqual([]);
  return checked.inputs as CertificateInputs;
}

/** What the class computes in the program from the stored outputs. */
function classBundle(outs: CertificateState, password?: string) {
  return pfxBundle({ privateKeyPem: outs.privateKeyPem, fullChainPem: fullChainPem(outs.certificatePem, outs.chainPem), password, friendlyName: outs.domains[0] });
}

/** A Certificate's outputs as the previous release stored them. */
function previousReleaseState(outs: CertificateState): CertificateState {
  const facts = certificateFacts(outs.certificatePem);
  return {
    ...outs,
    fullChainPem: fullChainPem(outs.certificatePem, outs.chainPem),
    serialNumber: facts.serialNumber,
    fingerprintSha256: facts.fingerprintSha256,
    notBefore: facts.notBefore,
    // Built with a random salt and a random (or the user's) password.
    pfxBase64: "MIIJ" + "A".repeat(3000),
    pfxPassword: "random-password-of-the-old-release",
  } as CertificateState;
}

describe("Certificate PKCS#12 output", () => {
  let outs: CertificateState;

  it("create stores none of the derived outputs; the class's bundle (derived password) opens with OpenSSL: leaf, chain, matching key", async () => {
    const order = await h.buy({ productCode: "sandbox-dv-single", domain: "pfx.example.com", verificationMethod: "dns" });
    outs = (await handlers.create(h.ctx, await check({ orderNo: order.orderNo }))).outs!;
    for (const k of DERIVED_OUTPUTS) expect(outs, k).not.toHaveProperty(k);
    expect(Object.keys(outs).sort()).toEqual(["accountEndpoint", "accountId", "certId", "certificatePem", "chainPem", "domains", "installmentNo", "installmentsCount", "notAfter", "orderNo", "privateKeyPem", "timeoutMinutes"]);
    const { pfxBase64, pfxPassword } = classBundle(outs);
    expect(pfxPassword).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const certs = opensslPkcs12(pfxBase64, pfxPassword, "-nokeys").match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)!;
    expect(certs.join("\n") + "\n").toBe(fullChainPem(outs.certificatePem, outs.chainPem));
    const key = opensslPkcs12(pfxBase64, pfxPassword, "-nocerts").match(/-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/)![0];
    expect(spki(key)).toBe(new X509Certificate(outs.certificatePem).publicKey.export({ type: "spki", format: "der" }).toString("hex"));
    expect(spki(key)).toBe(spki(outs.privateKeyPem));
    // The same outputs give the same bundle on the next run.
    expect(classBundle(outs)).toEqual({ pfxBase64, pfxPassword });
    expect(classBundle(outs, "given password").pfxBase64).not.toBe(pfxBase64);
  });

  it("a state of the previous release (every old output stored, a pfxPassword input) is no change; the next real update writes the slim outputs", async () => {
    const old = previousReleaseState(outs);
    // The class no longer sends pfxPassword, whether or not the program gives one.
    const news = await check({ orderNo: outs.orderNo });
    expect(news).not.toHaveProperty("pfxPassword");
    expect(await handlers.diff!(h.ctx, outs.certId, old, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    // Nor did the release before it, which stored no bundle at all.
    const { pfxBase64: _b, pfxPassword: _p, ...beforePfx } = old;
    expect((await handlers.diff!(h.ctx, outs.certId, beforePfx as CertificateState, news)).changes).toBe(false);

    // A real change (the wait): an in-place update that keeps the certificate and drops the stored extras.
    const longer = await check({ orderNo: outs.orderNo, timeoutMinutes: 90 });
    expect(await handlers.diff!(h.ctx, outs.certId, old, longer)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    const updated = (await handlers.update!(h.ctx, outs.certId, old, longer)).outs!;
    for (const k of DERIVED_OUTPUTS) expect(updated, k).not.toHaveProperty(k);
    expect(updated).toEqual({ ...outs, timeoutMinutes: 90 });
    expect((await handlers.diff!(h.ctx, outs.certId, updated, longer)).changes).toBe(false);
  });

  it("csrPem is stored for a custom-CSR order (the customer's own request) and not when the service generated the key", async () => {
    const customCsr = await makeCsr({ commonName: "own-csr.example.com", altNames: ["own-csr.example.com"], key: "p-256" });
    const own = await h.buy({ productCode: "sandbox-dv-single", domain: "own-csr.example.com", verificationMethod: "dns", customCsr, signatureAlgorithm: "ecc", keySpec: "p-256" } as never);
    const ownOuts = (await handlers.create(h.ctx, await check({ orderNo: own.orderNo }))).outs!;
    expect(ownOuts.privateKeyPem).toBe("");
    expect(ownOuts.csrPem?.replace(/\s+/g, "")).toBe(customCsr.replace(/\s+/g, ""));
    expect(outs).not.toHaveProperty("csrPem");
  });
});
