// Resource options the Node dynamic-provider host does not carry, through the
// real engine: customTimeouts.create becomes the Certificate's wait (an order
// that never validates fails after about a minute, naming the timeout), and
// the import option fails at construction with our explanation; `pulumi
// import` on the command line shows the engine's own failure.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import * as certs from "pulumi-certreseller";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { createWorld, failureOf, openStack, recorder, type E2eWorld } from "./harness/stack.js";

const DOMAIN = "timeouts.e2e.example.com";

describe("customTimeouts and import on dynamic resources", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;
  const cleanups: (() => void)[] = [];

  beforeAll(async () => {
    // `published`: nothing is ever published here, so validation never passes.
    // A 20 s cooldown lets the minute hold a few status reads, as with 180 s and an hour.
    sandbox = await startTestSandbox({ validation: "published", statusCooldownSeconds: 20 });
    world = createWorld(sandbox);
  });

  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await sandbox?.stop();
    world?.dispose();
    for (const c of cleanups) c();
  });

  it('customTimeouts: { create: "1m" } ends the wait after about a minute, naming the option, not after the default hour', async () => {
    stack = await openStack(world, "custom-timeouts", async () => {
      const order = new certs.Order("site", { productCode: "sandbox-dv-single", domain: DOMAIN, months: 12, verificationMethod: "dns" });
      new certs.Certificate("site", { orderNo: order.orderNo }, { customTimeouts: { create: "1m" } });
    });
    const t = recorder();
    const started = Date.now();
    const message = await failureOf(stack.up({ onOutput: t.onOutput, onError: t.onError, onEvent: t.onEvent }));
    const seconds = (Date.now() - started) / 1000;
    expect(message).toMatch(/not issued within customTimeouts\.create "1m" \(1 min\)/);
    expect(message).toMatch(/still unverified: timeouts\.e2e\.example\.com/);
    // The wait stops once the next allowed status read (20 s cooldown) would
    // fall after the one-minute deadline; the engine adds a few seconds around it.
    expect(seconds).toBeGreaterThan(35);
    expect(seconds).toBeLessThan(150);
    const [order] = await sandbox.management.orders();
    expect(order).toBeDefined();
  });

  it("the import option fails at construction with the limitation and the way that works", async () => {
    const [order] = await sandbox.management.orders();
    const importing = await openStack(world, "import-option", async () => {
      new certs.Certificate("adopted", { orderNo: order!.orderNo }, { import: "some-cert-id" });
    });
    const message = await failureOf(importing.preview());
    expect(message).toMatch(/Certificate "adopted": the `import` resource option cannot work with pulumi-certreseller resources/);
    expect(message).toMatch(/dynamic[\s\S]*pulumi\/pulumi#3550[\s\S]*adoptOrderNo/);
    const validation = await openStack(world, "import-validation", async () => {
      new certs.Validation("v", { orderNo: order!.orderNo, domains: [DOMAIN] }, { import: order!.orderNo });
    });
    expect(await failureOf(validation.preview())).toMatch(/Validation "v": the `import` resource option cannot work[\s\S]*holds no purchase/);
  });

  it("`pulumi import` of an Order fails in the engine before any of our code runs (documented: use adoptOrderNo)", async () => {
    const [order] = await sandbox.management.orders();
    // The CLI needs the Node language host for `pulumi import` (a user's install bundles one).
    const cliWorld = createWorld(sandbox, { directoryProgram: true });
    cleanups.push(() => cliWorld.dispose());
    const cli = await openStack(cliWorld, "import-cli", async () => {});
    const env = { ...process.env, ...cliWorld.environment.env };
    const result = await promisify(execFile)(
      world.environment.pulumiPath,
      ["import", "pulumi-nodejs:dynamic/certreseller:Order", "site", order!.orderNo, "--yes", "--non-interactive", "--generate-code=false", "--stack", "e2e"],
      { cwd: cli.workspace.workDir, env },
    ).then(
      (r) => ({ code: 0, out: `${r.stdout}\n${r.stderr}` }),
      (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? -1, out: `${e.stdout ?? ""}\n${e.stderr ?? ""}` }),
    );
    console.log(`pulumi import printed (exit ${result.code}):\n${result.out}`);
    expect(result.code).not.toBe(0);
    // CLI v3.259: the host finds no stored provider text for the imported resource.
    expect(result.out).toMatch(/Order site import error: Preview failed: code must be a string, not undefined/);
    // Nothing was bought or changed by the attempt.
    expect(await sandbox.management.orders()).toHaveLength(1);
  });
});
