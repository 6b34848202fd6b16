// `pulumi up` of a Pulumi YAML program killed while the provider plugin
// creates an Order, at three points: the CLI and every process it started
// (language host, plugin) SIGKILLed at once. The engine only warns about the
// pending create and asks the plugin to create again; the plugin's purchase
// journal must keep that from buying a second time. Each kill point has its
// own sandbox, backend and journal.
import type { ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { repoRoot } from "../../../scripts/engine/index.js";
import { startPluginStack, startUp } from "../harness/plugin.js";
import { isAlive, killTree } from "../harness/process-tree.js";
import type { TestSandbox } from "../harness/sandbox.js";
import { until } from "../harness/waiting.js";
import { failureOf } from "../harness/stack.js";
import { createKillPoints, ordersFor, ordersOnceSold, restoreTornCheckpoint, type KillPoint } from "../harness/kill-points.js";

const PROGRAM = path.join(repoRoot, "tests", "e2e", "fixtures", "yaml-money", "order-and-certificate");
const PROJECT = "certreseller-interrupted";
const STACK = "dev";
/** How long the sandbox holds the call the kill lands in. */
const LATENCY_MS = 3000;

const createOrderCalls = async (sandbox: TestSandbox) => (await sandbox.management.requests()).filter((r) => r.operation === "CreateOrder");

const KILL_POINTS: KillPoint[] = [
  ...createKillPoints(LATENCY_MS),
  {
    title: "after ApplySign answered",
    // The Certificate's first download is held: the Order's create has returned and the engine is still running.
    faults: { DownloadCertificate: { latencyMs: 30_000, times: 1 } },
    reached: async ({ sandbox }) => {
      await until("ApplySign has answered", async () => (await sandbox.management.requests()).some((r) => r.operation === "ApplySign"));
      await until("the sandbox holds the Certificate's download", async () => (await sandbox.management.faults()).DownloadCertificate === undefined);
    },
    answerLost: false,
    insideCreate: false,
  },
];

/** The program with `adoptOrderNo` added to the Order: what the journal's message tells the user to write. */
function adoptInProgram(dir: string, orderNo: string): void {
  const file = path.join(dir, "Pulumi.yaml");
  const text = fs.readFileSync(file, "utf8");
  const adopted = text.replace("      verificationMethod: dns\n", `      verificationMethod: dns\n      adoptOrderNo: "${orderNo}"\n`);
  expect(adopted).not.toBe(text);
  fs.writeFileSync(file, adopted);
}

describe("interrupted create through the provider plugin (engine killed, Pulumi YAML)", () => {
  const cleanups: (() => Promise<void>)[] = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup().catch((error: unknown) => console.warn(`[e2e] cleanup failed: ${String(error)}`));
  });

  it.each(KILL_POINTS.map((point, i) => ({ ...point, i })))("killed $title: the next up never buys a second order; destroy refunds", async (point) => {
    const domain = `killed-${point.i}.plugin.e2e.example.com`;
    const { sandbox, world, dir, run, close } = await startPluginStack({ program: PROGRAM, config: { domain } });
    let child: ChildProcess | undefined;
    cleanups.push(async () => {
      if (child?.pid && isAlive(child.pid)) killTree(child.pid);
      if ((await sandbox.management.orders()).some((o) => o.orderStatus !== 4)) {
        await run(["cancel", "--yes"]).catch(() => undefined);
        await run(["destroy", "--yes"]).catch(() => undefined);
      }
      await close();
    });
    await sandbox.management.setFaults(point.faults);

    const up = startUp(world, dir);
    child = up.child;
    await Promise.race([
      point.reached({ sandbox, world, domain }),
      up.exited.then(() => {
        throw new Error(`the up finished before the kill point:\n${up.output()}`);
      }),
    ]);
    const killed = killTree(up.child.pid!);
    await up.exited;
    await until("every killed process is gone", () => killed.every((pid) => !isAlive(pid)), 10_000);
    // The CLI, the YAML language host and the plugin at least.
    expect(killed.length).toBeGreaterThanOrEqual(3);
    // Killed mid-update: the CLI never printed the update's closing summary.
    expect(up.output()).toMatch(/Updating \(dev\)/);
    expect(up.output()).not.toMatch(/Duration:/);

    // Let whatever the sandbox was holding complete, as a real service would after the client vanished.
    await sandbox.management.clearFaults();
    const bought = await ordersOnceSold(sandbox, domain);
    expect(bought.length).toBeLessThanOrEqual(1);

    restoreTornCheckpoint(world, PROJECT, STACK);
    // The killed CLI left its stack lock behind; `pulumi cancel` is how a user clears it.
    expect(await failureOf(run(["up", "--yes"]))).toMatch(/locked/);
    await run(["cancel", "--yes"]);

    let output: string;
    if (point.answerLost) {
      // The order number never reached the journal: stop, name the domain, say what to check; buy nothing.
      // `up` previews first, and the preview now reads the journal as the create will: it stops there, before the
      // engine's "pending operation" warning (which only a non-preview step prints), and says what `up` would say.
      const message = await failureOf(run(["up", "--yes"]));
      output = message;
      expect(message).toContain(domain);
      expect(message).toMatch(/`up` will stop before buying: .*MAY have been charged/);
      expect(message).toContain("adoptOrderNo");
      expect(await createOrderCalls(sandbox)).toHaveLength(1);
      expect(await ordersFor(sandbox, domain)).toHaveLength(bought.length);
      // The documented way to confirm: the order found in the account, adopted in the program.
      expect(bought).toHaveLength(1);
      adoptInProgram(dir, bought[0]!.orderNo);
      await run(["up", "--yes"]);
    } else {
      expect(bought).toHaveLength(1);
      output = await run(["up", "--yes"]);
      // Killed inside the create: the journal's order is resumed, not bought again.
      if (point.insideCreate) expect(output).toContain(`resuming order ${bought[0]!.orderNo}`);
    }
    // The engine saw the interrupted create (and, left alone, would have bought again).
    if (point.insideCreate && !point.answerLost) expect(output).toMatch(/pending operation/i);
    const outputs = JSON.parse(await run(["stack", "output", "--json"])) as { orderNo?: string; serialNumber?: string };
    expect(outputs.orderNo).toBe(bought[0]!.orderNo);
    expect(outputs.serialNumber).toMatch(/\S/);

    // Exactly one purchase ever reached the sandbox, and it is the order in state.
    const creates = await createOrderCalls(sandbox);
    expect(creates).toHaveLength(1);
    expect(await ordersFor(sandbox, domain)).toHaveLength(1);
    expect((await sandbox.management.orders()).length).toBe(1);
    const final = await sandbox.management.order(bought[0]!.orderNo);
    expect(final.certStatus, "the resumed order was submitted for issuance").not.toBe(0);

    await run(["destroy", "--yes"]);
    for (const order of await sandbox.management.orders()) {
      expect(order.refund, `order ${order.orderNo} has no refund`).toBeTruthy();
      expect(order.orderStatus).toBe(4);
    }
  });
});
