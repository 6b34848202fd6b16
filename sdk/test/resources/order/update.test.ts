import { describe, expect, it } from "vitest";
import { handlers } from "../../../src/resources/order/handlers.js";
import type { OrderInputs } from "../../../src/resources/order/inputs.js";
import type { OrderState } from "../../../src/resources/order/state.js";
import { useHarness } from "./harness.js";

const h = useHarness({ issueAfterSeconds: 3600, methodCooldownSeconds: 300 }, { requests: true });

async function update(olds: OrderState, inputs: OrderInputs, news: Partial<OrderInputs>) {
  const { outs } = await handlers.update!(h.ctx, olds.orderNo, olds, { ...inputs, ...news });
  return outs as OrderState;
}

describe("Order update", () => {
  it("switches the verification method in place: the service's records follow, every output kept", async () => {
    const { outs, inputs } = await h.buy({ productCode: "sandbox-dv-multi", domain: "method.example.com", sanDomains: ["www.method.example.com"] });
    await h.mgmt("DELETE", "/requests");
    const next = await update(outs, inputs, { verificationMethod: "cname" });
    expect(next.verificationMethod).toBe("cname");
    const order = await h.mgmt("GET", `/orders/${outs.orderNo}`);
    expect(order.certificates[0].method).toBe("cname");
    expect(order.certificates[0].records.map((r: { method: string }) => r.method)).toEqual(["cname", "cname"]);
    for (const key of ["orderNo", "price", "paidAt", "termEndsAt", "journalKey", "sanDomains", "quotedPrice", "installmentsCount", "requestId"] as const) {
      expect(next[key], key).toEqual(outs[key]);
    }
    expect(await h.operations()).toEqual(["GetRecord", "ChangeVertificationMethod"]);
  });

  it("a second change inside the 5-minute cooldown fails with the time to retry; after it, it works", async () => {
    const { outs, inputs } = await h.buy({ productCode: "sandbox-dv-single", domain: "cooldown.example.com" });
    const first = await update(outs, inputs, { verificationMethod: "file" });
    await expect(update(first, inputs, { verificationMethod: "email-hostmaster" })).rejects.toThrow(
      /can change at most once per 5 minutes per certificate; run `pulumi up` again after \d{4}-\d\d-\d\dT.* \(in \d+ s\)/,
    );
    await h.mgmt("POST", "/clock/advance", { seconds: 301 });
    const third = await update(first, inputs, { verificationMethod: "email-hostmaster" });
    expect(third.verificationMethod).toBe("email-hostmaster");
    const order = await h.mgmt("GET", `/orders/${outs.orderNo}`);
    expect(order.certificates[0].method).toBe("email-hostmaster");
  });

  it("an e-mail method the service reports as plain `email` is no change, so nothing is sent", async () => {
    const { outs, inputs } = await h.buy({ productCode: "sandbox-dv-single", domain: "mailbox.example.com", verificationMethod: "email-webmaster" });
    await h.mgmt("DELETE", "/requests");
    const next = await update({ ...outs, verificationMethod: "email" }, inputs, { verificationMethod: "email-webmaster" });
    expect(next.verificationMethod).toBe("email");
    expect(await h.operations()).toEqual(["GetRecord"]);
  });

  it("drops the outputs an earlier release stored (records, orderStatus, emailSuffix)", async () => {
    const { outs, inputs } = await h.buy({ productCode: "sandbox-dv-single", domain: "upgrade.example.com" });
    const earlier = { ...outs, records: [{ domain: "upgrade.example.com" }], orderStatus: 1, emailSuffix: "admin" } as unknown as OrderState;
    const next = await update(earlier, inputs, {});
    expect(Object.keys(next).filter((k) => ["records", "orderStatus", "emailSuffix"].includes(k))).toEqual([]);
  });

  it("on an issued certificate records the new input with a warning and calls nothing that would fail", async () => {
    const { outs, inputs } = await h.buy({ productCode: "sandbox-dv-single", domain: "issued.example.com" });
    await h.mgmt("POST", `/orders/${outs.orderNo}/issue`);
    await h.mgmt("DELETE", "/requests");
    const next = await update(outs, inputs, { verificationMethod: "cname" });
    expect(next.verificationMethod).toBe("cname");
    expect(next.certStatus).toBe(1);
    expect(h.lines.join("\n")).toMatch(/verificationMethod not changed to cname: .* cert status 1/);
    expect(await h.operations()).toEqual(["GetRecord"]);
  });

  it("renewBeforeDays or a quoted price change alone keeps every output", async () => {
    const { outs, inputs } = await h.buy({ productCode: "sandbox-dv-single", domain: "keep.example.com" });
    const next = await update(outs, inputs, { renewBeforeDays: 20, quotedPrice: "1.00" });
    expect({ ...next, renewBeforeDays: undefined, quotedPrice: undefined }).toEqual({ ...outs, renewBeforeDays: undefined, quotedPrice: undefined });
  });
});

describe("Order delete: refund modes", () => {
  it("audit mode (upstream cancel failed) is reported as manual review", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "audit.example.com" });
    await h.mgmt("PUT", "/config", { upstreamCancelFails: true });
    try {
      await handlers.delete!(h.ctx, id, outs);
    } finally {
      await h.mgmt("PUT", "/config", { upstreamCancelFails: false });
    }
    expect(h.lines.join("\n")).toMatch(new RegExp(`order ${id} cancelled, but .* refund went to MANUAL REVIEW \\(audit\\): no money back yet`));
  });

  it("an order cancelled before submission is refunded without an upstream cancel", async () => {
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "early.example.com" });
    const created = await h.ctx.api().createOrder({ productCode: inputs.productCode, domain: inputs.domain });
    await handlers.delete!(h.ctx, created.orderNo, { ...inputs, orderNo: created.orderNo } as OrderState);
    expect(h.lines.join("\n")).toMatch(new RegExp(`order ${created.orderNo} cancelled; refunded 100.00 to balance \\(mode direct`));
  });
});
