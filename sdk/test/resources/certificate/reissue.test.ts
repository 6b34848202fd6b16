// The Certificate follows the Order's reissue of the next installment: its
// diff shows an update (not a replacement) when the Order's request id
// changes, its update waits for the new installment, downloads and verifies
// it, and a failed or timed-out wait leaves the old certificate in place
// (the update throws; the engine keeps the old outputs). Against the sandbox
// on the CA/B lifetime schedule, its clock fixed at 2026-11-23.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../../../src/provider/index.js";
import { handlers } from "../../../src/resources/certificate/handlers.js";
import type { CertificateInputs } from "../../../src/resources/certificate/inputs.js";
import type { CertificateState } from "../../../src/resources/certificate/state.js";
import { certificateFacts } from "../../../src/pem/inspect.js";
import { startBench, type SandboxBench } from "../../support/orders.js";

const DAY = 86_400;
/** The serial as the class reads it (not stored). */
const serialOf = (outs: CertificateState) => certificateFacts(outs.certificatePem).serialNumber;
let h: SandboxBench;

beforeAll(async () => {
  h = await startBench("Certificate", { validation: "published", statusCooldownSeconds: 1, issueAfterSeconds: 0, clockStart: "2026-11-23T00:00:00Z" });
});
afterAll(async () => h?.stop());

async function publishAll(orderNo: string): Promise<void> {
  const set = await h.ctx.api().getRecord({ orderNo });
  for (const r of set.dnsRecords) await h.mgmt("POST", "/dns-records", { fqdn: `${r.label}.${r.domain}`, type: r.recordType, value: r.value });
}

describe("Certificate reissue (the Order's next installment)", () => {
  let orderNo: string;
  let first: CertificateState;
  let newRequestId: string;

  it("create records the Order's request id and the installment count", async () => {
    const order = await h.buy({ productCode: "sandbox-dv-single", domain: "reissue.example.com", months: 12, verificationMethod: "dns" });
    orderNo = order.orderNo;
    await publishAll(orderNo);
    first = (await handlers.create(h.ctx, { orderNo, requestId: order.requestId, timeoutMinutes: 1 })).outs!;
    expect(first).toMatchObject({ installmentNo: 1, installmentsCount: 2, requestId: order.requestId });
  });

  it("a new request id is an update, not a replacement; an unchanged one is no change", async () => {
    expect(await handlers.diff!(h.ctx, first.certId, first, { orderNo, requestId: "SIG-OTHER", timeoutMinutes: 1 } as CertificateInputs)).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect((await handlers.diff!(h.ctx, first.certId, first, { orderNo, requestId: first.requestId, timeoutMinutes: 1 } as CertificateInputs)).changes).toBe(false);
  });

  it("a wait that times out keeps the certificate in use and says so", async () => {
    // 20 days before the first certificate ends: the service has started installment 2; submit it as the Order does.
    const now = Date.parse(((await h.mgmt("GET", "/clock")) as { now: string }).now);
    await h.mgmt("POST", "/clock/advance", { seconds: Math.ceil((Date.parse(first.notAfter) - 20 * DAY * 1000 - now) / 1000) });
    await h.ctx.api().getRecord({ orderNo });
    newRequestId = (await h.ctx.api().applySign({ orderNo })).requestId!;
    expect(newRequestId).not.toBe(first.requestId);
    // Past the reuse period (100 days from 2027-03-15): fresh records, not published yet.
    const failed = await handlers.update!(h.ctx, first.certId, first, { orderNo, requestId: newRequestId, timeoutMinutes: 0.05 } as CertificateInputs).then(
      () => new Error("expected the wait to fail"),
      (e: Error) => e,
    );
    expect(failed.message).toMatch(new RegExp(`not issued within .*The certificate in use \\(${first.certId}, serial ${serialOf(first)}, valid until ${first.notAfter}\\) is kept in state`));
  });

  it("once the new records are published, the update downloads and verifies installment 2", async () => {
    await publishAll(orderNo);
    const next = (await handlers.update!(h.ctx, first.certId, first, { orderNo, requestId: newRequestId, timeoutMinutes: 1 } as CertificateInputs)).outs!;
    expect(next.installmentNo).toBe(2);
    expect(next.requestId).toBe(newRequestId);
    expect(next.certId).not.toBe(first.certId);
    expect(serialOf(next)).not.toBe(serialOf(first));
    expect(Date.parse(next.notAfter)).toBeGreaterThan(Date.parse(first.notAfter));
    expect(next.chainPem).toContain("BEGIN CERTIFICATE");
    expect(next).not.toHaveProperty("fullChainPem");
  });

  it("preview warns from the state alone when the certificate is near its end and no renewal is configured", async () => {
    const lines: string[] = [];
    const at = (iso: string) =>
      createContext({ type: "Certificate", settings: {}, sink: (level, line) => lines.push(`${level}: ${line}`), now: () => new Date(iso) });
    const news = { orderNo, requestId: first.requestId, timeoutMinutes: 1 } as CertificateInputs;
    // No API settings at all: the warning needs no call.
    await handlers.diff!(at("2027-05-01T00:00:00Z"), first.certId, first, news);
    expect(lines).toEqual([]);
    await handlers.diff!(at("2027-05-22T00:00:00Z"), first.certId, first, news);
    expect(lines.join("\n")).toMatch(new RegExp(`warn: .*certificate ${first.certId} of order ${orderNo} \\(reissue.example.com\\) expires ${first.notAfter} \\(in 20 days\\) and no renewal is configured`));
    lines.length = 0;
    await handlers.diff!(at("2027-05-22T00:00:00Z"), first.certId, first, { ...news, renewBeforeDays: 30 });
    expect(lines).toEqual([]);
  });
});
