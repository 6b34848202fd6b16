// Renewal never buys on a guess, and an unrelated update never submits the
// next installment, against the sandbox (clock fixed at 2026-11-23, the
// service opens the next installment 30 days before a certificate's notAfter):
// - an adopted order has no known term end: inside the window it is reissued
//   when the service shows the next installment waiting, otherwise nothing
//   happens and a warning says why; never a replacement (a purchase);
// - a method change while the service has the next installment waiting
//   leaves it to the renewal plan (no ApplySign), which submits it in its window.
import { describe, expect, it } from "vitest";
import { handlers } from "../../../src/resources/order/handlers.js";
import type { OrderInputs } from "../../../src/resources/order/inputs.js";
import type { OrderState } from "../../../src/resources/order/state.js";
import { count, sandboxClock, useHarness } from "./harness.js";

const h = useHarness({ validation: "auto", issueAfterSeconds: 0, statusCooldownSeconds: 0, clockStart: "2026-11-23T00:00:00Z" });
const DAY = 86_400_000;

const clock = sandboxClock(h);
const sandboxNow = () => clock.now();
const advanceTo = (instant: number) => clock.advanceTo(instant);

describe("an adopted order (its term's end unknown) inside its certificate's renewal window", () => {
  let inputs: OrderInputs;
  let outs: OrderState;
  let second: { inputs: OrderInputs; outs: OrderState };
  let notAfter: number;

  /** An order bought outside this program (12 months: more than one 200-day certificate), submitted, issued, then adopted. */
  async function adopt(domain: string): Promise<{ inputs: OrderInputs; outs: OrderState; notAfter: number }> {
    const api = h.ctx.api();
    const created = await api.createOrder({ productCode: "sandbox-dv-single", domain, months: 12, verificationMethod: "dns" });
    await api.applySign({ orderNo: created.orderNo });
    const status = await api.getCertificateStatus({ orderNo: created.orderNo });
    expect(status.certStatus).toBe(1);
    const planned = await h.plan({ productCode: "sandbox-dv-single", domain, months: 12, renewBeforeDays: 40, adoptOrderNo: created.orderNo });
    await h.mgmt("DELETE", "/requests");
    const adopted = (await handlers.create(h.ctx, planned)).outs as OrderState;
    expect(adopted.adopted).toBe(true);
    expect(adopted.termEndsAt).toBeUndefined();
    expect(adopted.paidAt).toBeUndefined();
    expect(await h.operations()).not.toContain("ApplySign");
    // Each order's own: the two adopted below may be issued a second apart.
    return { inputs: planned, outs: adopted, notAfter: Date.parse(`${status.endDate!.replace(" ", "T")}Z`) };
  }

  it("adoption records no term end; a refresh learns the certificate's notAfter", async () => {
    ({ inputs, outs, notAfter } = await adopt("adopted-renewal.example.com"));
    second = await adopt("adopted-waiting.example.com");
    outs = (await handlers.read!(h.ctx, outs.orderNo, outs)).props as OrderState;
    expect(outs.certNotAfter).toBe(new Date(notAfter).toISOString());
    expect(outs.termEndsAt).toBeUndefined();
  });

  it("our window open, no next installment waiting: no change (never a replacement), and a warning with the notAfter and what to do", async () => {
    const now = await advanceTo(notAfter - 35 * DAY);
    h.lines.length = 0;
    await h.mgmt("DELETE", "/requests");
    // With adoptOrderNo kept, and with it removed (which is no change of its own).
    expect(await handlers.diff!(h.ctxAt(now), outs.orderNo, outs, inputs)).toEqual({ changes: false });
    expect(await handlers.diff!(h.ctxAt(now), outs.orderNo, outs, { ...inputs, adoptOrderNo: undefined })).toEqual({ changes: false });
    const log = h.lines.join("\n");
    expect(log).toMatch(new RegExp(`renewal not done: certificate \\S+ of order ${outs.orderNo} expires \\d{4}-\\d\\d-\\d\\d \\(notAfter ${new Date(notAfter).toISOString()}\\)`));
    expect(log).toMatch(/the end of the order's term is unknown \(the order was adopted.*Nothing is bought.*pulumi up --replace/);
    expect(log).not.toMatch(/a new order will be bought/);
    expect(await h.operations()).not.toContain("CreateOrder");
  });

  it("the service opens the next installment: the diff is an in-place update and the update reissues (ApplySign), never CreateOrder", async () => {
    // The other adopted order (this process has not read its status yet: one read per order per process).
    const now = await advanceTo(notAfter - 25 * DAY);
    const ctx = h.ctxAt(now);
    h.lines.length = 0;
    expect(await handlers.diff!(ctx, second.outs.orderNo, second.outs, second.inputs)).toEqual({ changes: true });
    expect(h.lines.join("\n")).toMatch(/reissue due: .*the service has started installment 2 \(awaiting submission\).*nothing is bought/);
    await h.mgmt("DELETE", "/requests");
    const next = (await handlers.update!(ctx, second.outs.orderNo, second.outs, second.inputs)).outs as OrderState;
    const ops = await h.operations();
    expect(ops).not.toContain("CreateOrder");
    expect(count(ops, "ApplySign")).toBe(1);
    expect(next.orderNo).toBe(second.outs.orderNo);
    expect(next.installmentNo).toBe(2);
    expect(next.requestId).toBeDefined();
    expect(next.termEndsAt).toBeUndefined();
  });
});

describe("an unrelated update while the service has the next installment waiting", () => {
  let inputs: OrderInputs;
  let outs: OrderState;
  let notAfter: number;

  it("buys once; the first certificate is issued", async () => {
    ({ inputs, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "unrelated.example.com", verificationMethod: "dns", months: 12, renewBeforeDays: 10 }));
    const status = await h.ctx.api().getCertificateStatus({ orderNo: outs.orderNo });
    expect(status.certStatus).toBe(1);
    notAfter = Date.parse(`${status.endDate!.replace(" ", "T")}Z`);
  });

  it("a verificationMethod change does not submit the next installment (no ApplySign); the state keeps installment 1", async () => {
    const now = await advanceTo(notAfter - 25 * DAY);
    const ctx = h.ctxAt(now);
    // A refresh now stores the waiting certificate's cert_status 0.
    outs = (await handlers.read!(ctx, outs.orderNo, outs)).props as OrderState;
    expect(outs.certStatus).toBe(0);
    const changed = { ...inputs, verificationMethod: "cname" } as OrderInputs;
    expect(await handlers.diff!(ctx, outs.orderNo, outs, changed)).toEqual({ changes: true });
    h.lines.length = 0;
    await h.mgmt("DELETE", "/requests");
    const next = (await handlers.update!(ctx, outs.orderNo, outs, changed)).outs as OrderState;
    const ops = await h.operations();
    expect(ops).not.toContain("ApplySign");
    expect(ops).not.toContain("CreateOrder");
    expect(next.installmentNo).toBe(1);
    expect(next.requestId).toBe(outs.requestId);
    expect(next.certStatus).toBe(0);
    expect(h.lines.join("\n")).toMatch(/has started its next installment \(cert_status 0\); not submitted by this update/);
    const order = await h.mgmt("GET", `/orders/${outs.orderNo}`);
    expect(order.certificates.map((c: { status: number }) => c.status)).toEqual([1, 0]);
    // The program goes back to dns (the sandbox issues a submitted certificate at once, so no method change could apply).
    outs = next;
  });

  it("inside the renewal window the plan submits it (one ApplySign) and records installment 2", async () => {
    const now = await advanceTo(notAfter - 5 * DAY);
    const ctx = h.ctxAt(now);
    expect(await handlers.diff!(ctx, outs.orderNo, outs, inputs)).toEqual({ changes: true });
    await h.mgmt("DELETE", "/requests");
    const next = (await handlers.update!(ctx, outs.orderNo, outs, inputs)).outs as OrderState;
    const ops = await h.operations();
    expect(count(ops, "ApplySign")).toBe(1);
    expect(ops).not.toContain("CreateOrder");
    expect(next.installmentNo).toBe(2);
    expect(next.requestId).not.toBe(outs.requestId);
  });
});
