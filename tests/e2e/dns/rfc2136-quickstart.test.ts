// The quickstart with real DNS in the loop: the sandbox validates for real
// (`validation: "real"`), asking a BIND 9 of its own, and the program
// publishes each validation record there with Rfc2136Record. First the order
// alone: the CA looks in BIND and finds nothing. Then the records: BIND logs
// the updates, the CA finds them and the certificate issues. One purchase in
// all, counted at the sandbox; the TSIG secret never in plaintext; destroy
// deletes the records from BIND and refunds. Then the same through
// ValidatedCertificate's `publish`.
import type { Stack } from "@pulumi/pulumi/automation";
import { PartnerClient } from "pulumi-certreseller";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startBind, type RunningBind } from "../../../scripts/dns/index.js";
import { opensslVerify, pemCertificates } from "../../support/openssl.js";
import { startTestSandbox, type TestSandbox } from "../harness/sandbox.js";
import { backendText, createWorld, openStack, recorder, type E2eWorld, type Transcript } from "../harness/stack.js";
import { dnsTarget, rfc2136Program, tsigConfig, validatedCertificateProgram } from "./programs.js";
import { closeScenario } from "./programs.js";
import { dnsReader, type DnsReader } from "./lookup.js";
import { skipWithout } from "../../support/ci.js";

const NAMES = ["www.e2e.test", "api.e2e.test"];

describe.skipIf(skipWithout(inject("bind") ? undefined : "no BIND 9 (see the e2e setup's [bind] lines)"))("RFC 2136 quickstart: the CA validates against BIND", () => {
  let bind: RunningBind;
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;
  let dns: DnsReader;
  let startingBalance: number;
  let orderNo: string;
  /** What the order cost, as the sandbox charged it ("120.00"). */
  let paid: string;
  const transcripts: Transcript[] = [];

  const program = (stage: { publish: boolean; issue: boolean }) => rfc2136Program({ names: NAMES, method: "dns", target: dnsTarget(bind), ...stage });
  const txt = (name: string) => dns.txt(name);
  const balance = async () => Number((await sandbox.management.account(sandbox.username)).balance);
  const run = async <T>(op: (t: Transcript & ReturnType<typeof recorder>) => Promise<T>): Promise<T> => {
    const t = recorder();
    transcripts.push(t);
    return op(t);
  };

  beforeAll(async () => {
    bind = await startBind({ zones: ["e2e.test."] });
    console.log(`[bind] named started in ${bind.startupMs} ms on ${bind.address}`);
    sandbox = await startTestSandbox({ validation: "real" }, { resolver: bind.address });
    world = createWorld(sandbox);
    stack = await openStack(world, "rfc2136-quickstart", program({ publish: false, issue: false }), "e2e", tsigConfig(bind));
    dns = dnsReader(bind.address);
    startingBalance = await balance();
  });

  afterAll(() => closeScenario({ stack, sandbox, world, bind }));

  it("up with the order alone: bought once, and the CA finds no record in BIND", async () => {
    const up = await run((t) => stack.up({ onOutput: t.onOutput, onError: t.onError, onEvent: t.onEvent }));
    orderNo = String(up.outputs.orderNo?.value);
    const client = new PartnerClient({ apiKey: sandbox.apiKey, baseUrl: sandbox.url, allowInsecureHttp: true });
    try {
      const status = await client.getCertificateStatus({ orderNo });
      expect(status.allDcvVerified).toBe(false);
      expect(status.caStatusText).toMatch(/no TXT record at _dnsauth\.(www|api)\.e2e\.test/);
    } finally {
      await client.close();
    }
    expect(bind.log()).toBe("");
  });

  it("up with an Rfc2136Record per name: BIND logs the updates, the CA finds them, the certificate issues", async () => {
    const up = await run((t) => stack.up({ program: program({ publish: true, issue: true }), onOutput: t.onOutput, onError: t.onError, onEvent: t.onEvent }));
    expect(up.summary.result).toBe("succeeded");
    const records = up.outputs.records?.value as Array<{ domain: string; fqdn: string; recordType: string; value: string }>;
    expect(records.map((r) => [r.fqdn, r.recordType]).sort()).toEqual([
      ["_dnsauth.api.e2e.test", "TXT"],
      ["_dnsauth.www.e2e.test", "TXT"],
    ]);
    // What the CA saw is what BIND serves, and BIND says it took it from the key.
    for (const r of records) {
      expect(await txt(r.fqdn)).toEqual([r.value]);
      expect(bind.log()).toContain(`/key ${bind.keyName.replace(/\.$/, "")}: updating zone 'e2e.test/IN': adding an RR at '${r.fqdn}' TXT "${r.value}"`);
    }

    const fullChain = String(up.outputs.fullChainPem?.value ?? "");
    expect(opensslVerify(fullChain, await sandbox.management.rootPem())).toMatch(/leaf\.pem: OK/);
    const { X509Certificate } = await import("node:crypto");
    expect(new X509Certificate(pemCertificates(fullChain)[0]!).subjectAltName).toContain("DNS:www.e2e.test");

    // Issued because every record was verified by the real validator, at the sandbox's record.
    const [order] = await sandbox.management.orders();
    expect(order!.orderNo).toBe(orderNo);
    const certificates = order!.certificates as Array<{ status: string; records: Array<{ domain: string; verified: boolean }> }>;
    expect(certificates.at(-1)!.records.map((r) => [r.domain, r.verified]).sort()).toEqual([
      ["api.e2e.test", true],
      ["www.e2e.test", true],
    ]);
    const counts = await sandbox.management.operationCounts();
    expect(counts.CreateOrder).toBe(1);
    expect(await sandbox.management.orders()).toHaveLength(1);
    paid = String(order!.amount);
    expect(Number(paid)).toBeGreaterThan(0);
    expect(await balance()).toBeCloseTo(startingBalance - Number(paid), 2);
  });

  it("a second up changes nothing and sends BIND nothing", async () => {
    const before = bind.log();
    const again = await run((t) => stack.up({ program: program({ publish: true, issue: true }), onOutput: t.onOutput, onEvent: t.onEvent }));
    expect(Object.entries(again.summary.resourceChanges ?? {}).filter(([op, n]) => op !== "same" && n)).toEqual([]);
    expect(bind.log()).toBe(before);
  });

  it("keeps the TSIG secret out of the state files, the output and the event log", () => {
    const haystacks = {
      state: backendText(world),
      output: transcripts.map((t) => t.output).join("\n"),
      events: JSON.stringify(transcripts.flatMap((t) => t.events)),
    };
    for (const [where, text] of Object.entries(haystacks)) {
      expect(text.length, where).toBeGreaterThan(100);
      expect(text.includes(bind.secret), `the TSIG secret appears in plaintext in the ${where}`).toBe(false);
    }
    // It is in state all the same, encrypted: delete needs it.
    expect(haystacks.state).toMatch(/"tsigSecret":\s*\{\s*"4dabf18193072939515e22adb298388d"/);
  });

  it("destroy deletes the records from BIND and refunds the order", async () => {
    await run((t) => stack.destroy({ onOutput: t.onOutput, onEvent: t.onEvent }));
    for (const name of NAMES) expect(await txt(`_dnsauth.${name}`)).toEqual([]);
    expect(bind.log().match(/deleting an RR at _dnsauth\.(www|api)\.e2e\.test TXT/g)).toHaveLength(2);
    const [order] = await sandbox.management.orders();
    expect(order?.refund).toMatchObject({ mode: "direct", amount: paid });
    expect(await balance()).toBeCloseTo(startingBalance, 2);
    const counts = await sandbox.management.operationCounts();
    expect(counts.CreateOrder).toBe(1);
    expect(counts.CancelOrder).toBe(1);
  });

  it("ValidatedCertificate: publish returns an Rfc2136Record per name; up issues from BIND, destroy removes them", async () => {
    const names = ["shop.e2e.test", "cdn.e2e.test"];
    const vc = await openStack(world, "rfc2136-validated", validatedCertificateProgram({ names, target: dnsTarget(bind) }), "e2e", tsigConfig(bind));
    try {
      const up = await vc.up();
      expect(opensslVerify(String(up.outputs.fullChainPem?.value), await sandbox.management.rootPem())).toMatch(/leaf\.pem: OK/);
      const records = up.outputs.records?.value as Array<{ fqdn: string; value: string }>;
      for (const r of records) expect(await txt(r.fqdn)).toEqual([r.value]);
      const state = backendText(world);
      expect(state).toContain("Rfc2136Record::dcv-shop.e2e.test");
      expect(state.includes(bind.secret)).toBe(false);
    } finally {
      await vc.destroy();
    }
    for (const name of names) expect(await txt(`_dnsauth.${name}`)).toEqual([]);
    expect((await sandbox.management.operationCounts()).CreateOrder).toBe(2);
  });
});
