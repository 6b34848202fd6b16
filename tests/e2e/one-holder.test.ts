// One paid order, one holder: whatever the API answers and wherever another
// stack of the same name lives, no two resources end up holding one order,
// and no destroy cancels an order another stack or resource holds.
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRefusingProxy } from "./harness/refusing-proxy.js";
import type { TestSandbox } from "./harness/sandbox.js";
import { closeSandboxWorld, createWorld, failureOf, openStack, recorder, startSandboxWorld, type E2eWorld } from "./harness/stack.js";
import { ordersProgram, type OrderArgs } from "./programs.js";

interface StateResource {
  type: string;
  id?: string;
  delete?: boolean;
}
const orderIds = async (stack: Stack) =>
  ((await stack.exportStack()).deployment as { resources?: StateResource[] }).resources?.filter((r) => r.type.endsWith(":Order")).map((r) => r.id) ?? [];

let sandbox: TestSandbox;
let world: E2eWorld;
const stacks: Stack[] = [];
const others: E2eWorld[] = [];

beforeAll(async () => void ({ sandbox, world } = await startSandboxWorld()));
afterAll(async () => {
  await closeSandboxWorld({ sandbox, world }, stacks);
  for (const other of others) other.dispose();
});

describe("CreateOrder refused in the API's own words, naming an existing order", () => {
  it("a replacement that keeps the names is refused: the order named is not taken, only the old resource holds it, destroy cancels it once", async () => {
    const proxy = await startRefusingProxy(sandbox.url);
    try {
      const domain = "refused-named.e2e.example.com";
      const order: OrderArgs = { productCode: "sandbox-dv-single", domain, verificationMethod: "dns" };
      const stack = await openStack(world, "refused-named", ordersProgram({ site: order }), "e2e", { "certreseller:baseUrl": { value: proxy.url } });
      stacks.push(stack);
      const held = String((await stack.up()).outputs.siteOrderNo?.value);

      // A term change before issuance: a replacement for the same names, which the service refuses, naming the held order.
      await sandbox.management.clearRequests();
      proxy.refuseNextCreate(held);
      const t = recorder();
      const message = await failureOf(stack.up({ program: ordersProgram({ site: { ...order, months: 24 } }), onOutput: t.onOutput }));
      expect(proxy.refused).toBe(1);
      expect(message).toMatch(new RegExp(`CreateOrder was refused, nothing was bought: .*The refusal names order ${held}, which is NOT taken into state`));
      expect(message).toMatch(new RegExp(`adoptOrderNo: \\\\?"${held}`));
      // Exactly one resource holds it (the replaced one, untouched), and it is live.
      expect(await orderIds(stack)).toEqual([held]);
      expect((await sandbox.management.operationCounts()).CancelOrder ?? 0).toBe(0);
      expect([4, 5, 6]).not.toContain((await sandbox.management.order(held)).certStatus);

      await sandbox.management.clearRequests();
      await stack.destroy();
      expect((await sandbox.management.operationCounts()).CancelOrder ?? 0).toBe(1);
    } finally {
      await proxy.stop();
    }
  });
});

describe("two self-managed backends, one journal: the same project, stack and resource name", () => {
  it("stack B stops on stack A's journaled order, buys its own once A holds it, and destroying B never cancels A's order", async () => {
    const domain = "two-backends.e2e.example.com";
    const order: OrderArgs = { productCode: "sandbox-dv-single", domain, verificationMethod: "dns" };
    const a = await openStack(world, "two-backends", ordersProgram({ site: order }));
    stacks.push(a);
    // A's up buys; its journal entry waits for A's next diff.
    const orderA = String((await a.up()).outputs.siteOrderNo?.value);

    const worldB = createWorld(sandbox);
    others.push(worldB);
    const b = await openStack(worldB, "two-backends", ordersProgram({ site: order }), "e2e", { "certreseller:journalDir": { value: world.journalDir } });
    await sandbox.management.clearRequests();
    const stop = await failureOf(b.up());
    expect(stop).toMatch(new RegExp(`holds order ${orderA} .*under another backend`));
    expect(stop).toContain("adoptOrderNo");
    expect(stop).toMatch(/journal rm [0-9a-f]{32}/);
    expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
    expect(await orderIds(b)).toEqual([]);

    // A's next up holds its order and tidies its entry; then B buys its own.
    await a.up();
    const orderB = String((await b.up()).outputs.siteOrderNo?.value);
    expect(orderB).not.toBe(orderA);
    expect(await orderIds(a)).toEqual([orderA]);
    expect(await orderIds(b)).toEqual([orderB]);

    // Destroying the throwaway stack B refunds B's order only.
    await sandbox.management.clearRequests();
    await b.destroy();
    expect((await sandbox.management.operationCounts()).CancelOrder ?? 0).toBe(1);
    expect([4, 5, 6]).toContain((await sandbox.management.order(orderB)).certStatus);
    expect([4, 5, 6]).not.toContain((await sandbox.management.order(orderA)).certStatus);
  });
});

describe("a certificate revoked while its order stays paid", () => {
  it("refresh keeps the order and says how to get a certificate again; the next up buys nothing", async () => {
    const domain = "revoked-live.e2e.example.com";
    const stack = await openStack(world, "revoked-live", ordersProgram({ site: { productCode: "sandbox-dv-single", domain, verificationMethod: "dns" } }));
    stacks.push(stack);
    const held = String((await stack.up()).outputs.siteOrderNo?.value);
    await sandbox.management.forceState(held, "issue");
    await sandbox.management.forceState(held, "revoke");
    await sandbox.management.clearRequests();
    const t = recorder();
    await stack.refresh({ onOutput: t.onOutput });
    expect(t.output).toMatch(/still paid and live \(order status 2\), so it is KEPT/);
    expect(t.output).not.toMatch(/will buy a new one/);
    expect(await orderIds(stack)).toEqual([held]);
    await stack.up();
    expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
  });
});
