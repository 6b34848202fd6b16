// `pulumi up --replace` right after the up that bought the Order: a targeted
// replacement calls no diff first, so the purchase journal still holds the
// order and the replacement's create resumes it. The replaced resource's
// delete must then leave it alone: cancelling it would revoke the
// certificate in use and leave the stack holding a cancelled order.
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSandbox } from "./harness/sandbox.js";
import { closeSandboxWorld, openStack, recorder, startSandboxWorld, type E2eWorld } from "./harness/stack.js";
import { ordersProgram } from "./programs.js";

describe("--replace right after the create that bought the order", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack | undefined;

  beforeAll(async () => void ({ sandbox, world } = await startSandboxWorld()));
  afterAll(() => closeSandboxWorld({ sandbox, world }, [stack]));

  it("keeps the order (not cancelled, still in state) and says so; replacing again buys a new one and refunds the old", async () => {
    const domain = "replace-after-create.e2e.example.com";
    stack = await openStack(world, "replace-after-create", ordersProgram({ site: { productCode: "sandbox-dv-single", domain, verificationMethod: "dns" } }));
    const first = String((await stack.up()).outputs.siteOrderNo?.value);
    const state = (await stack.exportStack()).deployment as { resources: Array<{ type: string; urn: string }> };
    const urn = state.resources.find((r) => r.type.endsWith(":Order"))!.urn;

    await sandbox.management.clearRequests();
    const t = recorder();
    const replaced = await stack.up({ replace: [urn], onOutput: t.onOutput });
    expect(replaced.outputs.siteOrderNo?.value).toBe(first);
    const counts = await sandbox.management.operationCounts();
    expect([counts.CreateOrder ?? 0, counts.CancelOrder ?? 0]).toEqual([0, 0]);
    // Still live: not revoking (4), revoked/refunded (5) or refunding (6).
    expect([4, 5, 6]).not.toContain((await sandbox.management.order(first)).certStatus);
    expect(t.output).toMatch(/is not cancelled: the purchase journal shows that a create of this resource resumed it/);

    await sandbox.management.clearRequests();
    const again = String((await stack.up({ replace: [urn] })).outputs.siteOrderNo?.value);
    expect(again).not.toBe(first);
    const after = await sandbox.management.operationCounts();
    expect([after.CreateOrder ?? 0, after.CancelOrder ?? 0]).toEqual([1, 1]);
  });
});
