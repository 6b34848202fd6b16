// The engine killed while an Order's create is in flight, at three points.
// The engine itself only warns about the pending create and calls create
// again; the provider's purchase journal must prevent a second purchase.
import type { ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAlive, killTree } from "./harness/process-tree.js";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { createWorld, failureOf, openStack, providerConfig, recorder, type E2eWorld } from "./harness/stack.js";
import { startChildUp } from "./harness/child-up.js";
import type { ChildUpSpec } from "./harness/up-child.js";
import { ordersThenHoldProgram, ordersProgram, type OrderArgs } from "./programs.js";
import { until } from "./harness/waiting.js";
import { fromEngineEvents, summarize } from "../../sdk/src/money/index.js";
import { createKillPoints, ordersFor, ordersOnceSold, restoreTornCheckpoint, type KillPoint } from "./harness/kill-points.js";

const LATENCY_MS = 3000;

const KILL_POINTS: KillPoint[] = [
  ...createKillPoints(LATENCY_MS),
  {
    title: "after ApplySign answered",
    faults: {},
    reached: async ({ sandbox }) =>
      until("ApplySign has answered", async () => (await sandbox.management.requests()).some((r) => r.operation === "ApplySign")),
    answerLost: false,
    insideCreate: false,
  },
];

describe("interrupted create (engine killed)", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  const stacks: Stack[] = [];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    world = createWorld(sandbox);
  });

  afterAll(async () => {
    for (const child of children) if (child.pid && isAlive(child.pid)) killTree(child.pid);
    for (const stack of stacks) await stack.destroy().catch(() => undefined);
    await sandbox?.stop();
    world?.dispose();
  });

  it.each(KILL_POINTS.map((point, i) => ({ ...point, i })))("killed $title: the next up never buys a second order", async (point) => {
    const domain = `killed-${point.i}.e2e.example.com`;
    const projectName = `interrupted-${point.i}`;
    const order: OrderArgs = { productCode: "sandbox-dv-single", domain, verificationMethod: "dns" };
    for (const f of fs.readdirSync(world.journalDir)) fs.rmSync(path.join(world.journalDir, f));
    await sandbox.management.clearRequests();
    await sandbox.management.clearFaults();
    await sandbox.management.setFaults(point.faults);

    // `up` in a child process, Order followed by a slow resource so the engine is still running at the kill.
    const { dispose: _dispose, ...environment } = world.environment;
    const spec: ChildUpSpec = {
      environment,
      projectName,
      stackName: "e2e",
      config: providerConfig(world),
      program: "ordersThenHold",
      args: { orders: { site: order }, holdMs: 20_000 },
    };
    const { child, output, exited } = startChildUp(spec, world.environment.env);
    children.push(child);

    await Promise.race([
      point.reached({ sandbox, world, domain }),
      exited.then(() => {
        throw new Error(`the up finished before the kill point:\n${output()}`);
      }),
    ]);
    const killed = killTree(child.pid!);
    await exited;
    await until("every killed process is gone", () => killed.every((pid) => !isAlive(pid)), 10_000);
    expect(output()).not.toContain('"done":true');

    // Let whatever the sandbox was holding complete, as a real service would after the client vanished.
    await sandbox.management.clearFaults();
    const bought = await ordersOnceSold(sandbox, domain);
    expect(bought.length).toBeLessThanOrEqual(1);

    await sandbox.management.clearRequests();
    restoreTornCheckpoint(world, projectName, "e2e");
    const stack = await openStack(world, projectName, ordersProgram({ site: order }));
    stacks.push(stack);
    // The killed CLI left its stack lock behind; `pulumi cancel` is how a user clears it.
    expect(await failureOf(stack.up())).toMatch(/locked/);
    await stack.cancel();
    // The preview says what `up` will do with the journaled purchase, never "will buy" (a CI gate reads it).
    const seen = recorder();
    const previewed = await stack.preview({ onOutput: seen.onOutput, onEvent: seen.onEvent }).then(
      () => "",
      (error: unknown) => String(error),
    );
    expect(seen.output).not.toMatch(/will buy/);
    if (point.answerLost) expect(previewed).toMatch(/`up` will stop before buying: .*MAY have been charged/);
    else if (point.insideCreate) {
      expect(seen.output).toContain(`will resume order ${bought[0]!.orderNo}`);
      const summary = summarize(fromEngineEvents(seen.events), new Date());
      expect([summary.spend, summary.resumes.map((r) => r.orderNo)]).toEqual([0, [bought[0]!.orderNo]]);
    }
    expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
    const t = recorder();
    if (point.answerLost) {
      // The order number never reached the journal: stop, name the domain, say what to check.
      const message = await failureOf(stack.up({ onOutput: t.onOutput }));
      expect(message).toContain(domain);
      expect(message).toContain("adoptOrderNo");
      expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
      expect(await ordersFor(sandbox, domain)).toHaveLength(bought.length);
      // The documented way to confirm: the order found in the account, adopted.
      expect(bought).toHaveLength(1);
      const up = await stack.up({ program: ordersProgram({ site: { ...order, adoptOrderNo: bought[0]!.orderNo } }) });
      expect(up.outputs.siteOrderNo?.value).toBe(bought[0]!.orderNo);
    } else {
      expect(bought).toHaveLength(1);
      const up = await stack.up({ onOutput: t.onOutput });
      expect(up.outputs.siteOrderNo?.value).toBe(bought[0]!.orderNo);
    }
    // The engine saw the interrupted create (and, left alone, would have bought again).
    if (point.insideCreate) expect(t.output).toMatch(/pending operation/i);
    expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
    expect(await ordersFor(sandbox, domain)).toHaveLength(1);
    const final = await sandbox.management.order(bought[0]!.orderNo);
    expect(final.certStatus, "the resumed order was submitted for issuance").not.toBe(0);
  });
});
