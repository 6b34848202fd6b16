// A killed `up` bought an order the engine never recorded; the user then
// removes the Order from the program and destroys the stack. `destroy` calls
// a provider only for what state holds, so the stack's StackJournal (automatic
// in TypeScript, declared in a plugin program) is what refunds it; the
// preview before names it. Each case kills a real `pulumi up` (CLI, language
// host, provider) with SIGKILL after CreateOrder answered.
import type { ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createKillPoints, ordersOnceSold, restoreTornCheckpoint } from "./harness/kill-points.js";
import { startPluginStack, startUp, programWith, type PluginWorld } from "./harness/plugin.js";
import { isAlive, killTree } from "./harness/process-tree.js";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { createWorld, pulumiIn, type E2eWorld } from "./harness/stack.js";
import { until } from "./harness/waiting.js";

const KILL = createKillPoints(3000).find((p) => p.title.startsWith("after CreateOrder answered"))!;
const cancelCalls = async (sandbox: TestSandbox) => (await sandbox.management.requests()).filter((r) => r.operation === "CancelOrder").length;

/** Runs an `up` until the kill point, kills every process it started, and answers the order the sandbox sold. */
async function killedUp(world: E2eWorld, cwd: string, sandbox: TestSandbox, domain: string, children: ChildProcess[]): Promise<string> {
  await sandbox.management.setFaults(KILL.faults);
  const up = startUp(world as PluginWorld, cwd);
  children.push(up.child);
  await Promise.race([
    KILL.reached({ sandbox, world, domain }),
    up.exited.then(() => {
      throw new Error(`the up finished before the kill point:\n${up.output()}`);
    }),
  ]);
  const killed = killTree(up.child.pid!);
  await up.exited;
  await until("every killed process is gone", () => killed.every((pid) => !isAlive(pid)), 10_000);
  await sandbox.management.clearFaults();
  const bought = await ordersOnceSold(sandbox, domain);
  expect(bought).toHaveLength(1);
  return bought[0]!.orderNo;
}

async function expectRefunded(sandbox: TestSandbox, orderNo: string): Promise<void> {
  const order = await sandbox.management.order(orderNo);
  expect(order.orderStatus, `order ${orderNo} is refunded`).toBe(4);
  expect(order.refund).toBeTruthy();
}

describe("a killed up's paid order, its Order removed, then destroy", () => {
  const cleanups: (() => Promise<void>)[] = [];
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.pid && isAlive(child.pid)) killTree(child.pid);
    for (const cleanup of cleanups.splice(0)) await cleanup().catch((error: unknown) => console.warn(`[e2e] cleanup failed: ${String(error)}`));
  });

  it("TypeScript: the preview names the order, and destroy refunds it through the automatic StackJournal", async () => {
    const programDir = path.join(__dirname, "fixtures", "ts-orders");
    const project = "certreseller-ts-orders";
    const stack = `killed-destroyed-${process.pid}`;
    const sandbox = await startTestSandbox();
    const world = createWorld(sandbox, { directoryProgram: true });
    const pulumi = pulumiIn(world, programDir);
    cleanups.push(async () => {
      await pulumi(["stack", "rm", "--yes", "--force"]).catch(() => undefined);
      fs.rmSync(path.join(programDir, `Pulumi.${stack}.yaml`), { force: true });
      await sandbox.stop();
      world.dispose();
    });
    await pulumi(["stack", "init", stack]);
    await pulumi(["config", "set", "certreseller:baseUrl", sandbox.url]);
    await pulumi(["config", "set", "--secret", "certreseller:apiKey"], sandbox.apiKey);
    await pulumi(["config", "set", "certreseller:journalDir", world.journalDir]);
    const domain = "killed-ts.e2e.example.com";
    await pulumi(["config", "set", "--path", "domains[0]", domain]);

    const orderNo = await killedUp(world, programDir, sandbox, domain, children);
    restoreTornCheckpoint(world, project, stack);
    await pulumi(["cancel", "--yes"]);
    // The user drops the Order from the program.
    await pulumi(["config", "set", "--path", "domains", "[]"]);
    const preview = await pulumi(["preview"]);
    expect(preview).toMatch(new RegExp(`the purchase journal holds PAID order ${orderNo} .*for killed-ts, and no Order in this stack declares that resource`));

    const destroyed = await pulumi(["destroy", "--yes"]);
    expect(destroyed).toMatch(new RegExp(`order ${orderNo} for "killed-ts" was bought by a create the engine never recorded`));
    expect(destroyed).toMatch(new RegExp(`order ${orderNo} cancelled; refunded`));
    await expectRefunded(sandbox, orderNo);
    expect(await cancelCalls(sandbox)).toBe(1);
  });

  it("plugin (Pulumi YAML): a declared StackJournal names the order at preview and refunds it at destroy", async () => {
    const domain = "killed-yaml.plugin.e2e.example.com";
    const program = (withOrder: boolean) =>
      [
        "name: certreseller-killed-destroyed",
        "runtime: yaml",
        "resources:",
        "  journal:",
        "    type: certreseller:index:StackJournal",
        ...(withOrder
          ? [
              "  order:",
              "    type: certreseller:index:Order",
              "    properties:",
              "      productCode: sandbox-dv-single",
              `      domain: ${domain}`,
              "      verificationMethod: dns",
              "    options:",
              '      dependsOn: ["${journal}"]',
            ]
          : []),
        "",
      ].join("\n");
    const { sandbox, world, dir, run, close } = await startPluginStack({ program: (w) => programWith(w, { "Pulumi.yaml": program(true) }) });
    cleanups.push(close);

    const orderNo = await killedUp(world, dir, sandbox, domain, children);
    restoreTornCheckpoint(world, "certreseller-killed-destroyed", "dev");
    await run(["cancel", "--yes"]);
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), program(false));
    const preview = await run(["preview"]);
    expect(preview).toMatch(new RegExp(`the purchase journal holds PAID order ${orderNo} .* whose create the engine never recorded for "order"`));
    expect(preview).toMatch(/`pulumi destroy` refunds it/);
    expect(await cancelCalls(sandbox)).toBe(0);

    const destroyed = await run(["destroy", "--yes"]);
    expect(destroyed).toMatch(new RegExp(`order ${orderNo} cancelled; refunded`));
    await expectRefunded(sandbox, orderNo);
    expect(await cancelCalls(sandbox)).toBe(1);
  });
});
