// The quickstart as a user runs it: `pulumi` commands in examples/quickstart
// (a directory program run by the Node language host), not the Automation API.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/engine/index.js";
import { opensslVerify } from "../support/openssl.js";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { createWorld, pulumiIn, type E2eWorld } from "./harness/stack.js";

const PROGRAM_DIR = path.join(repoRoot, "examples", "quickstart");
const DOMAIN = "directory.e2e.example.com";

describe("directory program: pulumi up / destroy in examples/quickstart", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  const stackName = `e2e-${process.pid}`;

  /** One CLI command, as typed in the program's folder; resolves with stdout. */
  const pulumi = (args: string[], input?: string) => pulumiIn(world, PROGRAM_DIR)(args, input);

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    world = createWorld(sandbox, { directoryProgram: true });
    await pulumi(["stack", "init", stackName]);
  });

  afterAll(async () => {
    await pulumi(["destroy", "--yes"]).catch(() => undefined);
    await pulumi(["stack", "rm", "--yes", "--force"]).catch(() => undefined);
    // `stack rm` deletes it; make sure a failed run leaves nothing in the example folder either.
    fs.rmSync(path.join(PROGRAM_DIR, `Pulumi.${stackName}.yaml`), { force: true });
    await sandbox?.stop();
    world?.dispose();
  });

  it("up issues the certificate, destroy refunds it", async () => {
    await pulumi(["config", "set", "certreseller:baseUrl", sandbox.url]);
    // The key goes in on stdin, as `pulumi config set --secret` prompts for it: never on a command line.
    await pulumi(["config", "set", "--secret", "certreseller:apiKey"], sandbox.apiKey);
    await pulumi(["config", "set", "certreseller:journalDir", world.journalDir]);
    await pulumi(["config", "set", "quickstart:domain", DOMAIN]);
    expect(fs.readFileSync(path.join(PROGRAM_DIR, `Pulumi.${stackName}.yaml`), "utf8")).not.toContain(sandbox.apiKey);

    const up = await pulumi(["up", "--yes"]);
    expect(up).toMatch(/created/);
    const orderNo = (await pulumi(["stack", "output", "orderNo"])).trim();
    const [order] = await sandbox.management.orders();
    expect(order?.orderNo).toBe(orderNo);
    const fullChain = await pulumi(["stack", "output", "fullChainPem"]);
    expect(opensslVerify(fullChain, await sandbox.management.rootPem())).toMatch(/OK/);

    const destroy = await pulumi(["destroy", "--yes"]);
    expect(destroy).toMatch(/deleted/);
    expect((await sandbox.management.order(orderNo)).refund).toMatchObject({ mode: "direct" });
  });
});
