// examples/validated-certificate run inline through the Automation API: one
// component declares order, validation, a sandbox DNS record per name and the
// certificate; up issues a chain openssl verifies against the sandbox root,
// the key stays secret, destroy refunds.
import type { Stack, UpResult } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validatedCertificate } from "../../examples/validated-certificate/program.js";
import { opensslVerify, pemCertificates } from "../support/openssl.js";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { backendText, createWorld, openStack, recorder, type E2eWorld, type Transcript } from "./harness/stack.js";

const DOMAIN = "component.e2e.example.com";
// sandbox-dv-multi, 12 months, two names.
const transcripts: Transcript[] = [];

describe("ValidatedCertificate (examples/validated-certificate)", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;
  let up: UpResult;
  let startingBalance: number;

  beforeAll(async () => {
    // `published`: the certificate is issued only once both records reach the sandbox's DNS.
    sandbox = await startTestSandbox({ validation: "published" });
    world = createWorld(sandbox);
    stack = await openStack(world, "validated-certificate", async () => {
      const site = validatedCertificate({ domain: DOMAIN });
      return { orderNo: site.orderNo, fullChainPem: site.fullChainPem, privateKeyPem: site.privateKeyPem, notAfter: site.notAfter };
    });
    startingBalance = Number((await sandbox.management.account(sandbox.username)).balance);
  });

  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await sandbox?.stop();
    world?.dispose();
  });

  it("up declares the component and its children and issues a chain openssl verifies", async () => {
    const t = recorder();
    transcripts.push(t);
    up = await stack.up({ onOutput: t.onOutput, onError: t.onError, onEvent: t.onEvent });
    expect(up.summary.result).toBe("succeeded");
    const fullChain = String(up.outputs.fullChainPem?.value ?? "");
    expect(opensslVerify(fullChain, await sandbox.management.rootPem())).toMatch(/leaf\.pem: OK/);
    const { X509Certificate } = await import("node:crypto");
    const leaf = new X509Certificate(pemCertificates(fullChain)[0]!);
    expect(leaf.subjectAltName).toContain(`DNS:${DOMAIN}`);
    expect(leaf.subjectAltName).toContain(`DNS:www.${DOMAIN}`);
    expect(up.outputs.privateKeyPem?.secret).toBe(true);

    const deployment = (await stack.exportStack()).deployment as { resources: { type: string; urn: string; parent?: string }[] };
    const component = deployment.resources.find((r) => r.type === "certreseller:index:ValidatedCertificate")!;
    expect(component).toBeDefined();
    const children = deployment.resources.filter((r) => r.parent === component.urn).map((r) => r.type.split(":").pop());
    expect(children.sort()).toEqual(["Certificate", "Order", "Validation"]);
    expect(deployment.resources.filter((r) => r.type.endsWith(":SandboxDnsRecord"))).toHaveLength(2);
    expect(await sandbox.management.orders()).toHaveLength(1);
  });

  it("keeps the private key and the API key out of the state files and the output", () => {
    const key = String(up.outputs.privateKeyPem?.value ?? "");
    const needles = [key.split("\n")[1]!, sandbox.apiKey];
    const hay = backendText(world) + transcripts.map((t) => t.output).join("\n") + JSON.stringify(transcripts.flatMap((t) => t.events));
    for (const needle of needles) {
      expect(needle.length).toBeGreaterThan(20);
      expect(hay.includes(needle)).toBe(false);
    }
  });

  it("destroy refunds the order", async () => {
    await stack.destroy();
    const [order] = await sandbox.management.orders();
    expect(order?.refund).toMatchObject({ mode: "direct" });
    expect(Number((await sandbox.management.account(sandbox.username)).balance)).toBeCloseTo(startingBalance, 2);
  });
});
