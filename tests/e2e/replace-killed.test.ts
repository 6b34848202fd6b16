// `pulumi up --replace` right after the up that bought the Order, killed
// between the replacement's create (which resumed the journaled order rather
// than buying) and the replaced resource's delete. The next run deletes the
// replaced resource first (a pending delete): that delete runs in a new
// provider process, and must still not cancel the order the replacement
// holds. Only the purchase journal's `resumedAt` mark carries that across.
import type { ChildProcess } from "node:child_process";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openJournal } from "../../sdk/src/journal/index.js";
import { isAlive, killTree } from "./harness/process-tree.js";
import type { TestSandbox } from "./harness/sandbox.js";
import { restoreTornCheckpoint } from "./harness/kill-points.js";
import { closeSandboxWorld, failureOf, openStack, providerConfig, recorder, startSandboxWorld, type E2eWorld } from "./harness/stack.js";
import { startChildUp } from "./harness/child-up.js";
import type { ChildUpSpec } from "./harness/up-child.js";
import { until } from "./harness/waiting.js";
import { ordersThenHoldProgram, type OrderArgs } from "./programs.js";

let sandbox: TestSandbox;
let world: E2eWorld;
const stacks: Stack[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => void ({ sandbox, world } = await startSandboxWorld()));
afterAll(async () => {
  for (const child of children) if (child.pid && isAlive(child.pid)) killTree(child.pid);
  await closeSandboxWorld({ sandbox, world }, stacks);
});

it("killed between the replacement's create and the old delete: the next up neither cancels nor buys, and the stack holds the order", async () => {
  const domain = "replace-killed.e2e.example.com";
  const projectName = "replace-killed";
  const order: OrderArgs = { productCode: "sandbox-dv-single", domain, verificationMethod: "dns" };
  const stack = await openStack(world, projectName, ordersThenHoldProgram({ orders: { site: order }, holdMs: 10 }));
  stacks.push(stack);
  const bought = String((await stack.up()).outputs.siteOrderNo?.value);
  const resources = ((await stack.exportStack()).deployment as { resources: Array<{ type: string; urn: string }> }).resources;
  const urns = resources.filter((r) => r.type.endsWith(":Order") || r.type.endsWith(":Hold")).map((r) => r.urn);
  expect(urns).toHaveLength(2);

  // `up --replace` of the Order and the Hold after it: the Hold keeps the engine busy after the Order's replacement, before any delete.
  const { dispose: _dispose, ...environment } = world.environment;
  const spec: ChildUpSpec = {
    environment,
    projectName,
    stackName: "e2e",
    config: providerConfig(world),
    program: "ordersThenHold",
    args: { orders: { site: order }, holdMs: 60_000 },
    replace: urns,
  };
  const { child, output, exited } = startChildUp(spec, world.environment.env);
  children.push(child);
  const journal = openJournal({ journalDir: world.journalDir });
  const key = (await journal.list()).find((e) => e.entry?.orderNo === bought)!.entry!.key;
  await Promise.race([
    (async () => {
      await until("the replacement's create resumed the journaled order", async () => (await journal.resumedMark(key, bought)) !== undefined, 120_000);
      // The engine has recorded the replacement once the Hold after it is being created.
      await until("the Hold after the replacement is being created", () => /"resourcePreEvent".*Hold.*"op":"create-replacement"|"op":"create-replacement".*Hold/.test(output()), 120_000);
    })(),
    exited.then(() => {
      throw new Error(`the up finished before the kill point:\n${output()}`);
    }),
  ]);
  const killed = killTree(child.pid!);
  await exited;
  await until("every killed process is gone", () => killed.every((pid) => !isAlive(pid)), 10_000);
  expect((await sandbox.management.operationCounts()).CancelOrder ?? 0).toBe(0);

  await sandbox.management.clearRequests();
  restoreTornCheckpoint(world, projectName, "e2e");
  expect(await failureOf(stack.up())).toMatch(/locked/);
  await stack.cancel();
  const t = recorder();
  const next = await stack.up({ onOutput: t.onOutput });
  expect(next.outputs.siteOrderNo?.value).toBe(bought);
  const counts = await sandbox.management.operationCounts();
  expect([counts.CreateOrder ?? 0, counts.CancelOrder ?? 0]).toEqual([0, 0]);
  expect([4, 5, 6]).not.toContain((await sandbox.management.order(bought)).certStatus);
  expect(t.output).toMatch(new RegExp(`order ${bought} is not cancelled: the purchase journal shows that a create of this resource resumed it`));
  // The replacement's diff in that same up tidied the entry; the mark stays with the replacement (its own destroy cancels).
  expect((await journal.list()).filter((e) => e.entry?.orderNo === bought)).toEqual([]);
  const held = ((await stack.exportStack()).deployment as { resources: Array<{ type: string; outputs?: { resumedAt?: string } }> }).resources.find((r) => r.type.endsWith(":Order"));
  expect((await journal.resumedMark(key, bought))?.resumedAt).toBe(held?.outputs?.resumedAt);
  const state = (await stack.exportStack()).deployment as { resources: Array<{ type: string; id?: string; delete?: boolean }> };
  expect(state.resources.filter((r) => r.type.endsWith(":Order")).map((r) => [r.id, r.delete ?? false])).toEqual([[bought, false]]);
});
