// `pulumi up` killed as a CI runner cancels a job (SIGKILL to the CLI's
// process group) while Orders' creates wait in their reads before
// CreateOrder. The plugin survives in a process group of its own; the
// engine's dropped connection cancels their gRPC calls at once, and a
// cancelled call must never send CreateOrder: nothing could record that
// purchase in state, and the health check alone would find the engine gone
// only 10-15 s later, after the held read answered.
import * as fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { TestSandbox } from "../harness/sandbox.js";
import { programWith, startPluginStack, startUp, type PluginWorld } from "../harness/plugin.js";
import { descendants, isAlive, killTree } from "../harness/process-tree.js";
import { until } from "../harness/waiting.js";
import { ordersFor } from "../harness/kill-points.js";

const NAMES = ["a", "b", "c", "d", "e"] as const;

/** Three Orders, no dependencies between them: the engine creates them at once. */
const PROGRAM = `name: certreseller-cancelled-calls
runtime: yaml
config:
  domain:
    type: string
resources:
${NAMES.map((n) => `  order-${n}:\n    type: certreseller:index:Order\n    properties:\n      productCode: sandbox-dv-single\n      domain: ${n}.\${domain}\n      verificationMethod: dns\n`).join("")}outputs:
${NAMES.map((n) => `  ${n}: \${order-${n}.orderNo}\n`).join("")}`;

/**
 * How the creates are held before CreateOrder, with the sandbox's knobs
 * only. The product list fails for the checks (the client's 4 attempts of
 * one read, which the plugin keeps for its other checks), so no price is
 * quoted and the checks do not read the account; each create then reads the
 * product list again (answered) and the account (GetUserData, one read the
 * creates share), which the sandbox holds. HOLD_MS is shorter than the
 * health check's 10-15 s, so without the cancellation the creates buy.
 *
 * The engine runs checks one after another, and a create starts as soon as
 * its own check is done: an Order whose check comes after the first
 * create's product-list read gets a price, reads the account in its check,
 * and waits there, its create never started. Of five Orders, two or three
 * are in their creates at the kill (the engine's own account of the
 * interrupted creates says which); at least two are asserted.
 */
const HOLD_MS = 8_000;
const FAULTS = {
  GetUserProduct: { errorRate: 1, errorCode: 503, times: 4 },
  GetUserData: { latencyMs: HOLD_MS, times: 1 },
};

/** Every plugin process stops within this after the kill (docs/plugin.md's bound). */
const BOUND_MS = 45_000;

const isPlugin = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("pulumi-resource-certreseller");
  } catch {
    return false;
  }
};

const createOrders = async (sandbox: TestSandbox) => (await sandbox.management.requests()).filter((r) => r.operation === "CreateOrder");

const PROJECT = "certreseller-cancelled-calls";
const urnOf = (name: string) => `urn:pulumi:dev::${PROJECT}::certreseller:index:Order::order-${name}`;

/** `pulumi up` in its own process group, as a CI job runs it; no preview, so the checks that fail the product list are the update's. */
const startUpdate = (world: PluginWorld, cwd: string) => startUp(world, cwd, ["up", "--yes", "--skip-preview", "--non-interactive"]);

describe("a provider plugin whose engine is killed while creates wait before CreateOrder", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it("sends no CreateOrder for the cancelled calls; the next up buys each Order exactly once", async () => {
    const domain = "cancelled.plugin.e2e.example.com";
    const domains = NAMES.map((n) => `${n}.${domain}`);
    const stack = await startPluginStack({ program: (world) => programWith(world, { "Pulumi.yaml": PROGRAM }), config: { domain } });
    const { sandbox, world, dir, run } = stack;
    let plugins: number[] = [];
    cleanups.push(async () => {
      for (const pid of plugins) if (isAlive(pid)) killTree(pid);
      await run(["cancel", "--yes"]).catch(() => undefined);
      await stack.dispose();
    });
    await sandbox.management.setFaults(FAULTS);

    const up = startUpdate(world, dir);
    await Promise.race([
      (async () => {
        await until("the sandbox holds the creates' account read", async () => (await sandbox.management.faults()).GetUserData === undefined);
        // The other creates join the held read within milliseconds of the first.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      })(),
      up.exited.then(() => {
        throw new Error(`the up finished before the kill:\n${up.output()}`);
      }),
    ]);
    expect(await createOrders(sandbox), "nothing was bought before the kill").toHaveLength(0);
    plugins = descendants(up.child.pid!).filter(isPlugin);
    expect(plugins.length, "the plugin runs under the CLI").toBeGreaterThanOrEqual(1);
    console.info(`[e2e] killing the CLI's process group; it printed:\n${up.output()}`);
    process.kill(-up.child.pid!, "SIGKILL");
    await up.exited;

    // The held read answers (HOLD_MS), what followed it has had time, and the plugins stop: nothing can be sent after.
    await until("the sandbox answered the held account read", async () => (await sandbox.management.requests()).some((r) => r.operation === "GetUserData"), HOLD_MS + 5_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await until(`every plugin process has stopped (${BOUND_MS / 1000} s)`, () => plugins.every((pid) => !isAlive(pid)), BOUND_MS);
    const afterKill = await createOrders(sandbox);
    console.info(`[e2e] CreateOrders the sandbox received after the kill: ${afterKill.length}`);
    expect(afterKill, "a cancelled call sends no CreateOrder").toHaveLength(0);

    // The next up: the killed CLI left its lock (cleared as a user does), then each Order is bought once.
    let output: string;
    try {
      output = await run(["up", "--yes"]);
    } catch (error) {
      expect((error as Error).message).toMatch(/locked/);
      await run(["cancel", "--yes"]);
      output = await run(["up", "--yes"]);
    }
    console.info(`[e2e] the next up said:\n${output}`);
    // The engine's account of the kill: creates were under way (held before CreateOrder) when the CLI died.
    const interrupted = NAMES.filter((n) => output.includes(`${urnOf(n)}, interrupted while creating`));
    console.info(`[e2e] creates interrupted by the kill: ${interrupted.join(", ")}`);
    expect(interrupted.length).toBeGreaterThanOrEqual(2);
    const outputs = JSON.parse(await run(["stack", "output", "--json"])) as Record<string, string>;
    const orderNos = NAMES.map((n) => outputs[n]);
    expect(new Set(orderNos).size).toBe(NAMES.length);
    expect(await createOrders(sandbox), "one CreateOrder per Order, all in the next up").toHaveLength(NAMES.length);
    for (const [i, name] of domains.entries()) {
      const sold = await ordersFor(sandbox, name);
      expect(sold.map((o) => o.orderNo), `${name} is bought once, and it is the order in state`).toEqual([orderNos[i]]);
    }
  });
});
