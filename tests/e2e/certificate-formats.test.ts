// The deployment formats through the real engine: the PKCS#12 bundle opens
// with OpenSSL 3 (no -legacy) under the generated or given password and holds
// the key of the leaf; the PKCS#8 and combined PEM match; no new secret value
// (bundle, passwords, PKCS#8 key) appears in plaintext in the state files,
// the engine's event log or the CLI output. Also measures what the bundle
// adds to each Certificate's state.
import { execFileSync } from "node:child_process";
import { createPrivateKey, createPublicKey, X509Certificate } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { OutputMap, Stack } from "@pulumi/pulumi/automation";
import * as certs from "pulumi-certreseller";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { opensslVerify, pemCertificates } from "./harness/openssl.js";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { backendText, createWorld, openStack, recorder, type E2eWorld, type Transcript } from "./harness/stack.js";

const DOMAIN = "formats.e2e.example.com";
const GIVEN_PASSWORD = "given-pfx-password-7f3c9a21e5b8d604";

function program(managementUrl: string) {
  return async () => {
    const order = new certs.Order("site", { productCode: "sandbox-dv-single", domain: DOMAIN, months: 12, verificationMethod: "dns" });
    const r = new certs.Validation("site", { order }).dnsRecordFor(DOMAIN);
    const record = new certs.testing.SandboxDnsRecord("dcv", { managementUrl, fqdn: r.fqdn, type: r.type, value: r.value });
    const generated = new certs.Certificate("generated", { orderNo: order.orderNo }, { dependsOn: [record] });
    const given = new certs.Certificate("given", { orderNo: order.orderNo, pfxPassword: new pulumi.Config("site").requireSecret("pfxPassword") }, { dependsOn: [record] });
    return {
      orderNo: order.orderNo,
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

describe("Certificate formats through the engine", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;
  let outputs: OutputMap;
  let dir: string;
  const transcripts: Transcript[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    world = createWorld(sandbox);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cr-e2e-pfx-"));
    stack = await openStack(world, "formats", program(sandbox.managementUrl), "e2e", { "site:pfxPassword": { value: GIVEN_PASSWORD, secret: true } });
  });

  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await sandbox?.stop();
    world?.dispose();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const text = (k: string) => String(outputs[k]?.value ?? "");
  function pkcs12(base64: string, password: string, what: "-nokeys" | "-nocerts"): string {
    const file = path.join(dir, `${what}.pfx`);
    fs.writeFileSync(file, Buffer.from(base64, "base64"));
    return execFileSync("openssl", ["pkcs12", "-in", file, "-passin", `pass:${password}`, what, "-nodes"], { stdio: "pipe" }).toString();
  }
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
    const certsOut = pemCertificates(pkcs12(text("pfxBase64"), text("pfxPassword"), "-nokeys"));
    expect(certsOut.join("\n") + "\n").toBe(text("fullChainPem"));
    expect(opensslVerify(certsOut.join("\n"), await sandbox.management.rootPem())).toMatch(/leaf\.pem: OK/);
    const key = pkcs12(text("pfxBase64"), text("pfxPassword"), "-nocerts").match(/-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/)![0];
    const leafKey = new X509Certificate(certsOut[0]!).publicKey.export({ type: "spki", format: "der" }).toString("hex");
    expect(spki(key)).toBe(leafKey);
  });

  it("the given secret password opens the other certificate's bundle", () => {
    expect(text("givenPfxPassword")).toBe(GIVEN_PASSWORD);
    expect(pkcs12(text("givenPfxBase64"), GIVEN_PASSWORD, "-nokeys")).toContain("BEGIN CERTIFICATE");
  });

  it("PKCS#8 and combined PEM hold the same key; combined is key then full chain", () => {
    expect(text("privateKeyPkcs8Pem")).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(spki(text("privateKeyPkcs8Pem"))).toBe(spki(text("privateKeyPem")));
    expect(text("combinedPem")).toBe(`${text("privateKeyPem").trim()}\n${text("fullChainPem")}`);
  });

  it("a second up changes nothing (the stored bundle is stable)", async () => {
    const t = recorder();
    transcripts.push(t);
    const again = await stack.up({ onOutput: t.onOutput, onError: t.onError, onEvent: t.onEvent });
    expect(Object.entries(again.summary.resourceChanges ?? {}).filter(([op, n]) => op !== "same" && n)).toEqual([]);
    expect(again.outputs.pfxBase64?.value).toBe(text("pfxBase64"));
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

  it("measures each Certificate's state size and the bundle's share", async () => {
    const deployment = (await stack.exportStack()).deployment as { resources: { type: string; urn: string; outputs?: Record<string, unknown> }[] };
    const certificate = deployment.resources.find((r) => r.type === "pulumi-nodejs:dynamic/certreseller:Certificate" && r.urn.endsWith("::generated"))!;
    const total = JSON.stringify(certificate).length;
    const pfx = JSON.stringify(certificate.outputs!.pfxBase64).length + JSON.stringify(certificate.outputs!.pfxPassword).length;
    const key = JSON.stringify(certificate.outputs!.privateKeyPem).length;
    const chain = JSON.stringify(certificate.outputs!.fullChainPem).length;
    console.log(`[state] Certificate resource ${total} bytes; pfxBase64+pfxPassword ${pfx} bytes (${Math.round((100 * pfx) / total)}%); privateKeyPem ${key}; fullChainPem ${chain}; a stored combinedPem would add about ${key + chain} and a stored PKCS#8 key about ${key}`);
    expect(pfx).toBeGreaterThan(0);
    expect(total).toBeLessThan(64 * 1024);
  });

  it("destroy refunds", async () => {
    await stack.destroy();
    const [order] = await sandbox.management.orders();
    expect(order?.refund).toMatchObject({ mode: "direct" });
  });
});
