import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProviderContext } from "../../../src/provider/index.js";
import { systemClock } from "../../../src/resources/shared/clock.js";
import { createCertificateHandlers, handlers as certificateHandlers } from "../../../src/resources/certificate/handlers.js";
import { StatusReadGate } from "../../../src/resources/shared/status-gate.js";
import type { CertificateInputs } from "../../../src/resources/certificate/inputs.js";
import type { CertificateState } from "../../../src/resources/certificate/state.js";
import { startBench, type SandboxBench } from "../../support/orders.js";
import { certificateFacts } from "../../../src/pem/inspect.js";
import { opensslFingerprint, opensslVerify } from "../../../../tests/support/openssl.js";

// Against the sandbox in `published` mode: a certificate is issued only once
// its records are published, as with a real CA. A 2 s status cooldown keeps
// the waits short while exercising the same scheduling as 180 s.
const COOLDOWN = 2;
let h: SandboxBench;
let ctx: ProviderContext;
let lines: string[];

beforeAll(async () => {
  h = await startBench("Certificate", { validation: "published", statusCooldownSeconds: COOLDOWN, issueAfterSeconds: 0 });
  ctx = h.ctx;
  lines = h.lines;
});
afterAll(async () => {
  await h?.stop();
});

async function plan(raw: Partial<CertificateInputs>): Promise<CertificateInputs> {
  const r = await certificateHandlers.check!(ctx, {} as CertificateInputs, raw as CertificateInputs);
  expect(r.failures ?? []).toEqual([]);
  return r.inputs as CertificateInputs;
}

async function publishAll(orderNo: string): Promise<void> {
  const set = await ctx.api().getRecord({ orderNo });
  expect(set.dnsRecords.length).toBeGreaterThan(0);
  for (const r of set.dnsRecords) await h.mgmt("POST", "/dns-records", { fqdn: `${r.label}.${r.domain}`, type: r.recordType, value: r.value });
}

async function statusLog(orderNo: string): Promise<{ at: number; code: number }[]> {
  const log = (await h.mgmt("GET", "/requests")) as { at: string; operation: string; orderNo: string | null; code: number }[];
  return log.filter((e) => e.operation === "GetCertificateStatus" && e.orderNo === orderNo).map((e) => ({ at: Date.parse(e.at), code: e.code }));
}

describe("Certificate against the sandbox", () => {
  let issued: CertificateState;
  let orderNo: string;

  it("waits (cooldown honoured, no status read refused), then downloads verified material", async () => {
    const order = await h.buy({ productCode: "sandbox-dv-multi", domain: "shop.example.com", sanDomains: ["www.shop.example.com"], verificationMethod: "dns" });
    orderNo = order.orderNo;
    lines.length = 0;
    // Publish a little after the first cooldown: the wait must span several reads.
    const publisher = new Promise<void>((resolve, reject) => setTimeout(() => publishAll(orderNo).then(resolve, reject), COOLDOWN * 1000 + 500));
    const created = await certificateHandlers.create(ctx, await plan({ orderNo }));
    const { id } = created;
    const outs = created.outs!;
    await publisher;
    issued = outs;
    expect(id).toBe(outs.certId);

    const reads = await statusLog(orderNo);
    expect(reads.length).toBeGreaterThanOrEqual(2);
    expect(reads.filter((r) => r.code === 429)).toEqual([]);
    for (let i = 1; i < reads.length; i++) expect(reads[i]!.at - reads[i - 1]!.at).toBeGreaterThanOrEqual(COOLDOWN * 1000);
    expect(lines.some((l) => /2 of 2 unverified \(shop\.example\.com, www\.shop\.example\.com\); next check at/.test(l))).toBe(true);

    expect(outs.domains).toEqual(["shop.example.com", "www.shop.example.com"]);
    expect(outs.installmentNo).toBe(1);
    // Only what cannot be recomputed is stored; the class derives the rest from these.
    for (const derived of ["fullChainPem", "serialNumber", "fingerprintSha256", "notBefore", "pfxBase64", "pfxPassword"]) expect(outs).not.toHaveProperty(derived);
    expect(certificateFacts(outs.certificatePem).fingerprintSha256).toBe(opensslFingerprint(outs.certificatePem));
    expect(outs.privateKeyPem).toMatch(/-----BEGIN (EC |RSA )?PRIVATE KEY-----/);
    // The chain verifies with openssl against the sandbox root.
    expect(opensslVerify(`${outs.certificatePem}\n${outs.chainPem}`, h.sandbox.caCertificatePem)).toMatch(/leaf\.pem: OK/);
  });

  it("never puts the private key anywhere but privateKeyPem", () => {
    const keyBody = issued.privateKeyPem.split("\n")[1]!;
    const { privateKeyPem: _secret, ...rest } = issued;
    expect(JSON.stringify(rest)).not.toContain("PRIVATE KEY");
    expect(JSON.stringify(rest)).not.toContain(keyBody);
    expect(lines.join("\n")).not.toContain(keyBody);
    expect(lines.join("\n")).not.toContain(h.sandbox.accounts[0]!.apiKey);
  });

  it("refresh in the same process under the cooldown reuses the last status and sends no read", async () => {
    const before = (await statusLog(orderNo)).length;
    const r = await certificateHandlers.read!(ctx, issued.certId, issued);
    expect(r).toEqual({ id: issued.certId, props: issued });
    expect((await statusLog(orderNo)).length).toBe(before);
  });

  it("refresh in a new process refused by the cooldown keeps state with a warning", async () => {
    // A fresh process cannot know when the order was last read; a 120 s
    // cooldown makes the refusal outlast the client's retry budget, as 180 s does.
    await h.mgmt("PUT", "/config", { statusCooldownSeconds: 120 });
    try {
      const fresh = createCertificateHandlers({ clock: systemClock, gate: new StatusReadGate(systemClock) });
      lines.length = 0;
      const r = await fresh.read!(ctx, issued.certId, issued);
      expect(r).toEqual({ id: issued.certId, props: issued });
      expect(lines.some((l) => l.startsWith("warn:") && /status not re-read .*keeping the stored certificate/.test(l))).toBe(true);
      // Asked again in that process: the gate now knows, nothing more is sent.
      const before = (await statusLog(orderNo)).length;
      await fresh.read!(ctx, issued.certId, issued);
      expect((await statusLog(orderNo)).length).toBe(before);
    } finally {
      await h.mgmt("PUT", "/config", { statusCooldownSeconds: COOLDOWN });
    }
  });

  it("refresh after the cooldown reads the status and keeps a valid certificate", async () => {
    await new Promise((r) => setTimeout(r, COOLDOWN * 1000 + 300));
    lines.length = 0;
    const r = await certificateHandlers.read!(ctx, issued.certId, issued);
    expect(r.props).toEqual(issued);
    expect(lines.filter((l) => l.startsWith("warn:"))).toEqual([]);
  });

  it("diff: a new order or target replaces, a timeout change updates in place, nothing else changes", async () => {
    const same = await certificateHandlers.diff!(ctx, issued.certId, issued, { orderNo, timeoutMinutes: 60 });
    expect(same.changes).toBe(false);
    const other = await certificateHandlers.diff!(ctx, issued.certId, issued, { orderNo: "CERT999", timeoutMinutes: 60 });
    expect(other).toMatchObject({ changes: true, replaces: ["orderNo"], deleteBeforeReplace: false });
    expect((await certificateHandlers.diff!(ctx, issued.certId, issued, { orderNo, installmentNo: 2, timeoutMinutes: 60 })).replaces).toEqual(["installmentNo"]);
    const t = await certificateHandlers.diff!(ctx, issued.certId, issued, { orderNo, timeoutMinutes: 5 });
    expect(t).toMatchObject({ changes: true, replaces: [] });
    const u = await certificateHandlers.update!(ctx, issued.certId, issued, { orderNo, timeoutMinutes: 5 });
    expect(u.outs).toEqual({ ...issued, timeoutMinutes: 5 });
  });

  it("times out clearly, naming the unverified domains, without a refused read", async () => {
    const order = await h.buy({ productCode: "sandbox-dv-single", domain: "slow.example.com", verificationMethod: "dns" });
    const inputs = await plan({ orderNo: order.orderNo, timeoutMinutes: 0.05 });
    const started = Date.now();
    // 3 s: reads at about 0 s and 2.25 s (cooldown plus the gate's margin); the next (about 4.5 s) would fall after
    // the deadline, so create gives up at the deadline instead of sleeping until then. On a loaded machine the first
    // answer can come late enough to push the second read past the deadline too: one or two reads, never refused.
    const err = await certificateHandlers.create(ctx, inputs).then(() => new Error("expected a failure"), (e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/not issued within timeoutMinutes 0\.05 .*still unverified: slow\.example\.com/);
    expect(Date.now() - started).toBeLessThan(4250);
    const reads = await statusLog(order.orderNo);
    expect(reads.length).toBeGreaterThanOrEqual(1);
    expect(reads.length).toBeLessThanOrEqual(2);
    expect(reads.filter((r) => r.code !== 200)).toEqual([]);
    for (let i = 1; i < reads.length; i++) expect(reads[i]!.at - reads[i - 1]!.at).toBeGreaterThanOrEqual(COOLDOWN * 1000);
  });

  it("fails clearly when issuance failed", async () => {
    const order = await h.buy({ productCode: "sandbox-dv-single", domain: "broken.example.com", verificationMethod: "dns" });
    await h.mgmt("POST", `/orders/${order.orderNo}/fail`, {});
    await expect(certificateHandlers.create(ctx, await plan({ orderNo: order.orderNo }))).rejects.toThrow(/issuance failed, cert_status 3/);
  });

  it("targets an installment: the first downloads; a later one not started, or one the order lacks, fails at once naming it", async () => {
    const order = await h.buy({ productCode: "sandbox-dv-single", domain: "long.example.com", months: 24, verificationMethod: "dns" });
    // 24 months of 200-day (or, from 2027-03-15, 100-day) certificates: several installments (CA/B SC-081v3).
    const count = order.installmentsCount!;
    expect(count).toBeGreaterThanOrEqual(4);
    await publishAll(order.orderNo);
    const first = await certificateHandlers.create(ctx, await plan({ orderNo: order.orderNo, installmentNo: 1 }));
    expect(first.outs!.installmentNo).toBe(1);
    // A long timeout: the failure must come from what the service says, not from the clock.
    const failure = (installmentNo: number) =>
      certificateHandlers.create(ctx, { orderNo: order.orderNo, installmentNo, timeoutMinutes: 60 }).then(() => new Error("expected a failure"), (e: Error) => e);
    const started = Date.now();
    expect((await failure(2)).message).toMatch(/installment 2 of order .*: not started yet — the order's current certificate is installment 1 .*needs ApplySign: the Order sends it inside its renewal window/);
    expect((await failure(count + 1)).message).toMatch(new RegExp(`installment ${count + 1} of order .*: the order holds ${count} certificates; installmentNo must be from 1 to ${count}`));
    expect(Date.now() - started).toBeLessThan(4 * COOLDOWN * 1000);
    expect((await statusLog(order.orderNo)).every((e) => e.code !== 429)).toBe(true);
  });

  it("check names each bad input", async () => {
    const r = await certificateHandlers.check!(ctx, {} as CertificateInputs, { orderNo: "", installmentNo: 0, timeoutMinutes: -1 } as CertificateInputs);
    expect(r.failures!.map((f) => f.property)).toEqual(["orderNo", "installmentNo", "timeoutMinutes"]);
    const ok = await certificateHandlers.check!(ctx, {} as CertificateInputs, { orderNo: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" } as CertificateInputs);
    expect(ok.failures).toEqual([]);
    expect(ok.inputs).toMatchObject({ timeoutMinutes: 60 });
  });
});
