// An order's life outside a plain up: adopted from the account instead of
// bought (the `import` option cannot work for dynamic resources), refreshed
// after someone cancelled or revoked it elsewhere, destroyed after the refund
// window (released with a message, never stuck).
import type { Stack } from "@pulumi/pulumi/automation";
import { PartnerClient } from "pulumi-certreseller";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { createWorld, failureOf, openStack, recorder, type E2eWorld } from "./harness/stack.js";
import { changedSteps } from "./harness/steps.js";
import { ordersProgram, type OrderArgs } from "./programs.js";

describe("order lifecycle: adoption, refresh, release", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let client: PartnerClient;
  const stacks: Stack[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    world = createWorld(sandbox);
    client = new PartnerClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
  });

  afterAll(async () => {
    for (const stack of stacks) await stack.destroy().catch(() => undefined);
    client?.close();
    await sandbox?.stop();
    world?.dispose();
  });

  async function stackFor(project: string, orders: Record<string, OrderArgs>): Promise<Stack> {
    const stack = await openStack(world, project, ordersProgram(orders));
    stacks.push(stack);
    return stack;
  }

  /** An order bought and submitted through the API, as another tool or the web console would. */
  async function outsideOrder(domain: string): Promise<string> {
    const { orderNo } = await client.createOrder({ productCode: "sandbox-dv-single", domain, verificationMethod: "dns" });
    await client.applySign({ orderNo });
    return orderNo;
  }

  describe("adoption", () => {
    const domain = "adopted.e2e.example.com";
    const declared: OrderArgs = { productCode: "sandbox-dv-single", domain, verificationMethod: "dns" };
    let orderNo: string;
    let stack: Stack;

    it("adopts an order created outside Pulumi without buying", async () => {
      orderNo = await outsideOrder(domain);
      const ordersBefore = (await sandbox.management.orders()).length;
      await sandbox.management.clearRequests();
      stack = await stackFor("adoption", { site: { ...declared, adoptOrderNo: orderNo } });
      const up = await stack.up();
      expect(up.outputs.siteOrderNo?.value).toBe(orderNo);
      expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
      expect(await sandbox.management.orders()).toHaveLength(ordersBefore);
    });

    it("the matching program then previews with no changes, with or without the adoption input", async () => {
      for (const program of [ordersProgram({ site: { ...declared, adoptOrderNo: orderNo } }), ordersProgram({ site: declared })]) {
        const t = recorder();
        await stack.preview({ program, onEvent: t.onEvent, onOutput: t.onOutput });
        expect(changedSteps(t.events), t.output).toEqual({});
      }
    });

    it("refuses to adopt an order that does not match the declared domains, naming both", async () => {
      const other = await outsideOrder("other-adopted.e2e.example.com");
      const ordersBefore = (await sandbox.management.orders()).length;
      await sandbox.management.clearRequests();
      const mismatched = await stackFor("adoption-mismatch", { site: { ...declared, domain: "declared.e2e.example.com", adoptOrderNo: other } });
      const message = await failureOf(mismatched.up());
      expect(message).toContain(other);
      expect(message).toMatch(/other-adopted\.e2e\.example\.com|declared\.e2e\.example\.com/);
      expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
      expect(await sandbox.management.orders()).toHaveLength(ordersBefore);
    });

    it("refuses to adopt an order of another product", async () => {
      const other = await outsideOrder("product-adopted.e2e.example.com");
      const mismatched = await stackFor("adoption-product", {
        site: { productCode: "sandbox-dv-multi", domain: "product-adopted.e2e.example.com", verificationMethod: "dns", adoptOrderNo: other },
      });
      const message = await failureOf(mismatched.up());
      expect(message).toContain(other);
      expect(message).toMatch(/sandbox-dv-multi|sandbox-dv-single|product/);
    });
  });

  // A certificate revoked while its order stays paid keeps the order (settlement.ts): tests/e2e/one-holder.test.ts.
  it.each([{ how: "cancelled", act: async (orderNo: string) => void (await client.cancelOrder({ orderNo, reason: "done elsewhere" })) }])(
    "refresh shows an order $how outside Pulumi", async ({ how, act }) => {
    const domain = `${how}.e2e.example.com`;
    const order: OrderArgs = { productCode: "sandbox-dv-single", domain, verificationMethod: "dns" };
    const stack = await stackFor(`refresh-${how}`, { site: order });
    const up = await stack.up();
    const orderNo = String(up.outputs.siteOrderNo?.value);
    await act(orderNo);

    const t = recorder();
    const refresh = await stack.refresh({ onOutput: t.onOutput, onEvent: t.onEvent });
    expect(t.output).toContain(orderNo);
    expect(t.output).toMatch(/cancel|refund/);
    expect(refresh.summary.resourceChanges?.delete ?? 0).toBe(1);
    // The next preview proposes a new purchase, and spends nothing.
    const ordersBefore = (await sandbox.management.orders()).length;
    const preview = recorder();
    await stack.preview({ onEvent: preview.onEvent });
    expect(changedSteps(preview.events)).toEqual({ "Order:site": "create" });
    expect(await sandbox.management.orders()).toHaveLength(ordersBefore);
    },
  );

  it("destroy after the refund window releases the order with a message instead of failing", async () => {
    const domain = "late-destroy.e2e.example.com";
    const stack = await stackFor("late-destroy", { site: { productCode: "sandbox-dv-single", domain, verificationMethod: "dns" } });
    const up = await stack.up();
    const orderNo = String(up.outputs.siteOrderNo?.value);
    const balance = (await sandbox.management.account(sandbox.username)).balance;

    // Past the sandbox's 7-day refund window (this moves the clock for the rest of the file: keep it last).
    await sandbox.management.advanceClock(8 * 86_400);
    const t = recorder();
    const destroy = await stack.destroy({ onOutput: t.onOutput });
    expect(destroy.summary.result).toBe("succeeded");
    expect(t.output).toContain(orderNo);
    expect(t.output).toMatch(/refund window|released/i);
    const stored = await sandbox.management.order(orderNo);
    expect(stored.refund).toBeNull();
    expect((await sandbox.management.account(sandbox.username)).balance).toBe(balance);
    const state = await stack.exportStack();
    expect(state.deployment.resources?.filter((r: { type: string }) => !r.type.startsWith("pulumi:")) ?? []).toEqual([]);
  });
});
