// Failures after money moved: the paid order stays tracked and is resumed,
// never bought twice; a lost CreateOrder answer stops with what to check, and
// the documented way out (adoptOrderNo) completes without a second purchase.
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSandbox } from "./harness/sandbox.js";
import { closeSandboxWorld, failureOf, openStack, startSandboxWorld, type E2eWorld } from "./harness/stack.js";
import { ordersProgram, type OrderArgs } from "./programs.js";

describe("money safety", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  const stacks: Stack[] = [];

  beforeAll(async () => void ({ sandbox, world } = await startSandboxWorld()));
  afterAll(() => closeSandboxWorld({ sandbox, world }, stacks));

  async function orderNumbersFor(domain: string): Promise<string[]> {
    return (await sandbox.management.orders())
      .filter((o) => (o.domains as string[] | undefined)?.includes(domain))
      .map((o) => o.orderNo);
  }

  it("ApplySign failing keeps the paid order in state; the next up resumes it without a second CreateOrder", async () => {
    const domain = "applysign.e2e.example.com";
    const order: OrderArgs = { productCode: "sandbox-dv-single", domain, verificationMethod: "dns" };
    const stack = await openStack(world, "partial-failure", ordersProgram({ site: order }));
    stacks.push(stack);

    await sandbox.management.setFaults({ ApplySign: { errorRate: 1, errorCode: 500 } });
    const message = await failureOf(stack.up());
    expect(message).toMatch(/ApplySign/);
    const [orderNo, ...others] = await orderNumbersFor(domain);
    expect(orderNo).toBeDefined();
    expect(others).toEqual([]);
    expect(message).toContain(orderNo!);

    // The engine holds the order (a partially created resource), not a pending create.
    const state = await stack.exportStack();
    const held = state.deployment.resources.find((r: { type: string }) => r.type === "pulumi-nodejs:dynamic/certreseller:Order");
    expect(held?.outputs?.orderNo ?? held?.id).toBe(orderNo);

    await sandbox.management.clearFaults();
    await sandbox.management.clearRequests();
    const up = await stack.up();
    expect(up.outputs.siteOrderNo?.value).toBe(orderNo);
    const counts = await sandbox.management.operationCounts();
    expect(counts.CreateOrder ?? 0).toBe(0);
    expect(counts.ApplySign).toBe(1);
    expect(await orderNumbersFor(domain)).toEqual([orderNo]);
    const stored = await sandbox.management.order(orderNo!);
    expect(stored.certStatus).not.toBe(0);
  });

  it.each(["500", "drop"] as const)(
    "CreateOrder committed then failed (%s): no second purchase, the error says what to check, adoptOrderNo completes",
    async (mode) => {
      const domain = `commit-${mode}.e2e.example.com`;
      const order: OrderArgs = { productCode: "sandbox-dv-single", domain, verificationMethod: "dns" };
      const stack = await openStack(world, `commit-then-fail-${mode}`, ordersProgram({ site: order }));
      stacks.push(stack);

      await sandbox.management.setFaults({ CreateOrder: { commitThenFail: mode, times: 1 } });
      const first = await failureOf(stack.up());
      const bought = await orderNumbersFor(domain);
      expect(bought).toHaveLength(1);
      // What to check: the domain, that money may have moved, and the way to adopt.
      expect(first).toContain(domain);
      expect(first).toMatch(/charged/i);
      expect(first).toContain("adoptOrderNo");

      // Running again (fault gone) must not buy: the journal remembers the lost answer.
      await sandbox.management.clearRequests();
      const second = await failureOf(stack.up());
      expect(second).toContain(domain);
      expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
      expect(await orderNumbersFor(domain)).toEqual(bought);

      // The documented repair: adopt the order found in the account.
      const up = await stack.up({ program: ordersProgram({ site: { ...order, adoptOrderNo: bought[0]! } }) });
      expect(up.outputs.siteOrderNo?.value).toBe(bought[0]);
      expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
      expect(await orderNumbersFor(domain)).toEqual(bought);
    },
  );
});
