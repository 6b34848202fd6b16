// CAA is checked before every CreateOrder, not only at a preview that sees a
// changed input: a renewal replacement (the clock inside renewBeforeDays) and
// `--replace` buy with unchanged inputs. Through the real engine, with BIND
// serving a zone whose CAA stops naming the sandbox's CA after the first
// purchase: the replacement buys nothing (no second CreateOrder), fails
// naming the name, the records and the input, and the old order stays in
// state. (The engine re-checks a replacement's inputs without the old ones,
// so the provider's check may be the one refusing; create's own check
// covers what check could not see, e.g. a product list unread at preview.)
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startZoneServer, type ZoneServer } from "../../support/zone-server.js";
import type { TestSandbox } from "../harness/sandbox.js";
import { closeSandboxWorld, failureOf, openStack, startSandboxWorld, type E2eWorld } from "../harness/stack.js";
import { ordersProgram, type OrderArgs } from "../programs.js";
import { skipWithout } from "../../support/ci.js";

const REFUSING = ['@ CAA 0 issue "letsencrypt.org"'];

describe.skipIf(skipWithout(inject("bind") ? undefined : "no BIND 9 (see the e2e setup's [bind] lines)"))("CAA before every purchase: replacements with unchanged inputs (BIND in the loop)", () => {
  let dns: ZoneServer;
  let sandbox: TestSandbox;
  let world: E2eWorld;
  const stacks: Stack[] = [];

  beforeAll(async () => {
    dns = await startZoneServer({ "renew.test": ["www A 192.0.2.30"], "replace.test": ["www A 192.0.2.31"], "outage.test": ["www A 192.0.2.32", ...REFUSING] });
    ({ sandbox, world } = await startSandboxWorld());
  });
  afterAll(async () => {
    await closeSandboxWorld({ sandbox, world }, stacks);
    await dns?.stop();
  });

  async function open(name: string, order: OrderArgs): Promise<{ stack: Stack; orderNo: string; urn: string }> {
    const stack = await openStack(world, name, ordersProgram({ site: order }), "e2e", { "certreseller:dnsResolvers": { value: dns.address } });
    stacks.push(stack);
    const up = await stack.up();
    return { stack, orderNo: String(up.outputs.siteOrderNo?.value), urn: (await heldOrder(stack)).urn };
  }
  async function heldOrder(stack: Stack): Promise<{ urn: string; id?: string }> {
    const state = (await stack.exportStack()).deployment as { resources: Array<{ type: string; urn: string; id?: string }> };
    return state.resources.find((r) => r.type.endsWith(":Order"))!;
  }
  /** The refusal, CreateOrder never sent, the old order the only one and still in state. */
  async function expectRefusedKeepingOld(stack: Stack, message: string, name: string, orderNo: string, ordersBefore: number) {
    const line = message.split("\n").find((l) => l.includes(`${name}: CAA at`));
    console.log(`[up] ${line?.trim()}`);
    // The engine checks a replacement's inputs afresh (no old inputs), so the preview-time check may refuse first; create refuses otherwise.
    expect(message).toContain(`${name}: CAA at ${name.split(".").slice(1).join(".")} allows only letsencrypt.org (0 issue "letsencrypt.org")`);
    expect(message).toMatch(/property domain value \{[^}]+\} has a problem|domain: www\./);
    expect((await sandbox.management.requests()).map((r) => r.operation)).not.toContain("CreateOrder");
    expect(await sandbox.management.orders()).toHaveLength(ordersBefore);
    expect((await heldOrder(stack)).id).toBe(orderNo);
  }

  it("--replace of an Order whose zone's CAA no longer names the CA: nothing bought, the old order kept", async () => {
    const { stack, orderNo, urn } = await open("caa-replace", { productCode: "sandbox-dv-single", domain: "www.replace.test", verificationMethod: "dns" });
    // A preview first: its diff sees the order in state and tidies the purchase journal (see the report on --replace right after a create).
    await stack.preview();
    await dns.setZone("replace.test", ["www A 192.0.2.31", ...REFUSING]);
    const ordersBefore = (await sandbox.management.orders()).length;
    await sandbox.management.clearRequests();
    const message = await failureOf(stack.up({ replace: [urn] }));
    await expectRefusedKeepingOld(stack, message, "www.replace.test", orderNo, ordersBefore);
  });

  it("the product list unreadable while the engine checks the inputs, readable when create prices the purchase: create refuses, nothing bought", async () => {
    const stack = await openStack(world, "caa-outage", ordersProgram({ site: { productCode: "sandbox-dv-single", domain: "www.outage.test", verificationMethod: "dns" } }), "e2e", {
      "certreseller:dnsResolvers": { value: dns.address },
    });
    stacks.push(stack);
    const ordersBefore = (await sandbox.management.orders()).length;
    await sandbox.management.clearRequests();
    // Every attempt of the check's read fails (the client tries 4 times); create's own read then answers.
    await sandbox.management.setFaults({ GetUserProduct: { errorRate: 1, errorCode: 500, times: 4 } });
    try {
      const message = await failureOf(stack.up());
      expect(message).toMatch(/could not read the product list/);
      expect(message).toContain("nothing was bought: the CAA records of a name refuse the product's CA, checked before CreateOrder:");
      expect(message).toContain('domain: www.outage.test: CAA at outage.test allows only letsencrypt.org (0 issue "letsencrypt.org")');
      expect((await sandbox.management.requests()).map((r) => r.operation)).not.toContain("CreateOrder");
      expect(await sandbox.management.orders()).toHaveLength(ordersBefore);
    } finally {
      await sandbox.management.clearFaults();
    }
  });

  it("a renewal replacement inside renewBeforeDays, CAA changed since the first purchase: nothing bought, the old order kept", async () => {
    const order: OrderArgs = { productCode: "sandbox-dv-single", domain: "www.renew.test", verificationMethod: "dns", months: 12, renewBeforeDays: 30 };
    const { stack, orderNo } = await open("caa-renewal", order);
    await dns.setZone("renew.test", ["www A 192.0.2.30", ...REFUSING]);
    await sandbox.management.advanceClock(340 * 86_400); // 25 days before the term ends
    stack.workspace.envVars.CERTRESELLER_NOW = (await sandbox.management.clock()).now;
    const ordersBefore = (await sandbox.management.orders()).length;
    await sandbox.management.clearRequests();
    const message = await failureOf(stack.up());
    expect(message).toMatch(/renewal due|renewBeforeDays/i);
    await expectRefusedKeepingOld(stack, message, "www.renew.test", orderNo, ordersBefore);
  });
});
