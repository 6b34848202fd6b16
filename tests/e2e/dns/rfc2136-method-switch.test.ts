// A method switch with real DNS: the order validates with dns, its records
// published into BIND with Rfc2136Record; switching to cname
// (ChangeVertificationMethod, no purchase) gives new records, and the
// Rfc2136Records follow in BIND — each TXT replaced by its CNAME (another
// name and type: a new record, the old one deleted). Then the Certificate
// issues because the CA finds the CNAMEs in BIND.
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startBind, type RunningBind } from "../../../scripts/dns/index.js";
import { opensslVerify } from "../../support/openssl.js";
import { startTestSandbox, type TestSandbox } from "../harness/sandbox.js";
import { createWorld, openStack, recorder, type E2eWorld } from "../harness/stack.js";
import { changedSteps } from "../harness/steps.js";
import { dnsTarget, rfc2136Program, tsigConfig } from "./programs.js";
import { closeScenario } from "./programs.js";
import { dnsReader, type DnsReader } from "./lookup.js";
import { skipWithout } from "../../support/ci.js";

const NAMES = ["switch.e2e.test", "www.switch.e2e.test"];

interface ValidationRecordView {
  fqdn: string;
  recordType: string;
  value: string;
}

describe.skipIf(skipWithout(inject("bind") ? undefined : "no BIND 9 (see the e2e setup's [bind] lines)"))("method switch with the records in BIND", () => {
  let bind: RunningBind;
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;
  let dns: DnsReader;
  let dnsRecords: ValidationRecordView[];

  const program = (method: "dns" | "cname", issue: boolean) => rfc2136Program({ names: NAMES, method, target: dnsTarget(bind), issue });
  const txt = (name: string) => dns.txt(name);
  const cname = (name: string) => dns.cname(name);

  beforeAll(async () => {
    bind = await startBind({ zones: ["e2e.test."] });
    // Real validation runs only when the status is read, which only the Certificate does:
    // without it the order stays pending, so its method can still change.
    sandbox = await startTestSandbox({ validation: "real", methodCooldownSeconds: 0 }, { resolver: bind.address });
    world = createWorld(sandbox);
    stack = await openStack(world, "rfc2136-method-switch", program("dns", false), "e2e", tsigConfig(bind));
    dns = dnsReader(bind.address);
    const up = await stack.up();
    dnsRecords = up.outputs.records?.value as ValidationRecordView[];
    expect(dnsRecords.map((r) => r.recordType)).toEqual(["TXT", "TXT"]);
    for (const r of dnsRecords) expect(await txt(r.fqdn)).toEqual([r.value]);
  });

  afterAll(() => closeScenario({ stack, sandbox, world, bind }));

  it("dns → cname: the Order updates in place, each Rfc2136Record is replaced, BIND holds the CNAMEs and no longer the TXTs", async () => {
    await sandbox.management.clearRequests();
    const t = recorder();
    const up = await stack.up({ program: program("cname", false), onEvent: t.onEvent, onOutput: t.onOutput });
    const steps = changedSteps(t.events);
    expect(steps["Order:site"], t.output).toBe("update");
    for (const name of NAMES) expect(steps[`Rfc2136Record:dcv-${name}`], t.output).toBe("replace");
    const counts = await sandbox.management.operationCounts();
    expect(counts.ChangeVertificationMethod).toBe(1);
    expect(counts.CreateOrder ?? 0).toBe(0);

    const records = up.outputs.records?.value as ValidationRecordView[];
    expect(records.map((r) => r.recordType)).toEqual(["CNAME", "CNAME"]);
    for (const r of records) expect(await cname(r.fqdn)).toEqual([r.value]);
    for (const r of dnsRecords) expect(await txt(r.fqdn)).toEqual([]);
    expect(bind.log().match(/adding an RR at '_[0-9a-f]{32}\.[a-z.]*switch\.e2e\.test' CNAME/g)).toHaveLength(2);
    expect(bind.log().match(/deleting an RR at _dnsauth\.[a-z.]*switch\.e2e\.test TXT/g)).toHaveLength(2);
  });

  it("the Certificate then issues because the CA finds the CNAMEs in BIND; still one purchase", async () => {
    const up = await stack.up({ program: program("cname", true) });
    expect(opensslVerify(String(up.outputs.fullChainPem?.value), await sandbox.management.rootPem())).toMatch(/leaf\.pem: OK/);
    const [order] = await sandbox.management.orders();
    const certificates = order!.certificates as Array<{ method: string; records: Array<{ verified: boolean }> }>;
    expect(certificates.at(-1)!.method).toBe("cname");
    expect(certificates.at(-1)!.records.every((r) => r.verified)).toBe(true);
    expect(await sandbox.management.orders()).toHaveLength(1);
  });

  it("destroy deletes the CNAMEs from BIND", async () => {
    const records = (await stack.outputs()).records?.value as ValidationRecordView[];
    await stack.destroy();
    for (const r of records) expect(await cname(r.fqdn)).toEqual([]);
  });
});
