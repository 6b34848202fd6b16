// A CreateOrder whose answer was lost, then the program edited before the
// next `up`: the stop must name the purchase that was sent (the journal's
// names, product, time and account), not the edited inputs, and say they
// differ — the user looks for the order that may exist, not for one that
// cannot. Nothing is bought for the new inputs until the first is settled.
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSandbox } from "./harness/sandbox.js";
import { closeSandboxWorld, failureOf, openStack, startSandboxWorld, type E2eWorld } from "./harness/stack.js";
import { ordersProgram, type OrderArgs } from "./programs.js";

describe("a lost CreateOrder answer, then an edited program", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack | undefined;

  beforeAll(async () => void ({ sandbox, world } = await startSandboxWorld()));
  afterAll(() => closeSandboxWorld({ sandbox, world }, [stack]));

  const ordersOf = async (domain: string) => (await sandbox.management.orders()).filter((o) => (o.domains as string[] | undefined)?.includes(domain)).map((o) => o.orderNo);

  it("the second up names old… and its product, says the inputs differ, and buys nothing", async () => {
    const [oldDomain, newDomain] = ["old.edited.e2e.example.com", "new.edited.e2e.example.com"];
    const old: OrderArgs = { productCode: "sandbox-dv-single", domain: oldDomain, verificationMethod: "dns" };
    stack = await openStack(world, "lost-then-edited", ordersProgram({ site: old }));
    await sandbox.management.setFaults({ CreateOrder: { commitThenFail: "drop", times: 1 } });
    expect(await failureOf(stack.up())).toMatch(/MAY have been charged/);
    const bought = await ordersOf(oldDomain);
    expect(bought).toHaveLength(1);

    // The user, finding nothing in state, changes the domain and runs up again.
    const renamed: OrderArgs = { ...old, domain: newDomain };
    await sandbox.management.clearRequests();
    const second = await failureOf(stack.up({ program: ordersProgram({ site: renamed }) }));
    const stop = [...new Set(second.split("\n").filter((line) => /^\s*(error: certreseller|NOTE:|Check your reseller)/.test(line)))];
    console.log(`[up] ${stop.map((l) => l.trim()).join("\n     ")}`);
    expect(second).toMatch(/a CreateOrder for old\.edited\.e2e\.example\.com \(sandbox-dv-single\) was sent at \S+ by the account with app id \S+ and its answer was lost/);
    expect(second).toMatch(/this Order's purchase inputs changed since that CreateOrder \(changed: domain; now: new\.edited\.e2e\.example\.com \(sandbox-dv-single\)\)/);
    expect(second).toContain("for an order of old.edited.e2e.example.com (sandbox-dv-single) placed around");
    expect(second).not.toMatch(/(CreateOrder for|order of) new\.edited/);
    expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
    expect(await ordersOf(newDomain)).toEqual([]);

    // The way the message gives: keep the order with the inputs it was bought with. Still one order.
    const up = await stack.up({ program: ordersProgram({ site: { ...old, adoptOrderNo: bought[0]! } }) });
    expect(up.outputs.siteOrderNo?.value).toBe(bought[0]);
    expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
    expect(await ordersOf(oldDomain)).toEqual(bought);
  });
});
