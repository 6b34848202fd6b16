// The deployment formats through the real engine: the PKCS#12 bundle the
// program builds opens with OpenSSL 3 (no -legacy) under the derived or given
// password and holds the key of the leaf, and is the same bytes on the next
// run; the PKCS#8 and combined PEM match; no new secret value (bundle,
// passwords, PKCS#8 key) appears in plaintext in the state files, the
// engine's event log or the CLI output; the Certificate's state holds none of
// the outputs the program computes, and a state written by the previous
// release (which stored them) upgrades without a change. Also measures each
// Certificate's state.
import { createPrivateKey, createPublicKey, X509Certificate } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import type { OutputMap, Stack } from "@pulumi/pulumi/automation";
import * as certs from "pulumi-certreseller";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { opensslPkcs12, opensslVerify, pemCertificates } from "../support/openssl.js";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { backendText, createWorld, openStack, recorder, type E2eWorld, type Transcript } from "./harness/stack.js";

const DOMAIN = "formats.e2e.example.com";
const GIVEN_PASSWORD = "given-pfx-password-7f3c9a21e5b8d604";
const CERTIFICATE_TYPE = "pulumi-nodejs:dynamic/certreseller:Certificate";
/** What the previous release stored and this one computes in the program. */
const DERIVED = ["fullChainPem", "serialNumber", "fingerprintSha256", "notBefore", "pfxBase64", "pfxPassword"];

function program(managementUrl: string) {
  return async () => {
    const config = new pulumi.Config("site");
    const timeoutMinutes = config.getNumber("timeoutMinutes");
    const order = new certs.Order("site", { productCode: "sandbox-dv-single", domain: DOMAIN, months: 12, verificationMethod: "dns" });
    const r = new certs.Validation("site", { order }).dnsRecordFor(DOMAIN);
    const record = new certs.testing.SandboxDnsRecord("dcv", { managementUrl, fqdn: r.fqdn, type: r.type, value: r.value });
    const generated = new certs.Certificate("generated", { orderNo: order.orderNo, timeoutMinutes }, { dependsOn: [record] });
    const given = new certs.Certificate("given", { orderNo: order.orderNo, timeoutMinutes, pfxPassword: config.requireSecret("pfxPassword") }, { dependsOn: [record] });
    return {
      orderNo: order.orderNo,
      certificatePem: generated.certificatePem,
      chainPem: generated.chainPem,
      serialNumber: generated.serialNumber,
      fingerprintSha256: generated.fingerprintSha256,
      notBefore: generated.notBefore,
      fullChainPem: generated.fullChainPem,
      privateKeyPem: generated.privateKeyPem,
      pfxBase64: generated.pfxBase64,
      pfxPassword: generated.pfxPassword,
      privateKeyPkcs8Pem: generated.privateKeyPkcs8Pem,
      combinedPem: generated.combinedPem,
      givenPfxBase64: given.pfxBase64,
      givenPfxPassword: given.pfxPassword,
    };
  };
}

/** The engine's marker of a secret value in a deployment, as the Pulumi runtime names it. */
const SECRET_SIG = pulumi.runtime.specialSigKey;
const SECRET_SIG_VALUE = pulumi.runtime.specialSecretSig;

interface ExportedResource {
  type: string;
  urn: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}
const certificatesIn = (state: { deployment: unknown }) =>
  ((state.deployment as { resources: ExportedResource[] }).resources ?? []).filter((r) => r.type === CERTIFICATE_TYPE);
const changesOf = (result: { summary: { resourceChanges?: Record<string, number> } }) =>
  Object.entries(result.summary.resourceChanges ?? {}).filter(([op, n]) => op !== "same" && n);

describe("Certificate formats through the engine", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;
  let outputs: OutputMap;
  const transcripts: Transcript[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    world = createWorld(sandbox);
    stack = await openStack(world, "formats", program(sandbox.managementUrl), "e2e", { "site:pfxPassword": { value: GIVEN_PASSWORD, secret: true } });
  });

  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await sandbox?.stop();
    world?.dispose();
  });

  const text = (k: string) => String(outputs[k]?.value ?? "");
  const spki = (key: string) => createPublicKey(createPrivateKey(key)).export({ type: "spki", format: "der" }).toString("hex");

  it("up issues; the bundle opens with OpenSSL 3 under the generated password: the verified chain and the leaf's key", async () => {
    const t = recorder();
    transcripts.push(t);
    const up = await stack.up({ onOutput: t.onOutput, onError: t.onError, onEvent: t.onEvent });
    outputs = up.outputs;
    for (const k of ["privateKeyPem", "pfxBase64", "pfxPassword", "privateKeyPkcs8Pem", "combinedPem", "givenPfxBase64", "givenPfxPassword"]) {
      expect(outputs[k]?.secret, `${k} is secret`).toBe(true);
    }
    expect(text("pfxPassword")).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(text("fullChainPem")).toBe(text("certificatePem") + text("chainPem"));
    const leaf = new X509Certificate(text("certificatePem"));
    expect(text("serialNumber")).toBe(leaf.serialNumber.replace(/^0+/, ""));
    expect(text("fingerprintSha256")).toBe(leaf.fingerprint256);
    expect(text("notBefore")).toBe(new Date(leaf.validFrom).toISOString());
    const certsOut = pemCertificates(opensslPkcs12(text("pfxBase64"), text("pfxPassword"), "-nokeys"));
    expect(certsOut.join("\n") + "\n").toBe(text("fullChainPem"));
    expect(opensslVerify(certsOut.join("\n"), await sandbox.management.rootPem())).toMatch(/leaf\.pem: OK/);
    const key = opensslPkcs12(text("pfxBase64"), text("pfxPassword"), "-nocerts").match(/-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/)![0];
    const leafKey = new X509Certificate(certsOut[0]!).publicKey.export({ type: "spki", format: "der" }).toString("hex");
    expect(spki(key)).toBe(leafKey);
  });

  it("the given secret password opens the other certificate's bundle", () => {
    expect(text("givenPfxPassword")).toBe(GIVEN_PASSWORD);
    expect(opensslPkcs12(text("givenPfxBase64"), GIVEN_PASSWORD, "-nokeys")).toContain("BEGIN CERTIFICATE");
  });

  it("PKCS#8 and combined PEM hold the same key; combined is key then full chain", () => {
    expect(text("privateKeyPkcs8Pem")).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(spki(text("privateKeyPkcs8Pem"))).toBe(spki(text("privateKeyPem")));
    expect(text("combinedPem")).toBe(`${text("privateKeyPem").trim()}\n${text("fullChainPem")}`);
  });

  it("a second up changes nothing: the bundle built again is the same bytes under the same password", async () => {
    const t = recorder();
    transcripts.push(t);
    const again = await stack.up({ onOutput: t.onOutput, onError: t.onError, onEvent: t.onEvent });
    expect(changesOf(again)).toEqual([]);
    for (const k of ["pfxBase64", "pfxPassword", "givenPfxBase64", "givenPfxPassword"]) expect(again.outputs[k]?.value, k).toBe(text(k));
  });

  it("no new secret value appears in plaintext in the state files, the event log or the CLI output", () => {
    const body = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");
    const needles: Record<string, string> = {
      pfxPassword: text("pfxPassword"),
      givenPfxPassword: GIVEN_PASSWORD,
      pfxBase64Start: text("pfxBase64").slice(0, 64),
      pfxBase64Middle: text("pfxBase64").slice(1000, 1064),
      givenPfxBase64Middle: text("givenPfxBase64").slice(1000, 1064),
      pkcs8Body: body(text("privateKeyPkcs8Pem")).slice(0, 64),
      pkcs8Line: text("privateKeyPkcs8Pem").split("\n")[1]!,
      keyLine: text("privateKeyPem").split("\n")[1]!,
      apiKey: sandbox.apiKey,
    };
    for (const [what, needle] of Object.entries(needles)) expect(needle.length, what).toBeGreaterThanOrEqual(20);
    const haystacks = {
      state: backendText(world),
      events: JSON.stringify(transcripts.flatMap((t) => t.events)),
      output: transcripts.map((t) => t.output).join("\n"),
    };
    for (const [where, hay] of Object.entries(haystacks)) {
      expect(hay.length, `${where} is empty: nothing was checked`).toBeGreaterThan(100);
      for (const [what, needle] of Object.entries(needles)) expect(hay.includes(needle), `${what} appears in plaintext in the ${where}`).toBe(false);
    }
  });

  it("stores none of the outputs the program computes, nor the password input; measures each Certificate's state", async () => {
    const state = await stack.exportStack();
    for (const certificate of certificatesIn(state)) {
      for (const k of DERIVED) expect(certificate.outputs, `${certificate.urn} ${k}`).not.toHaveProperty(k);
      expect(certificate.inputs, certificate.urn).not.toHaveProperty("pfxPassword");
    }
    const certificate = certificatesIn(state).find((r) => r.urn.endsWith("::generated"))!;
    const total = JSON.stringify(certificate).length;
    const size = (k: string) => JSON.stringify(certificate.outputs![k] ?? "").length;
    // The service generated this key: its CSR is not kept (only a custom-CSR order's is).
    expect(certificate.outputs).not.toHaveProperty("csrPem");
    console.log(
      `[state] Certificate resource ${total} bytes; privateKeyPem ${size("privateKeyPem")}, certificatePem ${size("certificatePem")}, chainPem ${size("chainPem")}; ` +
        `computed in the program, not stored: pfxBase64 ${text("pfxBase64").length}, fullChainPem ${text("fullChainPem").length}`,
    );
    expect(total).toBeLessThan(16 * 1024);
  });

  it("a state written by the previous release (the computed outputs stored, a pfxPassword input) upgrades with no change; the next real update drops them", async () => {
    const state = await stack.exportStack();
    // exportStack shows secrets as plaintext envelopes; importStack encrypts them again.
    const secret = (value: string) => ({ [SECRET_SIG]: SECRET_SIG_VALUE, plaintext: JSON.stringify(value) });
    const OLD_PASSWORD = "a-random-password-of-the-old-release";
    for (const certificate of certificatesIn(state)) {
      const given = certificate.urn.endsWith("::given");
      Object.assign(certificate.outputs!, {
        fullChainPem: text("fullChainPem"),
        serialNumber: text("serialNumber"),
        fingerprintSha256: text("fingerprintSha256"),
        notBefore: text("notBefore"),
        // That release built its bundles with random salts, and generated random passwords.
        pfxBase64: secret("MIIJ" + "A".repeat(3000)),
        pfxPassword: secret(given ? GIVEN_PASSWORD : OLD_PASSWORD),
      });
      if (given) certificate.inputs!.pfxPassword = secret(GIVEN_PASSWORD);
    }
    await stack.importStack(state);
    expect(Object.keys(certificatesIn(await stack.exportStack())[0]!.outputs!)).toEqual(expect.arrayContaining(DERIVED));

    // A refresh keeps them, and keeps them secret (the provider's read returns them as stored).
    const refresh = await stack.refresh();
    expect(changesOf(refresh)).toEqual([]);
    for (const certificate of certificatesIn(await stack.exportStack())) {
      for (const k of ["pfxBase64", "pfxPassword"]) expect(certificate.outputs![k], `${certificate.urn} ${k}`).toMatchObject({ [SECRET_SIG]: SECRET_SIG_VALUE });
    }
    expect(backendText(world)).not.toContain(OLD_PASSWORD);
    expect(backendText(world)).not.toContain(GIVEN_PASSWORD);

    const preview = await stack.preview();
    expect(Object.entries(preview.changeSummary).filter(([op, n]) => op !== "same" && n)).toEqual([]);
    const up = await stack.up();
    expect(changesOf(up)).toEqual([]);
    // The program computes them; the stored copies are ignored.
    for (const k of ["pfxBase64", "pfxPassword", "givenPfxBase64", "givenPfxPassword", "fullChainPem", "serialNumber"]) expect(up.outputs[k]?.value, k).toBe(text(k));
    const kept = certificatesIn(await stack.exportStack());
    expect(Object.keys(kept[0]!.outputs!)).toEqual(expect.arrayContaining(["pfxBase64", "fullChainPem"]));
    // The new state has the new inputs: no password input any more.
    for (const certificate of kept) expect(certificate.inputs, certificate.urn).not.toHaveProperty("pfxPassword");

    // A real change (the wait) updates both in place and writes the slim outputs.
    await stack.setConfig("site:timeoutMinutes", { value: "45" });
    try {
      const update = await stack.up();
      expect(update.summary.resourceChanges).toMatchObject({ update: 2 });
      for (const k of ["pfxBase64", "pfxPassword", "givenPfxBase64", "givenPfxPassword", "fullChainPem"]) expect(update.outputs[k]?.value, k).toBe(text(k));
      for (const certificate of certificatesIn(await stack.exportStack())) {
        for (const k of DERIVED) expect(certificate.outputs, `${certificate.urn} ${k}`).not.toHaveProperty(k);
        expect(certificate.outputs!.timeoutMinutes).toBe(45);
      }
    } finally {
      await stack.removeConfig("site:timeoutMinutes");
    }
  });

  it("destroy refunds", async () => {
    await stack.destroy();
    const [order] = await sandbox.management.orders();
    expect(order?.refund).toMatchObject({ mode: "direct" });
  });
});
