// Switching the verification method of a pending order is an in-place update
// (ChangeVertificationMethod, no purchase); the Validation's records and the
// DNS-record resources built from them follow.
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { createWorld, openStack, recorder, type E2eWorld } from "./harness/stack.js";
import { changedSteps } from "./harness/steps.js";
import { certificateProgram, type OrderArgs } from "./programs.js";

const domain = "switch.e2e.example.com";
const names = [domain, `www.${domain}`];
const order: OrderArgs = { productCode: "sandbox-dv-multi", domain, sanDomains: [`www.${domain}`], verificationMethod: "dns" };

interface PublishedRecord {
  fqdn: string;
  type: string;
  value: string;
}

describe("verification method switch", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;

  const program = (method: "dns" | "cname") =>
    certificateProgram({ order: { ...order, verificationMethod: method }, issue: false, managementUrl: sandbox.managementUrl });
  const published = async (): Promise<PublishedRecord[]> =>
    (await sandbox.management.call<PublishedRecord[]>("GET", "/dns-records")).filter((r) => names.some((n) => r.fqdn.endsWith(n)));

  beforeAll(async () => {
    // Issuance held back: the method can only change while validation is pending.
    sandbox = await startTestSandbox({ issueAfterSeconds: 86_400, methodCooldownSeconds: 0 });
    world = createWorld(sandbox);
    stack = await openStack(world, "method-switch", program("dns"));
    const up = await stack.up();
    expect(up.outputs.method?.value).toBe("dns");
    expect((await published()).map((r) => r.type).sort()).toEqual(["TXT", "TXT"]);
  });

  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await sandbox?.stop();
    world?.dispose();
  });

  it("previews the switch as an in-place update of the Order", async () => {
    const t = recorder();
    await stack.preview({ program: program("cname"), onEvent: t.onEvent, onOutput: t.onOutput });
    expect(changedSteps(t.events)["Order:site"], t.output).toBe("update");
  });

  it("up switches through ChangeVertificationMethod; records and DNS resources follow; nothing is bought", async () => {
    await sandbox.management.clearRequests();
    const up = await stack.up({ program: program("cname") });
    const counts = await sandbox.management.operationCounts();
    expect(counts.ChangeVertificationMethod).toBe(1);
    expect(counts.CreateOrder ?? 0).toBe(0);
    expect(await sandbox.management.orders()).toHaveLength(1);

    expect(up.outputs.method?.value).toBe("cname");
    const records = up.outputs.records?.value as Array<{ domain: string; recordType: string; value: string }>;
    expect(records.map((r) => r.recordType)).toEqual(["CNAME", "CNAME"]);
    const now = await published();
    expect(now.map((r) => r.type).sort()).toEqual(["CNAME", "CNAME"]);
    expect(now.map((r) => r.value).sort()).toEqual(records.map((r) => r.value).sort());
  });
});
