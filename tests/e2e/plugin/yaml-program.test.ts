// The README's first Pulumi YAML program, served by the provider plugin and
// run as a user runs it: the plugin installed from its archive with the
// README's command, the YAML language host, and `pulumi` commands in the
// program's folder. The validation records flow into the sandbox's DNS
// record resource, and the sandbox validates from what was published.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { repoRoot } from "../../../scripts/engine/index.js";
import { programWith, readmeYamlProgram, startPluginStack, type PluginStack, type PluginWorld } from "../harness/plugin.js";
import { destroyRefunds, upIssuesFromPublishedRecord } from "../harness/plugin-scenarios.js";

const DOMAIN = "yaml.e2e.example.com";

/**
 * The README's YAML program, for this test's sandbox and domain, exporting
 * also what the test checks (the order, its account and the secret key).
 */
function readmeProgram(managementUrl: string): string {
  return (
    readmeYamlProgram().replaceAll("http://127.0.0.1:8080/management", managementUrl).replaceAll("example.com", DOMAIN) +
    ["  orderNo: ${order.orderNo}", "  accountId: ${order.accountId}", "  notAfter: ${certificate.notAfter}", "  privateKeyPem: ${certificate.privateKeyPem}", ""].join("\n")
  );
}

describe("Pulumi YAML through the provider plugin", () => {
  let world: PluginWorld;
  let dir: string;
  let plugin: PluginStack | undefined;

  beforeAll(async () => {
    const program = (w: PluginWorld) => programWith(w, { "Pulumi.yaml": readmeProgram(w.sandbox.managementUrl) });
    ({ world, dir } = plugin = await startPluginStack({ program, sandbox: { validation: "published" } }));
  });
  afterAll(() => plugin?.dispose());

  it("the README's install steps are the ones this suite runs (same command, this version, the archive `npm run plugin:pack` writes)", () => {
    const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
    const { version } = inject("plugin");
    expect(readme).toContain("npm run plugin:pack");
    expect(readme).toContain(`pulumi plugin install resource certreseller ${version} --file dist-plugin/pulumi-resource-certreseller-v${version}.tar.gz`);
  });

  it("up buys, validates from the published record and issues; preview shows no change; destroy refunds", async () => {
    const { outputs } = await upIssuesFromPublishedRecord(plugin!, DOMAIN);
    expect(outputs.accountId).toMatch(/^ak_/);

    await world.pulumi(["preview", "--expect-no-changes"], { cwd: dir });

    await destroyRefunds(plugin!, outputs.orderNo!);
  });

  it("a Certificate whose state holds every derived form (as the earlier release stored it) previews no change, and sheds the forms not asked for at the next refresh", async () => {
    const program = path.join(dir, "Pulumi.yaml");
    const readme = fs.readFileSync(program, "utf8");
    const certificate = () => state().deployment.resources.find((r) => r.type === "certreseller:index:Certificate")!;
    const state = () => JSON.parse(exported) as { deployment: { resources: { type: string; inputs: Record<string, unknown>; outputs: Record<string, unknown> }[] } };
    let exported = "";
    const exportState = async () => (exported = await world.pulumi(["stack", "export"], { cwd: dir }));
    const FORMS = ["fullChainPem", "privateKeyPkcs8Pem", "combinedPem", "pfxBase64", "pfxPassword"];
    const storedForms = () => FORMS.filter((k) => k in certificate().outputs);

    // Every form asked for, then the request taken out of the state's inputs: what the earlier release left.
    const asking = readme.replace('properties: { orderNo: "${order.orderNo}" }', 'properties: { orderNo: "${order.orderNo}", outputFormats: [fullChainPem, privateKeyPkcs8Pem, combinedPem, pkcs12] }');
    expect(asking).not.toBe(readme);
    fs.writeFileSync(program, asking);
    await world.pulumi(["up", "--yes", "--skip-preview"], { cwd: dir });
    await exportState();
    expect(storedForms()).toEqual(FORMS);
    const older = state();
    delete older.deployment.resources.find((r) => r.type === "certreseller:index:Certificate")!.inputs.outputFormats;
    fs.writeFileSync(path.join(dir, "older.json"), JSON.stringify(older));
    await world.pulumi(["stack", "import", "--file", "older.json"], { cwd: dir });
    fs.writeFileSync(program, readme);

    await world.pulumi(["preview", "--expect-no-changes"], { cwd: dir });
    await world.pulumi(["refresh", "--yes", "--skip-preview"], { cwd: dir });
    await exportState();
    expect(storedForms()).toEqual(["fullChainPem"]);
    await world.pulumi(["preview", "--expect-no-changes"], { cwd: dir });

    // The second purchase of this sandbox (the test above bought and refunded the first).
    const orderNo = state().deployment.resources.find((r) => r.type === "certreseller:index:Order")!.outputs.orderNo as string;
    expect(await world.pulumi(["destroy", "--yes"], { cwd: dir })).toMatch(/refunded 100\.00/);
    expect((await plugin!.sandbox.management.order(orderNo)).refund).toMatchObject({ mode: "direct" });
  });

  it("the README reads the Validation's domains from the Order; a name written by hand that the order does not cover fails the preview, nothing bought", async () => {
    const program = path.join(dir, "Pulumi.yaml");
    const readme = fs.readFileSync(program, "utf8");
    expect(readme).toContain('domains: ["${order.domain}"]');
    await world.pulumi(["up", "--yes", "--skip-preview"], { cwd: dir });
    try {
      fs.writeFileSync(program, readme.replace('domains: ["${order.domain}"]', "domains: [other.e2e.example.com]"));
      await plugin!.sandbox.management.clearRequests();
      const failure = await world.pulumi(["preview"], { cwd: dir }).then(
        () => "",
        (error: unknown) => String(error),
      );
      expect(failure).toMatch(/property domains .*has a problem: other\.e2e\.example\.com is not among order CERT\d+'s names \(yaml\.e2e\.example\.com\)/);
      expect((await plugin!.sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
    } finally {
      fs.writeFileSync(program, readme);
      await world.pulumi(["destroy", "--yes"], { cwd: dir });
    }
  });
});
