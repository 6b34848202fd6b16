// Refresh and destroy use the provider configuration the last `up` recorded
// (docs/pulumi-dynamic-providers.md). With another account's key or a wrong
// base URL recorded, the service's 404 (another account's order) or a
// proxy's HTML 404 page must never drop, release or re-buy a paid order.
// Each scenario ends by counting the sandbox's orders against the Orders in
// state and in the purchase journal: nothing bought twice, nothing paid and
// untracked.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { PartnerClient } from "pulumi-certreseller";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { createWorld, failureOf, openStack, recorder, type E2eWorld } from "./harness/stack.js";
import { ordersProgram } from "./programs.js";
import { startHtml404 } from "./harness/html-404.js";

const ORDER_TYPE = "pulumi-nodejs:dynamic/certreseller:Order";

describe("wrong evidence: another account's key, an HTML 404 page, a wrong URL", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let proxy: Awaited<ReturnType<typeof startHtml404>>;
  const stacks: Stack[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    world = createWorld(sandbox);
    proxy = await startHtml404();
  });

  afterAll(async () => {
    for (const stack of stacks) {
      await stack.setConfig("certreseller:apiKey", { value: sandbox.apiKey, secret: true }).catch(() => undefined);
      await stack.setConfig("certreseller:baseUrl", { value: sandbox.url }).catch(() => undefined);
      await stack.up().catch(() => undefined);
      await stack.destroy().catch(() => undefined);
    }
    await proxy?.stop();
    await sandbox?.stop();
    world?.dispose();
  });

  async function stackFor(project: string, domain: string): Promise<Stack> {
    const stack = await openStack(world, project, ordersProgram({ site: { productCode: "sandbox-dv-single", domain, verificationMethod: "dns" } }));
    stacks.push(stack);
    return stack;
  }

  async function appIdOf(apiKey: string): Promise<string> {
    const client = new PartnerClient({ baseUrl: sandbox.url, apiKey });
    try {
      return (await client.getUserData()).apiKey.appId!;
    } finally {
      await client.close();
    }
  }

  /** The sandbox's orders for `domain`, with whether each is refunded (order status 4) or cancelled (3). */
  async function sandboxOrders(domain: string): Promise<{ orderNo: string; released: boolean }[]> {
    return (await sandbox.management.orders())
      .filter((o) => (o.domains as string[] | undefined)?.includes(domain))
      .map((o) => ({ orderNo: o.orderNo, released: o.orderStatus === 3 || o.orderStatus === 4 }));
  }

  /** Order numbers the engine's state holds, and order numbers in the purchase journal. */
  async function tracked(stack: Stack): Promise<{ state: string[]; journal: string[] }> {
    const deployment = (await stack.exportStack()).deployment as { resources?: { type: string; id?: string; outputs?: Record<string, unknown> }[] };
    const state = (deployment.resources ?? []).filter((r) => r.type === ORDER_TYPE).map((r) => String(r.outputs?.orderNo ?? r.id));
    const journal: string[] = [];
    const walk = (dir: string) => {
      if (!fs.existsSync(dir)) return;
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith(".json")) {
          const orderNo = (JSON.parse(fs.readFileSync(full, "utf8")) as { orderNo?: unknown }).orderNo;
          if (typeof orderNo === "string") journal.push(orderNo);
        }
      }
    };
    walk(world.journalDir);
    return { state, journal };
  }

  /** Nothing bought twice; every paid order that is not refunded is held by state or the journal. */
  async function expectAccounted(stack: Stack, domain: string, expected: { orders: number; inState: number }): Promise<void> {
    const orders = await sandboxOrders(domain);
    const { state, journal } = await tracked(stack);
    expect(orders).toHaveLength(expected.orders);
    expect(state).toHaveLength(expected.inState);
    for (const order of orders.filter((o) => !o.released)) {
      expect([...state, ...journal], `paid order ${order.orderNo} is untracked`).toContain(order.orderNo);
    }
  }

  it("refresh under another account's key (recorded by an up) fails naming both app ids; the order stays; the right key then refreshes and destroys it", async () => {
    const domain = "other-key.e2e.example.com";
    const stack = await stackFor("other-key", domain);
    const up = await stack.up();
    const orderNo = String(up.outputs.siteOrderNo?.value);
    const mine = await appIdOf(sandbox.apiKey);

    const other = await sandbox.management.createAccount({ username: "second-account", balance: 1000 });
    const theirs = await appIdOf(other.apiKey);
    expect(theirs).not.toBe(mine);
    await stack.setConfig("certreseller:apiKey", { value: other.apiKey, secret: true });
    await stack.up(); // no resource changes; the engine records the other key

    const message = await failureOf(stack.refresh());
    expect(message).toContain(orderNo);
    expect(message).toContain(mine);
    expect(message).toContain(theirs);
    expect(message).toMatch(/pulumi config set --secret certreseller:apiKey/);
    expect(message).not.toContain(other.apiKey.split(":")[1]!);
    expect(message).not.toContain(sandbox.apiKey.split(":")[1]!);
    await expectAccounted(stack, domain, { orders: 1, inState: 1 });

    // destroy under the other key: nothing cancelled, nothing released.
    await sandbox.management.clearRequests();
    const destroyMessage = await failureOf(stack.destroy());
    expect(destroyMessage).toMatch(/Nothing was cancelled or released/);
    expect((await sandbox.management.operationCounts()).CancelOrder ?? 0).toBe(0);
    await expectAccounted(stack, domain, { orders: 1, inState: 1 });

    // The documented way back: the right key, an up to record it, then refresh and destroy.
    await stack.setConfig("certreseller:apiKey", { value: sandbox.apiKey, secret: true });
    await stack.up();
    await stack.refresh();
    await expectAccounted(stack, domain, { orders: 1, inState: 1 });
    await sandbox.management.clearRequests();
    const again = await stack.up();
    expect(again.summary.resourceChanges?.create ?? 0).toBe(0);
    expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
    await stack.destroy();
    expect((await sandbox.management.order(orderNo)).orderStatus).toBe(4);
    await expectAccounted(stack, domain, { orders: 1, inState: 0 });
  });

  it("a proxy's HTML 404 page as base URL (recorded by an up): refresh fails and keeps the order; the next up buys nothing", async () => {
    const domain = "html-404.e2e.example.com";
    const stack = await stackFor("html-404", domain);
    const up = await stack.up();
    const orderNo = String(up.outputs.siteOrderNo?.value);

    await stack.setConfig("certreseller:baseUrl", { value: proxy.url });
    const t = recorder();
    await stack.up({ onOutput: t.onOutput }); // the catalogue cannot be read: a warning, no resource changes
    expect(t.output).toMatch(/could not read the product list/);

    proxy.hits.length = 0;
    const message = await failureOf(stack.refresh());
    expect(proxy.hits.some((hit) => hit.includes("GetRecord"))).toBe(true);
    expect(message).toContain(orderNo);
    expect(message).toMatch(/http_error/);
    expect(message).toMatch(/kept in state/);
    await expectAccounted(stack, domain, { orders: 1, inState: 1 });

    await stack.setConfig("certreseller:baseUrl", { value: sandbox.url });
    await sandbox.management.clearRequests();
    const back = await stack.up();
    expect(back.summary.resourceChanges?.create ?? 0).toBe(0);
    expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
    await stack.refresh();
    await expectAccounted(stack, domain, { orders: 1, inState: 1 });
  });

  it("destroy against a wrong URL fails without cancelling or releasing; with the right URL it cancels and refunds", async () => {
    const domain = "wrong-url.e2e.example.com";
    const stack = await stackFor("wrong-url", domain);
    const up = await stack.up();
    const orderNo = String(up.outputs.siteOrderNo?.value);

    await stack.setConfig("certreseller:baseUrl", { value: `${proxy.url}/wrong-prefix` });
    await stack.up();
    await sandbox.management.clearRequests();
    const message = await failureOf(stack.destroy());
    expect(message).toContain(orderNo);
    expect(message).toMatch(/nothing was cancelled, run again/);
    expect((await sandbox.management.operationCounts()).CancelOrder ?? 0).toBe(0);
    expect((await sandbox.management.order(orderNo)).refund).toBeNull();
    await expectAccounted(stack, domain, { orders: 1, inState: 1 });

    await stack.setConfig("certreseller:baseUrl", { value: sandbox.url });
    await stack.up();
    await stack.destroy();
    expect((await sandbox.management.order(orderNo)).orderStatus).toBe(4);
    await expectAccounted(stack, domain, { orders: 1, inState: 0 });
  });
});
