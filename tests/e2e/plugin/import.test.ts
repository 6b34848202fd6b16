// `pulumi import` through the provider plugin: an order bought outside
// Pulumi (straight through the Partner API) and its certificate are imported
// with the CLI; the program code it prints becomes the program, and the `up`
// after it changes nothing and buys nothing.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../scripts/engine/index.js";
import { startPluginStack, type PluginStack, type PluginWorld } from "../harness/plugin.js";
import { boughtElsewhere, importedIsManaged, importOrderAndCertificate } from "../harness/plugin-scenarios.js";
import type { TestSandbox } from "../harness/sandbox.js";

const PROGRAM = path.join(repoRoot, "tests", "e2e", "fixtures", "yaml-empty");
const DOMAIN = "import.e2e.example.com";

describe("pulumi import of an Order and its Certificate", () => {
  let sandbox: TestSandbox;
  let world: PluginWorld;
  let dir: string;
  let plugin: PluginStack | undefined;

  beforeAll(async () => {
    ({ sandbox, world, dir } = plugin = await startPluginStack({ program: PROGRAM }));
  });
  afterAll(() => plugin?.dispose());

  it("imports by order number and by order number/certificate id; the next up buys nothing and changes nothing", async () => {
    const { orderNo, certId } = await boughtElsewhere(sandbox, DOMAIN);
    const code = await importOrderAndCertificate(plugin!, { orderNo, certId }, "imported.yaml");
    // The program code says what the service told: product, names, method, and that it holds an existing order.
    expect(code).toMatch(/type: certreseller:(index:)?Order\n/);
    expect(code).toContain("productCode: sandbox-dv-multi");
    expect(code).toContain(`domain: ${DOMAIN}`);
    expect(code).toContain(`www.${DOMAIN}`);
    expect(code).toContain(`adoptOrderNo: ${orderNo}`);
    expect(code).toMatch(/type: certreseller:(index:)?Certificate\n/);
    expect(code).toContain(`certId: ${certId}`);

    fs.appendFileSync(path.join(dir, "Pulumi.yaml"), code);
    await importedIsManaged(plugin!, orderNo);
  });

  it("an order that does not exist for this account is refused, naming it", async () => {
    const failed = await world.pulumi(["import", "certreseller:index:Order", "ghost", "CERT000000000000000000", "--yes", "--out", "ghost.yaml"], { cwd: dir }).then(
      () => "",
      (error: Error) => error.message,
    );
    expect(failed).toMatch(/CERT000000000000000000/);
    expect((await sandbox.management.requests()).map((r) => r.operation)).not.toContain("CreateOrder");
  });
});
