// Renewal: once the sandbox clock is inside an Order's renewBeforeDays window,
// preview shows the Order's replacement (a new purchase) with the reason, and
// spends nothing. The provider takes "now" from CERTRESELLER_NOW (docs/order.md,
// "Renewal"), set here to the sandbox's clock, so service and provider agree.
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { createWorld, openStack, recorder, type E2eWorld } from "./harness/stack.js";
import { changedSteps } from "./harness/steps.js";
import { ordersProgram, type OrderArgs } from "./programs.js";

const order: OrderArgs = { productCode: "sandbox-dv-single", domain: "renew.e2e.example.com", verificationMethod: "dns", months: 12, renewBeforeDays: 30 };

describe("renewal", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    world = createWorld(sandbox);
    stack = await openStack(world, "renewal", ordersProgram({ site: order }));
    await stack.up();
  });

  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await sandbox?.stop();
    world?.dispose();
  });

  async function previewAtSandboxTime() {
    const { now } = await sandbox.management.clock();
    stack.workspace.envVars.CERTRESELLER_NOW = now;
    const t = recorder();
    await stack.preview({ diff: true, onEvent: t.onEvent, onOutput: t.onOutput, onError: t.onError });
    return t;
  }

  it("previews no change while the term is outside the window", async () => {
    await sandbox.management.advanceClock(300 * 86_400);
    const t = await previewAtSandboxTime();
    expect(changedSteps(t.events), t.output).toEqual({});
  });

  it("previews the Order's replacement with its reason once the clock is inside the window", async () => {
    await sandbox.management.advanceClock(40 * 86_400); // 340 days after purchase: 25 days before the term ends
    const ordersBefore = (await sandbox.management.orders()).length;
    const t = await previewAtSandboxTime();
    expect(changedSteps(t.events), t.output).toEqual({ "Order:site": "replace" });
    expect(t.output).toMatch(/renewal due/i);
    expect(t.output).toContain("renewBeforeDays");
    expect(await sandbox.management.orders()).toHaveLength(ordersBefore);
  });
});
