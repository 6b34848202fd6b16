// Renewal by the certificate's own lifetime, with the real engine, through a
// whole 12-month order on the sandbox's clock (CA/Browser Forum SC-081v3:
// a certificate issued from 2026-03-15 lives at most 200 days, from
// 2027-03-15 at most 100): the first certificate is issued; a preview before
// its window shows no change; inside the window the preview shows the Order,
// the Validation, the DNS records and the Certificate UPDATED in place (the
// next installment is reissued, nothing is bought), and `up` submits, waits
// for, downloads and verifies the next installment; this repeats for every
// installment the order holds; at the end of the term the preview shows the
// replacement purchase. The provider's clock follows the sandbox's through
// CERTRESELLER_NOW (allowed against a loopback base URL).
import type { Stack } from "@pulumi/pulumi/automation";
import * as certs from "pulumi-certreseller";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { certificateFacts } from "../../sdk/src/pem/inspect.js";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import type { SandboxConfig } from "../support/sandbox-management.js";
import { createWorld, failureOf, openStack, recorder, type E2eWorld } from "./harness/stack.js";
import { changedSteps } from "./harness/steps.js";
import { InPlaceDnsRecord } from "./lifetime-dns-record.js";

const DAY = 86_400;
const START = "2026-11-23T00:00:00.000Z";
const DOMAIN = "lifetime.e2e.example.com";
const SAN = "www.lifetime.e2e.example.com";

interface SandboxCertificate {
  certId: string;
  installmentNo: number;
  status: number;
  notBefore: string | null;
  notAfter: string | null;
}
interface SandboxOrderView {
  orderNo: string;
  installmentsCount: number;
  termEndsAt: string;
  certificates: SandboxCertificate[];
}

describe("renewal by the certificate's lifetime (12-month order, CA/B lifetimes)", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;
  const journal: string[] = [];
  const note = (line: string) => {
    journal.push(line);
    console.log(`[lifetime-renewal] ${line}`);
  };

  const program = (managementUrl: string, timeoutMinutes = 5) => async () => {
    const order = new certs.Order("site", { productCode: "sandbox-dv-multi", domain: DOMAIN, sanDomains: [SAN], verificationMethod: "dns", months: 12, renewBeforeDays: 30 });
    const validation = new certs.Validation("site", { order });
    const records = [DOMAIN, SAN].map((name, i) => {
      const r = validation.dnsRecordFor(name);
      return new InPlaceDnsRecord(`site-dcv-${i}`, { managementUrl, fqdn: r.fqdn, type: r.type, value: r.value });
    });
    const certificate = new certs.Certificate("site", { order, timeoutMinutes }, { dependsOn: records });
    return {
      orderNo: order.orderNo,
      orderInstallmentNo: order.installmentNo,
      orderRenewsAt: order.renewsAt,
      requestId: order.requestId,
      certId: certificate.certId,
      installmentNo: certificate.installmentNo,
      installmentsCount: certificate.installmentsCount,
      notBefore: certificate.notBefore,
      notAfter: certificate.notAfter,
      renewsAt: certificate.renewsAt,
      serialNumber: certificate.serialNumber,
      records: validation.records,
    };
  };

  beforeAll(async () => {
    // Published validation: a certificate issues only once its records are served, so the DNS records matter.
    sandbox = await startTestSandbox({ validation: "published", clockStart: START } as SandboxConfig);
    world = createWorld(sandbox);
    stack = await openStack(world, "lifetime-renewal", program(sandbox.managementUrl));
  });

  afterAll(async () => {
    console.log(`[lifetime-renewal] run summary:\n${journal.join("\n")}`);
    await stack?.destroy().catch(() => undefined);
    await sandbox?.stop();
    world?.dispose();
  });

  async function sandboxNow(): Promise<string> {
    return (await sandbox.management.clock()).now;
  }
  async function followClock(): Promise<string> {
    const now = await sandboxNow();
    stack.workspace.envVars.CERTRESELLER_NOW = now;
    return now;
  }
  async function advanceTo(instant: number): Promise<string> {
    const now = Date.parse(await sandboxNow());
    if (instant > now) await sandbox.management.advanceClock(Math.ceil((instant - now) / 1000));
    return followClock();
  }
  async function orderView(): Promise<SandboxOrderView> {
    const orders = (await sandbox.management.orders()) as unknown as SandboxOrderView[];
    expect(orders, "one purchase in total").toHaveLength(1);
    return orders[0]!;
  }
  async function preview() {
    const now = await followClock();
    await sandbox.management.clearRequests();
    const t = recorder();
    await stack.preview({ onEvent: t.onEvent, onOutput: t.onOutput, onError: t.onError });
    const counts = await sandbox.management.operationCounts();
    return { now, steps: changedSteps(t.events), output: t.output, counts };
  }
  async function certificateInState(): Promise<Record<string, any>> {
    const state = (await stack.exportStack()).deployment as { resources: { type: string; outputs?: Record<string, any> }[] };
    return state.resources.find((r) => r.type.endsWith(":Certificate"))!.outputs!;
  }
  async function up(clearLog = true) {
    const now = await followClock();
    if (clearLog) await sandbox.management.clearRequests();
    const t = recorder();
    const result = await stack.up({ program: program(sandbox.managementUrl), onOutput: t.onOutput, onError: t.onError });
    const counts = await sandbox.management.operationCounts();
    const outputs = Object.fromEntries(Object.entries(result.outputs).map(([k, v]) => [k, v.value])) as Record<string, any>;
    return { now, outputs, output: t.output, counts };
  }

  let first: Record<string, any>;

  it("up issues the first certificate: 200 days (issued after 2026-03-15), the order counts two installments", async () => {
    const run = await up();
    first = run.outputs;
    expect(run.counts.CreateOrder).toBe(1);
    expect(first.installmentNo).toBe(1);
    expect(first.installmentsCount).toBeGreaterThanOrEqual(2);
    const lifeDays = (Date.parse(first.notAfter) - Date.parse(first.notBefore)) / (DAY * 1000);
    expect(Math.round(lifeDays)).toBe(200);
    expect(first.renewsAt).toBe(new Date(Date.parse(first.notAfter) - 30 * DAY * 1000).toISOString());
    note(`${run.now.slice(0, 10)} up #1: bought ${first.orderNo}; installment 1 of ${first.installmentsCount}, ${first.notBefore.slice(0, 10)} → ${first.notAfter.slice(0, 10)}, renewsAt ${first.renewsAt.slice(0, 10)}; CreateOrder ${run.counts.CreateOrder}`);
  });

  it("a preview before the window: no changes, nothing bought", async () => {
    await advanceTo(Date.parse(START) + 100 * DAY * 1000);
    const p = await preview();
    expect(p.steps, p.output).toEqual({});
    expect(p.counts.CreateOrder ?? 0).toBe(0);
    note(`${p.now.slice(0, 10)} preview: no changes (status reads ${p.counts.GetCertificateStatus ?? 0}, purchases so far 1)`);
  });

  it("each installment: inside its window the preview updates in place, up reissues it (no purchase); at the end of the term the preview shows the replacement purchase", async () => {
    let current = first;
    for (let round = 1; round <= 6; round++) {
      const view = await orderView();
      const inUse = view.certificates.find((c) => c.certId === current.certId)!;
      expect(inUse.notAfter).toBe(new Date(Date.parse(current.notAfter)).toISOString());
      const last = Date.parse(inUse.notAfter!) >= Date.parse(view.termEndsAt) - DAY * 1000;
      // 20 days before the certificate ends: inside renewBeforeDays=30 and the service's window.
      await advanceTo(Math.max(Date.parse(inUse.notAfter!) - 20 * DAY * 1000, Date.parse(await sandboxNow()) + 3600_000));
      const p = await preview();
      if (last) {
        expect(p.steps["Order:site"], p.output).toBe("replace");
        expect(p.output).toMatch(/renewal due: order \S+'s last certificate/);
        expect(p.counts.CreateOrder ?? 0).toBe(0);
        expect(await sandbox.management.orders()).toHaveLength(1);
        note(`${p.now.slice(0, 10)} preview: ${JSON.stringify(p.steps)} — the end of the term (installment ${current.installmentNo}, the last, ends ${current.notAfter.slice(0, 10)}; term ends ${view.termEndsAt.slice(0, 10)}): the replacement purchase; purchases so far 1`);
        return;
      }
      // The reissue: updates in place, no create, replace or delete.
      expect(p.steps, p.output).toEqual({
        "Order:site": "update",
        "Validation:site": "update",
        "InPlaceDnsRecord:site-dcv-0": "update",
        "InPlaceDnsRecord:site-dcv-1": "update",
        "Certificate:site": "update",
      });
      expect(p.output).toMatch(new RegExp(`reissue installment ${current.installmentNo + 1} of \\d+ in place`));
      expect(p.output).toContain(`expires ${current.notAfter.slice(0, 10)}`);
      expect(p.output).toMatch(/the renewal window \(renewBeforeDays=30\) opened/);
      expect(p.counts.CreateOrder ?? 0).toBe(0);
      note(`${p.now.slice(0, 10)} preview: ${JSON.stringify(p.steps)}`);

      let cleared = true;
      if (round === 1) {
        // The new installment is not issued in time (validation held back, a 6-second wait): the up fails,
        // and the old certificate stays in state, the one in use.
        await sandbox.management.setConfig({ validation: "auto", issueAfterSeconds: 10 * DAY });
        await sandbox.management.clearRequests();
        const failed = await failureOf(stack.up({ program: program(sandbox.managementUrl, 0.1) }));
        expect(failed).toMatch(/not issued within .*The certificate in use \(\S+, serial \S+, valid until \S+\) is kept in state/);
        const stored = await certificateInState();
        // The state holds the leaf, not its serial: the program computes that (issue 14).
        const kept: Record<string, any> = { ...stored, serialNumber: certificateFacts(stored.certificatePem).serialNumber };
        expect([kept.certId, kept.serialNumber, kept.notAfter, kept.installmentNo]).toEqual([current.certId, current.serialNumber, current.notAfter, current.installmentNo]);
        expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
        note(`${(await sandboxNow()).slice(0, 10)} up with the new installment held back: failed after its 6 s wait; certificate ${kept.certId} (installment ${kept.installmentNo}, serial ${kept.serialNumber}, to ${String(kept.notAfter).slice(0, 10)}) still in state; CreateOrder 0`);
        await sandbox.management.setConfig({ validation: "published", issueAfterSeconds: 0 });
        cleared = false; // the ApplySign of the failed up counts for this round
      }
      const run = await up(cleared);
      expect(run.counts.CreateOrder ?? 0, "a reissue never buys").toBe(0);
      expect(run.counts.CancelOrder ?? 0).toBe(0);
      expect(run.counts.ApplySign).toBe(1);
      const next = run.outputs;
      expect(next.orderNo).toBe(first.orderNo);
      expect(next.installmentNo).toBe(current.installmentNo + 1);
      expect(next.orderInstallmentNo).toBe(current.installmentNo + 1);
      expect(next.requestId).not.toBe(current.requestId);
      expect(next.certId).not.toBe(current.certId);
      expect(next.serialNumber).not.toBe(current.serialNumber);
      expect(Date.parse(next.notAfter)).toBeGreaterThan(Date.parse(current.notAfter));
      const after = await orderView();
      const reissued = after.certificates.find((c) => c.certId === next.certId)!;
      expect(reissued.status).toBe(1);
      expect(reissued.installmentNo).toBe(next.installmentNo);
      const tokensChanged = JSON.stringify(next.records.map((r: any) => r.value)) !== JSON.stringify(current.records.map((r: any) => r.value));
      note(
        `${run.now.slice(0, 10)} up: installment ${next.installmentNo} of ${after.installmentsCount} issued and downloaded, ${next.notBefore.slice(0, 10)} → ${next.notAfter.slice(0, 10)} ` +
          `(previous ended ${current.notAfter.slice(0, 10)}); ApplySign ${run.counts.ApplySign}, CreateOrder ${run.counts.CreateOrder ?? 0}; validation tokens ${tokensChanged ? "fresh" : "reused"}; purchases so far 1`,
      );

      current = next;
      // Right after: nothing is due (unless this is the order's last certificate and it is shorter than
      // the window: then the loop's next round shows the replacement), and the stored lower bound spares the status read.
      if (Date.parse(next.renewsAt) > Date.parse(run.now)) {
        const quiet = await preview();
        expect(quiet.steps, quiet.output).toEqual({});
        expect(quiet.counts.GetCertificateStatus ?? 0).toBe(0);
        note(`${quiet.now.slice(0, 10)} preview: no changes (status reads ${quiet.counts.GetCertificateStatus ?? 0}; renewsAt ${next.renewsAt.slice(0, 10)})`);
      } else {
        note(`${run.now.slice(0, 10)} installment ${next.installmentNo} lives ${Math.round((Date.parse(next.notAfter) - Date.parse(next.notBefore)) / (DAY * 1000))} days, to the term's end: its window (renewsAt ${next.renewsAt.slice(0, 10)}) is already open`);
      }
    }
    throw new Error("the order never reached the end of its term in six installments");
  });
});
