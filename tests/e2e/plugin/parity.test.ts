// Parity of the two front ends: the same scenario through the TypeScript
// dynamic resources and through the provider plugin (a YAML program), against
// one sandbox and one account. Outputs must agree (up to what identifies a
// purchase: order number, certificate, dates), secret outputs must be secret
// in both states, and the Partner API calls must be the same, operation by
// operation, for up and for destroy.
import * as path from "node:path";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import * as certs from "pulumi-certreseller";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../scripts/engine/index.js";
import { opensslPkcs12Info } from "../../support/openssl.js";
import { startPluginStack, type PluginStack, type PluginWorld } from "../harness/plugin.js";
import type { TestSandbox } from "../harness/sandbox.js";
import { createWorld, openStack, type E2eWorld } from "../harness/stack.js";

const PROGRAM = path.join(repoRoot, "tests", "e2e", "fixtures", "yaml-parity");
const TS_DOMAIN = "parity-ts.e2e.example.com";
const YAML_DOMAIN = "parity-yaml.e2e.example.com";

/** The YAML fixture's program, written with the TypeScript classes (dynamic resources). */
function typescriptProgram(domain: string, managementUrl: string): PulumiFn {
  return async () => {
    const order = new certs.Order("order", { productCode: "sandbox-dv-multi", domain, sanDomains: [`www.${domain}`], verificationMethod: "dns", renewBeforeDays: 30 });
    const validation = new certs.Validation("validation", { orderNo: order.orderNo, domains: [domain, `www.${domain}`], method: order.verificationMethod.apply((m) => m!), requestId: order.requestId.apply((r) => r!) });
    const record = (i: number, name: string) =>
      new certs.testing.SandboxDnsRecord(name, {
        managementUrl,
        fqdn: validation.records.apply((r) => r[i]!.fqdn),
        type: validation.records.apply((r) => r[i]!.recordType),
        value: validation.records.apply((r) => r[i]!.value),
      });
    const records = [record(0, "recordMain"), record(1, "recordWww")];
    const certificate = new certs.Certificate("certificate", { orderNo: order.orderNo, renewBeforeDays: 30 }, { dependsOn: records });
    return {
      order: {
        orderNo: order.orderNo,
        accountId: order.accountId,
        keySpec: order.keySpec,
        months: order.months,
        verificationMethod: order.verificationMethod,
        quotedPrice: order.quotedPrice,
        price: order.price,
        certStatus: order.certStatus,
        renewBeforeDays: order.renewBeforeDays,
      },
      records: validation.records,
      certificate: {
        certId: certificate.certId,
        domains: certificate.domains,
        notAfter: certificate.notAfter,
        notBefore: certificate.notBefore,
        renewsAt: certificate.renewsAt,
        serialNumber: certificate.serialNumber,
        fingerprintSha256: certificate.fingerprintSha256,
        certificatePem: certificate.certificatePem,
        chainPem: certificate.chainPem,
        fullChainPem: certificate.fullChainPem,
        privateKeyPkcs8Pem: certificate.privateKeyPkcs8Pem,
        combinedPem: certificate.combinedPem,
        pfxPassword: certificate.pfxPassword,
        pfxBase64: certificate.pfxBase64,
      },
    };
  };
}

type Json = Record<string, any>;

/** What must agree: values with the purchase's own identity (domain, order, certificate, key, dates) replaced by their shape. */
function comparable(outputs: Json, domain: string): Json {
  const c = outputs.certificate;
  const pemShape = (pem: string) => (pem.match(/-----BEGIN ([A-Z ]+)-----/g) ?? []).join(" + ");
  const shaped = {
    ...outputs,
    order: { ...outputs.order, orderNo: typeof outputs.order.orderNo },
    // Record values (tokens) differ per order: keep their shape.
    records: (outputs.records as Json[]).map((r) => ({ ...r, value: typeof r.value, hint: typeof r.hint })),
    certificate: {
      certId: /^[0-9a-f-]{36}$/.test(c.certId),
      domains: c.domains,
      notAfter: !Number.isNaN(Date.parse(c.notAfter)),
      notBefore: !Number.isNaN(Date.parse(c.notBefore)),
      renewsAt: Date.parse(c.notAfter) - Date.parse(c.renewsAt),
      serialNumber: /^[0-9A-F]+$/.test(c.serialNumber),
      fingerprintSha256: /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/.test(c.fingerprintSha256),
      certificatePem: pemShape(c.certificatePem),
      chainPem: pemShape(c.chainPem),
      fullChainPem: pemShape(c.fullChainPem),
      privateKeyPkcs8Pem: pemShape(c.privateKeyPkcs8Pem),
      combinedPem: pemShape(c.combinedPem),
      pfxPassword: c.pfxPassword.length,
      pfxBase64: /MAC:/.test(opensslPkcs12Info(c.pfxBase64, c.pfxPassword)),
    },
  };
  return JSON.parse(JSON.stringify(shaped).split(domain).join("<domain>")) as Json;
}

/** Partner API calls by operation, for one front end's step. */
async function callsOf(sandbox: TestSandbox): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const r of await sandbox.management.requests()) counts[r.operation] = (counts[r.operation] ?? 0) + 1;
  await sandbox.management.clearRequests();
  return counts;
}

/** The secret outputs of each resource in a state export, by resource name. */
function secretOutputs(deployment: Json): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const r of deployment.resources ?? []) {
    if (!String(r.type).includes("certreseller")) continue;
    const name = String(r.urn).split("::").pop()!;
    out[name] = Object.entries(r.outputs ?? {})
      // A secret in an export: the secret signature, with `ciphertext` (CLI export) or `plaintext` (Automation API export).
      .filter(([, v]) => v !== null && typeof v === "object" && (v as Json)["4dabf18193072939515e22adb298388d"] === "1b47061264138c4ac30d75fd1eb44270")
      .map(([k]) => k)
      .sort();
  }
  return out;
}

describe("parity: the same scenario through the dynamic resources and through the plugin", () => {
  let sandbox: TestSandbox;
  let dynamicWorld: E2eWorld;
  let world: PluginWorld;
  let dir: string;
  let plugin: PluginStack | undefined;

  beforeAll(async () => {
    const config = (w: PluginWorld) => ({ domain: YAML_DOMAIN, managementUrl: w.sandbox.managementUrl });
    ({ sandbox, world, dir } = plugin = await startPluginStack({ program: PROGRAM, sandbox: { validation: "published" }, config }));
    dynamicWorld = createWorld(sandbox);
  });

  afterAll(async () => {
    await plugin?.dispose();
    dynamicWorld?.dispose();
  });

  it("same outputs, same secrets, same Partner API calls", async () => {
    const stack = await openStack(dynamicWorld, "certreseller-parity", typescriptProgram(TS_DOMAIN, sandbox.managementUrl));
    await sandbox.management.clearRequests();
    const tsUp = await stack.up();
    const tsUpCalls = await callsOf(sandbox);
    const tsOutputs = Object.fromEntries(Object.entries(tsUp.outputs).map(([k, v]) => [k, v.value])) as Json;
    const tsSecrets = secretOutputs((await stack.exportStack()).deployment as Json);

    // --skip-preview as the Automation API's up does: a preview would run every check a second time.
    await world.pulumi(["up", "--yes", "--skip-preview"], { cwd: dir });
    const pluginUpCalls = await callsOf(sandbox);
    const pluginOutputs = JSON.parse(await world.pulumi(["stack", "output", "--json", "--show-secrets"], { cwd: dir })) as Json;
    const pluginSecrets = secretOutputs((JSON.parse(await world.pulumi(["stack", "export"], { cwd: dir })) as Json).deployment);

    expect(comparable(pluginOutputs, YAML_DOMAIN)).toEqual(comparable(tsOutputs, TS_DOMAIN));
    expect(pluginUpCalls).toEqual(tsUpCalls);
    // What the dynamic resources keep secret in state is secret through the plugin; the plugin also stores
    // the derived key-bearing outputs (the class computes them in the program), all secret.
    expect(pluginSecrets.order).toEqual(tsSecrets.order);
    expect(pluginSecrets.certificate).toEqual([...tsSecrets.certificate!, "combinedPem", "pfxBase64", "pfxPassword", "privateKeyPkcs8Pem"].sort());

    await stack.destroy();
    const tsDestroyCalls = await callsOf(sandbox);
    await world.pulumi(["destroy", "--yes", "--skip-preview"], { cwd: dir });
    const pluginDestroyCalls = await callsOf(sandbox);
    expect(pluginDestroyCalls).toEqual(tsDestroyCalls);
    expect(pluginDestroyCalls.CancelOrder).toBe(1);
  });
});
