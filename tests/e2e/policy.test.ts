// The policy pack in policy/ run by the engine at preview: each mandatory
// guardrail fails the preview of a program that breaks it, a compliant
// program passes, and nothing is bought either way.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/engine/index.js";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { createWorld, failureOf, openStack, recorder, type E2eWorld } from "./harness/stack.js";
import { COMPANY, ordersProgram, type OrderArgs } from "./programs.js";

const POLICY_DIR = path.join(repoRoot, "policy");
// The guardrails that are off by default, switched on as a team would.
const POLICY_CONFIG = {
  "certreseller-allowed-products": { allowedProductCodes: ["sandbox-*"] },
  "certreseller-domain-allow-list": { allowedSuffixes: ["e2e.example.com"] },
  "certreseller-wildcards": { allowWildcards: false },
};

const ok: OrderArgs = { productCode: "sandbox-dv-single", domain: "ok.e2e.example.com", verificationMethod: "dns", months: 12 };

const VIOLATIONS: Array<{ policy: string; orders: Record<string, OrderArgs> }> = [
  { policy: "certreseller-allowed-products", orders: { site: { ...ok, productCode: "example-dv-single" } } },
  { policy: "certreseller-max-term", orders: { site: { ...ok, months: 24 } } },
  {
    policy: "certreseller-max-order-price",
    orders: { site: { productCode: "sandbox-ev-multi", domain: "ev.e2e.example.com", sanDomains: ["www.ev.e2e.example.com"], verificationMethod: "dns", companyInfo: COMPANY } },
  },
  {
    // Nine OV orders of 600 each: every one under the per-order cap, 5400 together over the stack's 5000.
    policy: "certreseller-max-stack-price",
    orders: Object.fromEntries(
      Array.from({ length: 9 }, (_, i) => [`ov${i}`, { productCode: "sandbox-ov-single", domain: `ov${i}.e2e.example.com`, verificationMethod: "dns", companyInfo: COMPANY } as OrderArgs]),
    ),
  },
  { policy: "certreseller-allowed-validation-methods", orders: { site: { ...ok, verificationMethod: "email-admin" } } },
  { policy: "certreseller-domain-allow-list", orders: { site: { ...ok, domain: "shop.example.org" } } },
  { policy: "certreseller-wildcards", orders: { site: { ...ok, productCode: "sandbox-dv-wildcard", domain: "*.w.e2e.example.com" } } },
];

describe("policy pack certreseller-guardrails through the engine", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;
  let configFile: string;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    world = createWorld(sandbox);
    stack = await openStack(world, "policy", ordersProgram({ site: ok }));
    configFile = path.join(world.environment.homeDir, "guardrails.json");
    fs.writeFileSync(configFile, JSON.stringify(POLICY_CONFIG));
  });

  afterAll(async () => {
    await sandbox?.stop();
    world?.dispose();
  });

  const previewWithPolicies = (orders: Record<string, OrderArgs>, onOutput?: (s: string) => void) =>
    stack.preview({ program: ordersProgram(orders), policyPacks: [POLICY_DIR], policyPackConfigs: [configFile], onOutput });

  it("passes a compliant program", async () => {
    const t = recorder();
    await previewWithPolicies({ site: ok }, t.onOutput);
    expect(t.output).toContain("certreseller-guardrails");
  });

  it.each(VIOLATIONS)("fails the preview on $policy", async ({ policy, orders }) => {
    const message = await failureOf(previewWithPolicies(orders));
    expect(message).toContain(policy);
    expect(message).toMatch(/mandatory/);
  });

  it("bought nothing", async () => {
    expect(await sandbox.management.orders()).toHaveLength(0);
  });
});
