// Money safety through the provider plugin, with a Pulumi YAML program and
// the `pulumi` commands a user types: another account's key or a proxy's HTML
// 404 page recorded as provider configuration never drops, releases or
// re-buys a paid order; a replacement buys the new order before it cancels
// the old one; destroy refunds. Each test has its own sandbox and backend.
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { repoRoot } from "../../../scripts/engine/index.js";
import { startPluginStack, type PluginStack } from "../harness/plugin.js";
import { startHtml404 } from "../harness/html-404.js";
import { failureOf } from "../harness/stack.js";

const PROGRAM = path.join(repoRoot, "tests", "e2e", "fixtures", "yaml-money", "order");
const ORDER_TYPE = "certreseller:index:Order";

/** The app id a key names: the part before the colon (`ak_...`), never secret. */
const appIdOf = (key: string) => key.slice(0, key.indexOf(":"));
/** The secret half of a key, which no message may show. */
const secretOf = (key: string) => key.slice(key.indexOf(":") + 1);


/** A sandbox, a world with the plugin installed, and a stack "dev" of the Order program for `domain`. */
type Scenario = Pick<PluginStack, "sandbox" | "world" | "dir" | "run">;

describe("money safety through the provider plugin (Pulumi YAML)", () => {
  const cleanups: (() => Promise<void>)[] = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup().catch((error: unknown) => console.warn(`[e2e] cleanup failed: ${String(error)}`));
  });

  async function scenario(domain: string): Promise<Scenario> {
    const { sandbox, world, dir, run, close } = await startPluginStack({ program: PROGRAM, config: { domain } });
    // What a failed assertion may leave: the right key and URL, recorded, then destroy. A passing test ends with every order refunded.
    const tidy = async () => {
      await run(["config", "set", "--secret", "certreseller:apiKey"], sandbox.apiKey).catch(() => undefined);
      await run(["config", "set", "certreseller:baseUrl", sandbox.url]).catch(() => undefined);
      await run(["up", "--yes"]).catch(() => undefined);
      await run(["destroy", "--yes"]).catch(() => undefined);
    };
    cleanups.push(async () => {
      if ((await sandbox.management.orders()).some((o) => o.orderStatus !== 4)) await tidy();
      await close();
    });
    return { sandbox, world, dir, run };
  }

  async function orderNoOf(s: Scenario): Promise<string> {
    const outputs = JSON.parse(await s.run(["stack", "output", "--json"])) as { orderNo?: string };
    expect(outputs.orderNo).toMatch(/\S/);
    return outputs.orderNo!;
  }

  /** Order numbers the engine's state holds (`pulumi stack export`). */
  async function ordersInState(s: Scenario): Promise<string[]> {
    const state = JSON.parse(await s.run(["stack", "export"])) as { deployment: { resources?: { type: string; id?: string }[] } };
    return (state.deployment.resources ?? []).filter((r) => r.type === ORDER_TYPE).map((r) => String(r.id));
  }

  async function countOf(s: Scenario, operation: string): Promise<number> {
    return (await s.sandbox.management.operationCounts())[operation] ?? 0;
  }

  /** Cancelled with a refund at the service: a refund recorded and order status 4 (refunded). */
  async function expectRefunded(s: Scenario, orderNo: string): Promise<void> {
    const order = await s.sandbox.management.order(orderNo);
    expect(order.refund, `order ${orderNo} has no refund`).toBeTruthy();
    expect(order.orderStatus).toBe(4);
  }

  /** Still paid and held: in state, at the service, neither refunded nor cancelled. */
  async function expectKept(s: Scenario, orderNo: string): Promise<void> {
    expect(await ordersInState(s)).toEqual([orderNo]);
    const orders = await s.sandbox.management.orders();
    expect(orders.map((o) => o.orderNo)).toEqual([orderNo]);
    expect(orders[0]!.refund ?? null).toBeNull();
    expect([3, 4]).not.toContain(orders[0]!.orderStatus);
  }

  /** Back on the right key or URL: an up records it and buys nothing, refresh keeps the order, destroy refunds it. */
  async function recoverAndDestroy(s: Scenario, orderNo: string): Promise<void> {
    expect(await s.run(["up", "--yes"])).not.toMatch(/bought/);
    await s.run(["refresh", "--yes"]);
    await expectKept(s, orderNo);
    await s.run(["destroy", "--yes"]);
    expect(await ordersInState(s)).toEqual([]);
    await expectRefunded(s, orderNo);
    expect(await countOf(s, "CreateOrder")).toBe(0);
  }

  it("another account's key (recorded by an up): refresh fails naming both app ids, the order stays, the next up buys nothing; the right key destroys with a refund", async () => {
    const s = await scenario("other-key.plugin.e2e.example.com");
    await s.run(["up", "--yes"]);
    const orderNo = await orderNoOf(s);
    const mine = appIdOf(s.sandbox.apiKey);
    const other = await s.sandbox.management.createAccount({ username: "second-account", balance: 1000 });
    const theirs = appIdOf(other.apiKey);
    expect(theirs).toMatch(/^ak_/);
    expect(theirs).not.toBe(mine);

    // The other key, recorded by an up (a key change is no replacement: nothing bought).
    await s.sandbox.management.clearRequests();
    await s.run(["config", "set", "--secret", "certreseller:apiKey"], other.apiKey);
    await s.run(["up", "--yes"]);
    expect(await countOf(s, "CreateOrder")).toBe(0);

    const refresh = await failureOf(s.run(["refresh", "--yes"]));
    expect(refresh).toContain(orderNo);
    expect(refresh).toContain(mine);
    expect(refresh).toContain(theirs);
    expect(refresh).toMatch(/pulumi config set --secret certreseller:apiKey/);
    expect(refresh).not.toContain(secretOf(other.apiKey));
    expect(refresh).not.toContain(secretOf(s.sandbox.apiKey));
    await expectKept(s, orderNo);

    const again = await s.run(["up", "--yes"]);
    expect(again).not.toMatch(/bought/);
    expect(await countOf(s, "CreateOrder")).toBe(0);
    await expectKept(s, orderNo);

    // destroy under the other key: nothing cancelled, nothing released.
    const destroy = await failureOf(s.run(["destroy", "--yes"]));
    expect(destroy).toMatch(/Nothing was cancelled or released/);
    expect(await countOf(s, "CancelOrder")).toBe(0);
    await expectKept(s, orderNo);

    // The documented way back: the right key, an up to record it; refresh and destroy then work.
    await s.run(["config", "set", "--secret", "certreseller:apiKey"], s.sandbox.apiKey);
    await recoverAndDestroy(s, orderNo);
  });

  it("a proxy's HTML 404 page as base URL (recorded by an up): refresh fails keeping the order, destroy cancels nothing; the right URL destroys with a refund", async () => {
    const s = await scenario("html-404.plugin.e2e.example.com");
    const proxy = await startHtml404();
    cleanups.push(() => proxy.stop());
    await s.run(["up", "--yes"]);
    const orderNo = await orderNoOf(s);

    await s.sandbox.management.clearRequests();
    await s.run(["config", "set", "certreseller:baseUrl", proxy.url]);
    const up = await s.run(["up", "--yes"]); // the catalogue cannot be read: a warning, no resource changes
    expect(up).toMatch(/could not read the product list/);
    await expectKept(s, orderNo);

    proxy.hits.length = 0;
    const refresh = await failureOf(s.run(["refresh", "--yes"]));
    expect(proxy.hits.some((hit) => hit.includes("GetRecord"))).toBe(true);
    expect(refresh).toContain(orderNo);
    expect(refresh).toMatch(/http_error/);
    expect(refresh).toMatch(/kept in state/);
    await expectKept(s, orderNo);

    const destroy = await failureOf(s.run(["destroy", "--yes"]));
    expect(destroy).toContain(orderNo);
    expect(destroy).toMatch(/nothing was cancelled, run again/);
    await expectKept(s, orderNo);

    // Nothing reached the sandbox while the proxy was the base URL: no purchase, no cancel.
    expect(await s.sandbox.management.operationCounts()).toEqual({});

    await s.run(["config", "set", "certreseller:baseUrl", s.sandbox.url]);
    await recoverAndDestroy(s, orderNo);
  });

  it("a replacement (new domain) buys the new order before it cancels the old one, which is refunded; destroy refunds the new one", async () => {
    const s = await scenario("before.replace.plugin.e2e.example.com");
    await s.run(["up", "--yes"]);
    const oldNo = await orderNoOf(s);

    await s.sandbox.management.clearRequests();
    await s.run(["config", "set", "domain", "after.replace.plugin.e2e.example.com"]);
    const up = await s.run(["up", "--yes"]);
    expect(up).toMatch(/replaced/);
    const newNo = await orderNoOf(s);
    expect(newNo).not.toBe(oldNo);
    expect(await ordersInState(s)).toEqual([newNo]);

    // The request log, in the order the sandbox took the calls: the purchase first, then the old order's cancel.
    const log = await s.sandbox.management.requests();
    const creates = log.flatMap((r, i) => (r.operation === "CreateOrder" ? [{ ...r, i }] : []));
    const cancels = log.flatMap((r, i) => (r.operation === "CancelOrder" ? [{ ...r, i }] : []));
    expect(creates).toHaveLength(1);
    expect(creates[0]!.code).toBe(200);
    expect(cancels.map((r) => r.orderNo)).toEqual([oldNo]);
    expect(creates[0]!.i).toBeLessThan(cancels[0]!.i);
    expect(Date.parse(creates[0]!.at)).toBeLessThanOrEqual(Date.parse(cancels[0]!.at));
    await expectRefunded(s, oldNo);
    expect((await s.sandbox.management.order(newNo)).refund ?? null).toBeNull();

    await s.run(["destroy", "--yes"]);
    expect(await ordersInState(s)).toEqual([]);
    await expectRefunded(s, newNo);
    expect((await s.sandbox.management.orders()).map((o) => o.orderNo).sort()).toEqual([oldNo, newNo].sort());
  });
});
