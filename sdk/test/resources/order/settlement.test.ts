// Cert status 5 reads "revoked/refunded" and belongs to one certificate; the
// order status says whether the order was cancelled or refunded. Refresh,
// resume and destroy read it through one rule (settlement.ts): a revoked
// certificate of a live order keeps the order, and nothing buys it again.
import { describe, expect, it } from "vitest";
import { journalEntryKey, PurchaseJournal } from "../../../src/journal/index.js";
import { handlers } from "../../../src/resources/order/handlers.js";
import { count, useHarness } from "./harness.js";

const h = useHarness({}, { requests: true });

/** An order bought, issued, then revoked outside Pulumi: order status stays 2 (completed). */
async function revokedLive(domain: string) {
  const bought = await h.buy({ productCode: "sandbox-dv-single", domain });
  await h.mgmt("POST", `/orders/${bought.id}/issue`);
  await h.mgmt("POST", `/orders/${bought.id}/revoke`);
  await h.mgmt("DELETE", "/requests");
  return bought;
}

describe("a revoked certificate of a live order", () => {
  it("refresh keeps the order and says how to get a certificate again", async () => {
    const { id, outs } = await revokedLive("settle-read.example.com");
    const read = await handlers.read!(h.ctx, id, outs);
    expect(read.id).toBe(id);
    expect(h.lines.join("\n")).toMatch(/still paid and live \(order status 2\), so it is KEPT/);
  });

  it("a create that finds it in the journal resumes it and buys nothing", async () => {
    const { id, inputs } = await revokedLive("settle-resume.example.com");
    const journal = new PurchaseJournal(h.journalDir);
    const key = journalEntryKey(inputs);
    await journal.recordIntent({ key, domain: inputs.domain, productCode: inputs.productCode, names: [inputs.domain] });
    await journal.recordOrder(key, id, { orderNo: id });
    const resumed = await handlers.create(h.ctx, inputs);
    expect(resumed.id).toBe(id);
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
    expect(h.lines.join("\n")).toMatch(new RegExp(`resuming order ${id}`));
    expect(h.lines.join("\n")).toMatch(/so it is KEPT/);
  });

  it("destroy asks for the refund (the order is not refunded), and never claims it settled", async () => {
    const { id, outs } = await revokedLive("settle-delete.example.com");
    await handlers.delete!(h.ctx, id, outs).catch(() => undefined);
    expect(count(await h.operations(), "CancelOrder")).toBe(1);
    expect(h.lines.join("\n")).not.toMatch(/nothing to cancel or refund/);
  });
});

describe("an order refunded outside Pulumi", () => {
  // One order per step: the status read is limited to one per order per 180 s.
  async function refunded(domain: string) {
    const bought = await h.buy({ productCode: "sandbox-dv-single", domain });
    await h.ctx.api().cancelOrder({ orderNo: bought.id, reason: "outside Pulumi" });
    await h.mgmt("DELETE", "/requests");
    return bought;
  }

  it("refresh drops it", async () => {
    const { id, outs } = await refunded("settle-refunded-read.example.com");
    expect((await handlers.read!(h.ctx, id, outs)).id).toBeUndefined();
  });

  it("destroy sends no CancelOrder", async () => {
    const { id, outs } = await refunded("settle-refunded-delete.example.com");
    await handlers.delete!(h.ctx, id, outs);
    expect(count(await h.operations(), "CancelOrder")).toBe(0);
  });

  it("a create that finds it in the journal forgets it and buys", async () => {
    const { id, inputs } = await refunded("settle-refunded-resume.example.com");
    const journal = new PurchaseJournal(h.journalDir);
    const key = journalEntryKey(inputs);
    await journal.recordIntent({ key, domain: inputs.domain, productCode: inputs.productCode, names: [inputs.domain] });
    await journal.recordOrder(key, id, { orderNo: id });
    const again = await handlers.create(h.ctx, inputs);
    expect(again.id).not.toBe(id);
  });
});

describe("adoptOrderNo naming a settled order", () => {
  it("is refused, naming what the API says (refunded); nothing is bought", async () => {
    const bought = await h.ctx.api().createOrder({ productCode: "sandbox-dv-single", domain: "settle-adopt.example.com", months: 12 } as never);
    await h.ctx.api().cancelOrder({ orderNo: bought.orderNo, reason: "outside Pulumi" });
    await h.mgmt("DELETE", "/requests");
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "settle-adopt.example.com", adoptOrderNo: bought.orderNo });
    await expect(handlers.create(h.ctx, inputs)).rejects.toThrow(new RegExp(`cannot adopt order ${bought.orderNo}: it is (refunded|cancelled|being refunded)`));
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
  });
});
