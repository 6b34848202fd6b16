// The CLIs and the harness alone, nothing of ours: for OpenTofu and
// Terraform, `init` with the packed mirrors' CLI config (offline: the program
// needs no provider from outside) and an `apply` of a built-in
// `terraform_data` resource, read back with `show -json`. A failure here is
// the tools' or the harness's, never the provider's.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TOOL_NAMES, TOOL_VERSIONS } from "../../../scripts/terraform/index.js";
import { createTerraformWorld, providedTerraform, shownResources, type TerraformWorld } from "./harness.js";

const terraform = providedTerraform();

const PROGRAM = `
resource "terraform_data" "greeting" {
  input = "hello from \${var.who}"
}

variable "who" {
  type    = string
  default = "e2e"
}

output "greeting" {
  value = terraform_data.greeting.output
}
`;

describe.skipIf(!terraform).each(TOOL_NAMES)("%s: init and apply offline", (name) => {
  const worlds: TerraformWorld[] = [];
  afterAll(() => worlds.forEach((world) => world.dispose()));

  it(`is ${TOOL_VERSIONS[name]}`, async () => {
    const world = createTerraformWorld(terraform!, name);
    worlds.push(world);
    const { stdout } = await world.run(["version", "-json"]);
    expect(JSON.parse(stdout).terraform_version).toBe(TOOL_VERSIONS[name]);
  });

  it("applies a terraform_data resource, shows it, and destroys it", async () => {
    const world = createTerraformWorld(terraform!, name, { "main.tf": PROGRAM });
    worlds.push(world);
    await world.init();
    const planned = await world.planJson();
    expect(planned.resource_changes.map((change: any) => [change.address, change.change.actions])).toEqual([["terraform_data.greeting", ["create"]]]);

    await world.apply(["-var", "who=the harness"]);
    const shown = shownResources(await world.show());
    expect(shown["terraform_data.greeting"].values.output).toBe("hello from the harness");

    const again = await world.plan(["-var", "who=the harness", "-detailed-exitcode"], { allowFailure: true });
    expect(again.code, again.stdout).toBe(0); // 0: no changes (2 would be a diff)

    await world.destroy(["-var", "who=the harness"]);
    expect(shownResources(await world.show())).toEqual({});
  });

  it("a kill during apply leaves the CLI and its children dead", async () => {
    // A local-exec that sleeps keeps the apply running until the test kills it.
    const world = createTerraformWorld(terraform!, name, {
      "main.tf": `resource "terraform_data" "slow" {\n  provisioner "local-exec" {\n    command = "echo started > started.txt; sleep 60"\n  }\n}\n`,
    });
    worlds.push(world);
    await world.init();
    const apply = world.startApply();
    const started = Date.now();
    while (!fs.existsSync(path.join(world.dir, "started.txt"))) {
      if (Date.now() - started > 60_000) throw new Error(`the provisioner never started:\n${apply.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const killed = apply.kill();
    const result = await apply.exited;
    expect(result.signal).toBe("SIGKILL");
    expect(killed.length).toBeGreaterThan(1); // the CLI and the provisioner's shell at least
  });
});
