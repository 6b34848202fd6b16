// A corpus of invalid Orders. Each must fail at PREVIEW (the provider's
// `check`), with a message naming the property at fault, and no order may be
// created at any point: the sandbox sees no CreateOrder at all.
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CASES, d, IPV4 } from "./bad-input-corpus.js";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { createWorld, failureOf, openStack, type E2eWorld } from "./harness/stack.js";
import { COMPANY, ordersProgram, type OrderArgs } from "./programs.js";

describe("bad input fails at preview, naming the property, buying nothing", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    world = createWorld(sandbox);
    stack = await openStack(world, "bad-input", ordersProgram({}));
  });

  afterAll(async () => {
    await sandbox?.stop();
    world?.dispose();
  });

  it("has a corpus of at least 40 programs", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(CASES)("$title → $property", async ({ order, property }) => {
    const message = await failureOf(stack.preview({ program: ordersProgram({ bad: order }) }));
    // The engine prints a check failure as "property <name> value {...} has a problem: <reason>".
    const escaped = property.replace(/\./g, "\\.");
    expect(message).toMatch(new RegExp(`property ${escaped} value \\{[\\s\\S]*?\\} has a problem`));
  });

  it("created no order and sent no CreateOrder through the whole corpus", async () => {
    expect(await sandbox.management.orders()).toHaveLength(0);
    const counts = await sandbox.management.operationCounts();
    expect(counts.CreateOrder ?? 0).toBe(0);
  });
});

// Which methods a product offers is not in the product list the specification
// describes, so the provider cannot judge it at preview (the method was checked
// against invented product data before). The service judges it at CreateOrder,
// before it charges: `up` fails naming the method, and nothing is bought.
const UNOFFERED_METHODS: Array<{ title: string; order: OrderArgs; method: string }> = [
  { title: "DNS validation of an IPv4 address", method: "dns", order: { productCode: "sandbox-dv-ip", domain: IPV4, verificationMethod: "dns" } },
  { title: "e-mail validation of an EV product", method: "email-admin", order: { productCode: "sandbox-ev-single", domain: d, verificationMethod: "email-admin", companyInfo: COMPANY } },
];

describe("a method the product does not offer passes preview and is refused at CreateOrder, before any charge", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;
  let balance: string;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    world = createWorld(sandbox);
    stack = await openStack(world, "bad-method", ordersProgram({}));
    balance = String((await sandbox.management.account(sandbox.username)).balance);
  });

  afterAll(async () => {
    await sandbox?.stop();
    world?.dispose();
  });

  it.each(UNOFFERED_METHODS)("$title", async ({ order, method }) => {
    await stack.preview({ program: ordersProgram({ bad: order }) });
    const message = await failureOf(stack.up({ program: ordersProgram({ bad: order }) }));
    expect(message).toContain("CreateOrder");
    expect(message).toContain(method);
    expect(message).toContain(String(order.productCode));
    expect(await sandbox.management.orders()).toHaveLength(0);
    expect(String((await sandbox.management.account(sandbox.username)).balance)).toBe(balance);
  });
});
