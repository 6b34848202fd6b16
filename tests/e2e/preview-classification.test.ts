// Table-driven over every Order input: each change previews as exactly the
// documented replace (a new purchase) or in-place update, a SAN reorder as no
// change, and previews never spend (balance and order count unchanged).
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { opensslCsr } from "../support/openssl.js";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { createWorld, openStack, recorder, type E2eWorld } from "./harness/stack.js";
import { changedSteps } from "./harness/steps.js";
import { COMPANY, ordersProgram, type OrderArgs } from "./programs.js";

const csrDomain = "csr.e2e.example.com";
const BASE: Record<string, OrderArgs> = {
  flex: {
    productCode: "sandbox-dv-flex",
    domain: "flex.e2e.example.com",
    sanDomains: ["a.flex.e2e.example.com", "b.flex.e2e.example.com"],
    wildcardDomains: ["*.w.e2e.example.com"],
    months: 12,
    verificationMethod: "dns",
    signatureAlgorithm: "rsa",
    keySpec: "rsa-2048",
    hashAlgorithm: "sha256",
    paymentMethod: "balance",
    renewBeforeDays: 30,
  },
  single: { productCode: "sandbox-dv-single", domain: "single.e2e.example.com", verificationMethod: "dns" },
  mail: { productCode: "sandbox-dv-single", domain: "mail.e2e.example.com", verificationMethod: "email-admin" },
  ov: { productCode: "sandbox-ov-single", domain: "ov.e2e.example.com", verificationMethod: "dns", companyInfo: COMPANY },
  csr: { productCode: "sandbox-dv-single", domain: csrDomain, verificationMethod: "dns", customCsr: opensslCsr({ cn: csrDomain, sans: [csrDomain] }) },
};

type Expected = "replace" | "update" | "none";
interface Row {
  input: string;
  order: keyof typeof BASE;
  change: Partial<OrderArgs>;
  expected: Expected;
}

const ROWS: Row[] = [
  { input: "productCode", order: "single", change: { productCode: "example-dv-single" }, expected: "replace" },
  { input: "domain", order: "single", change: { domain: "other.e2e.example.com" }, expected: "replace" },
  { input: "sanDomains (added)", order: "flex", change: { sanDomains: ["a.flex.e2e.example.com", "b.flex.e2e.example.com", "c.flex.e2e.example.com"] }, expected: "replace" },
  { input: "sanDomains (removed)", order: "flex", change: { sanDomains: ["a.flex.e2e.example.com"] }, expected: "replace" },
  { input: "sanDomains (reordered)", order: "flex", change: { sanDomains: ["b.flex.e2e.example.com", "a.flex.e2e.example.com"] }, expected: "none" },
  { input: "wildcardDomains", order: "flex", change: { wildcardDomains: ["*.v.e2e.example.com"] }, expected: "replace" },
  { input: "months", order: "flex", change: { months: 24 }, expected: "replace" },
  { input: "years", order: "single", change: { years: 2 }, expected: "replace" },
  { input: "verificationMethod", order: "flex", change: { verificationMethod: "cname" }, expected: "update" },
  // The mailbox is part of the method code now (email-admin → email-hostmaster), no separate input.
  { input: "verificationMethod (another mailbox)", order: "mail", change: { verificationMethod: "email-hostmaster" }, expected: "update" },
  { input: "signatureAlgorithm", order: "flex", change: { signatureAlgorithm: "ecc", keySpec: "p-256" }, expected: "replace" },
  { input: "keySpec", order: "flex", change: { keySpec: "rsa-3072" }, expected: "replace" },
  { input: "hashAlgorithm", order: "flex", change: { hashAlgorithm: "sha384" }, expected: "replace" },
  { input: "paymentMethod", order: "flex", change: { paymentMethod: "credit" }, expected: "replace" },
  { input: "companyInfo", order: "ov", change: { companyInfo: { ...COMPANY, city: "Potsdam", province: "Brandenburg" } }, expected: "replace" },
  { input: "customCsr", order: "csr", change: { customCsr: opensslCsr({ cn: csrDomain, sans: [csrDomain] }) }, expected: "replace" },
  { input: "couponCode", order: "single", change: { couponCode: "WELCOME10" }, expected: "replace" },
  { input: "renewBeforeDays (outside the window)", order: "flex", change: { renewBeforeDays: 45 }, expected: "none" },
];

describe("preview classification of Order input changes", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;
  let balanceAfterUp: string;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    world = createWorld(sandbox);
    stack = await openStack(world, "classification", ordersProgram(BASE));
    await stack.up();
    expect(await sandbox.management.orders()).toHaveLength(Object.keys(BASE).length);
    balanceAfterUp = String((await sandbox.management.account(sandbox.username)).balance);
  });

  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await sandbox?.stop();
    world?.dispose();
  });

  it("lists every replace and update input of the resource", () => {
    const covered = new Set(ROWS.map((r) => r.input.split(" ")[0]));
    for (const input of ["productCode", "domain", "sanDomains", "wildcardDomains", "months", "signatureAlgorithm", "keySpec", "hashAlgorithm", "paymentMethod", "companyInfo", "customCsr", "couponCode", "verificationMethod", "years"]) {
      expect(covered.has(input), input).toBe(true);
    }
  });

  it.each(ROWS)("$input on the $order order previews as $expected", async (row) => {
    const program = ordersProgram({ ...BASE, [row.order]: { ...BASE[row.order], ...row.change } as OrderArgs });
    const t = recorder();
    await stack.preview({ program, diff: true, onEvent: t.onEvent, onOutput: t.onOutput });
    const expected = row.expected === "none" ? {} : { [`Order:${row.order}`]: row.expected };
    expect(changedSteps(t.events), t.output).toEqual(expected);
  });

  it("spent nothing during all those previews", async () => {
    expect(await sandbox.management.orders()).toHaveLength(Object.keys(BASE).length);
    expect(String((await sandbox.management.account(sandbox.username)).balance)).toBe(balanceAfterUp);
  });
});
