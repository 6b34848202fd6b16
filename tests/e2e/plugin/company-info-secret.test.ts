// An OV Order's `companyInfo` holds a person's ID number, phone and e-mail:
// whether the program marked it or not, state holds it only as a secret, on
// both front ends (the TypeScript class through the dynamic provider, a YAML
// program through the plugin). A changed member still shows as a change
// (a replacement: a new purchase), and the preview prints no member's value.
import * as fs from "node:fs";
import * as path from "node:path";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import * as certs from "pulumi-certreseller";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { programWith, startPluginStack, type PluginStack } from "../harness/plugin.js";
import type { TestSandbox } from "../harness/sandbox.js";
import { backendText, createWorld, openStack, type E2eWorld } from "../harness/stack.js";

const SECRET_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** Personal members, each a text found nowhere else, so any plaintext copy is found. */
const PERSON = { idNumber: "ID-E2E-7730-1152", email: "erika.secretcheck@acme-e2e.example.com", contactLast: "Erika-Secretcheck" };
const PHONE = "+49 30 5550 1177";
const NEW_PHONE = "+49 30 5550 2288";

function company(phone: string): certs.CompanyInfo {
  return { companyName: "Acme Widgets Ltd", countryCode: "DE", contactFirst: "Muster", ...PERSON, phone };
}

type Json = Record<string, any>;

const isSecret = (value: unknown) => value !== null && typeof value === "object" && (value as Json)[SECRET_KEY] === SECRET_SIG;

/** The Order's companyInfo in a state export: its input and its output. */
function storedCompanyInfo(deployment: Json): { input: unknown; output: unknown } {
  const order = (deployment.resources as Json[]).find((r) => String(r.type).endsWith("Order"));
  if (!order) throw new Error("no Order in the state export");
  return { input: order.inputs?.companyInfo, output: order.outputs?.companyInfo };
}

/** Fails naming which personal value a text holds in plaintext. */
function expectNoPersonalValue(text: string, where: string): void {
  for (const value of [...Object.values(PERSON), PHONE, NEW_PHONE]) expect(text.includes(value), `${where} holds ${JSON.stringify(value)} in plaintext`).toBe(false);
}

function yamlProgram(domain: string, phone: string): string {
  const info = Object.entries(company(phone))
    .map(([k, v]) => `        ${k}: ${JSON.stringify(v)}`)
    .join("\n");
  return `name: certreseller-company-secret
runtime: yaml
resources:
  order:
    type: certreseller:index:Order
    properties:
      productCode: sandbox-ov-single
      domain: ${domain}
      companyInfo:
${info}
`;
}

describe("companyInfo is a secret in state", () => {
  let plugin: PluginStack | undefined;
  let sandbox: TestSandbox;
  let dynamicWorld: E2eWorld | undefined;
  const YAML_DOMAIN = "company-yaml.e2e.example.com";

  beforeAll(async () => {
    plugin = await startPluginStack({ program: (world) => programWith(world, { "Pulumi.yaml": yamlProgram(YAML_DOMAIN, PHONE) }) });
    sandbox = plugin.sandbox;
    dynamicWorld = createWorld(sandbox);
  });

  afterAll(async () => {
    await plugin?.dispose();
    dynamicWorld?.dispose();
  });

  it("TypeScript (dynamic provider): a plain companyInfo is stored as a secret input and output; a change previews as a replacement, printing no value", async () => {
    const program = (phone: string): PulumiFn => async () => {
      new certs.Order("order", { productCode: "sandbox-ov-single", domain: "company-ts.e2e.example.com", companyInfo: company(phone) });
    };
    const stack = await openStack(dynamicWorld!, "certreseller-company-secret", program(PHONE));
    await stack.up();
    const stored = storedCompanyInfo((await stack.exportStack()).deployment as Json);
    expect(isSecret(stored.input), "companyInfo input is a secret").toBe(true);
    expect(isSecret(stored.output), "companyInfo output is a secret").toBe(true);
    expectNoPersonalValue(backendText(dynamicWorld!), "the backend's files");

    const changed = await openStack(dynamicWorld!, "certreseller-company-secret", program(NEW_PHONE));
    let output = "";
    const preview = await changed.preview({ diff: true, onOutput: (text) => void (output += text) });
    expect(preview.changeSummary.replace).toBe(1);
    expect(output).toMatch(/companyInfo/);
    expectNoPersonalValue(output, "the preview");
    await stack.destroy();
  });

  it("YAML (plugin): a plain companyInfo is stored as a secret input and output; a change previews as a replacement, printing no value", async () => {
    const { world, dir } = plugin!;
    await plugin!.run(["up", "--yes", "--skip-preview"]);
    const exported = await plugin!.run(["stack", "export"]);
    const stored = storedCompanyInfo((JSON.parse(exported) as Json).deployment);
    expect(isSecret(stored.input), "companyInfo input is a secret").toBe(true);
    expect(isSecret(stored.output), "companyInfo output is a secret").toBe(true);
    expectNoPersonalValue(exported, "`pulumi stack export`");
    expectNoPersonalValue(backendText(world), "the backend's files");

    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yamlProgram(YAML_DOMAIN, NEW_PHONE));
    await sandbox.management.clearRequests();
    const preview = await plugin!.run(["preview", "--diff"]);
    expect(preview).toMatch(/\+-\s*certreseller:index:Order|replace/);
    expect(preview).toMatch(/companyInfo/);
    expectNoPersonalValue(preview, "the preview");
    expect((await sandbox.management.requests()).map((r) => r.operation)).not.toContain("CreateOrder");
  });
});
