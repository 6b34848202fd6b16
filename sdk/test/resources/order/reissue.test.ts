// The Order's side of renewal by the certificate's lifetime, against the
// sandbox on the CA/B schedule (clock fixed at 2026-11-23): outside the
// window no change; inside it, with another installment left, an update that
// submits the next installment (ApplySign) and never buys; a refusal by the
// service (its own window not open yet) changes nothing and warns.
import { describe, expect, it } from "vitest";
import { handlers } from "../../../src/resources/order/handlers.js";
import type { OrderInputs } from "../../../src/resources/order/inputs.js";
import type { OrderState } from "../../../src/resources/order/state.js";
import { sandboxClock, useHarness } from "./harness.js";

const h = useHarness({ validation: "auto", issueAfterSeconds: 0, statusCooldownSeconds: 0, clockStart: "2026-11-23T00:00:00Z" });
const DAY = 86_400_000;

const clock = sandboxClock(h);
const sandboxNow = () => clock.now();
const advanceTo = (instant: number) => clock.advanceTo(instant);

describe("Order reissue inside the certificate's renewal window", () => {
  let inputs: OrderInputs;
  let outs: OrderState;
  let notAfter: number;

  it("buys once; the first certificate is issued (200 days)", async () => {
    ({ inputs, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "reissue.example.com", verificationMethod: "dns", months: 12, renewBeforeDays: 30 }));
    expect(outs.installmentNo).toBe(1);
    const status = await h.ctx.api().getCertificateStatus({ orderNo: outs.orderNo });
    expect(status.certStatus).toBe(1);
    notAfter = Date.parse(`${status.endDate!.replace(" ", "T")}Z`);
    expect(Math.round((notAfter - Date.parse("2026-11-23T00:00:00Z")) / DAY)).toBe(200);
  });

  it("outside the window: no change", async () => {
    const now = await advanceTo(notAfter - 40 * DAY);
    expect(await handlers.diff!(h.ctxAt(now), outs.orderNo, outs, inputs)).toEqual({ changes: false });
  });

  it("our window open but not the service's: the update submits nothing, buys nothing, and says so", async () => {
    await h.mgmt("PUT", "/config", { renewalWindowDays: 5 });
    const now = await advanceTo(notAfter - 20 * DAY);
    const ctx = h.ctxAt(now);
    h.lines.length = 0;
    expect(await handlers.diff!(ctx, outs.orderNo, outs, inputs)).toEqual({ changes: true });
    expect(h.lines.join("\n")).toMatch(/reissue due: certificate \S+ of order \S+ \(installment 1 of 2\) expires \d{4}-\d{2}-\d{2}; the renewal window \(renewBeforeDays=30\) opened .*reissue installment 2 of 2 in place/);
    await h.mgmt("DELETE", "/requests");
    const kept = (await handlers.update!(ctx, outs.orderNo, outs, inputs)).outs as OrderState;
    expect(kept.requestId).toBe(outs.requestId);
    expect(kept.installmentNo).toBe(1);
    expect(kept.certNotAfter).toBe(new Date(notAfter).toISOString());
    expect(h.lines.join("\n")).toMatch(/did not accept the reissue of installment 2 of 2 yet .*nothing changed and nothing was bought/);
    expect(await h.operations()).not.toContain("CreateOrder");
    outs = kept;
  });

  it("inside both windows: the update submits installment 2 (new request id), never CreateOrder", async () => {
    await h.mgmt("PUT", "/config", { renewalWindowDays: 30 });
    const ctx = h.ctxAt(new Date(await sandboxNow()));
    await h.mgmt("DELETE", "/requests");
    const next = (await handlers.update!(ctx, outs.orderNo, outs, inputs)).outs as OrderState;
    const ops = await h.operations();
    expect(ops).not.toContain("CreateOrder");
    expect(ops.filter((o) => o === "ApplySign")).toHaveLength(1);
    expect(next.orderNo).toBe(outs.orderNo);
    expect(next.installmentNo).toBe(2);
    expect(next.requestId).not.toBe(outs.requestId);
    expect(next.certNotAfter).toBeUndefined();
    // At least 100 days (CA/B from 2027-03-15) from the submission: the next previews need no status read until then.
    expect(Date.parse(next.certNotAfterAtLeast!) - Date.parse(next.certNotBefore!)).toBe(100 * DAY);
    expect(next.renewsAt).toBe(new Date(Date.parse(next.certNotAfterAtLeast!) - 30 * DAY).toISOString());
    expect(await handlers.diff!(ctx, next.orderNo, next, inputs)).toEqual({ changes: false });
  });
});
