import { describe, expect, it } from "vitest";
import { closeClients } from "../../src/provider/index.js";
import { handlers } from "../../src/resources/order/handlers.js";
import type { OrderState } from "../../src/resources/order/types.js";
import { PROVIDER_TEXT, useHarness } from "./harness.js";

const h = useHarness({}, { faults: true, requests: true });

describe("Order lifecycle against the sandbox", () => {
  it("create buys once, submits, and the outputs carry price, records and every input", async () => {
    const { id, outs, inputs } = await h.buy({ productCode: "sandbox-dv-multi", domain: "Example.com", sanDomains: ["www.example.com", "api.example.com"] });
    expect(inputs.quotedPrice).toBe("140.00");
    expect(id).toMatch(/^CERT/);
    expect(outs.orderNo).toBe(id);
    expect(outs.price?.total).toBe("140.00");
    expect(outs.requestId).toMatch(/^SIG-/);
    expect(outs.certStatus).toBe(2);
    expect(outs.records.map((r) => r.domain).sort()).toEqual(["api.example.com", "example.com", "www.example.com"]);
    expect(outs.sanDomains).toEqual(["api.example.com", "www.example.com"]);
    expect(outs.journalKey).toMatch(/^proj\/dev\/site-\d+$/);
    expect(outs.termEndsAt).toBeDefined();
    expect(JSON.stringify(outs)).not.toContain(h.sandbox.accounts[0]!.apiKey);
    expect(Object.keys(outs)).not.toContain("__provider");
    // (the product list and account are read once per process by check). A
    // freshly bought order goes straight to ApplySign: no GetRecord before it.
    expect((await h.operations()).filter((op) => op !== "GetUserProduct" && op !== "GetUserData")).toEqual(["CreateOrder", "ApplySign"]);
  });

  it("read refreshes through GetRecord and drops a revoked order", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "read.example.com" });
    const refreshed = await handlers.read!(h.ctx, id, { ...outs, __provider: PROVIDER_TEXT } as OrderState);
    expect(refreshed.id).toBe(id);
    expect(refreshed.props?.requestId).toBe(outs.requestId);
    await h.mgmt("POST", `/orders/${id}/issue`);
    await h.mgmt("POST", `/orders/${id}/revoke`);
    const gone = await handlers.read!(h.ctx, id, outs);
    expect(gone.id).toBeUndefined();
    expect(h.lines.join("\n")).toMatch(/revoked or refunded outside Pulumi/);
    // Refresh never spends the status read's cooldown (the Certificate resource needs it).
    expect(await h.operations()).not.toContain("GetCertificateStatus");
  });

  it("one product-list walk serves the checks of many resources", async () => {
    await closeClients(); // a fresh process: nothing cached yet
    await Promise.all([0, 1, 2, 3, 4].map((i) => h.plan({ productCode: i % 2 ? "sandbox-dv-single" : "sandbox-dv-multi", domain: `n${i}.example.com` })));
    expect((await h.operations()).filter((op) => op === "GetUserProduct")).toEqual(["GetUserProduct"]);
  });

  it("read of an order that belongs to nobody here removes it from state", async () => {
    const gone = await handlers.read!(h.ctx, "CERT000000000000000000", { orderNo: "CERT000000000000000000", journalKey: "p/s/x" } as OrderState);
    expect(gone.id).toBeUndefined();
  });

  it("delete cancels and logs the direct refund", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "delete.example.com" });
    await handlers.delete!(h.ctx, id, outs);
    const order = await h.mgmt("GET", `/orders/${id}`);
    expect(order.orderStatus).toBe(4);
    expect(h.lines.join("\n")).toMatch(new RegExp(`order ${id} cancelled; refunded 100.00 to balance \\(mode direct, refund order REFUND`));
    // A second delete (e.g. after a lost answer) checks first and does not cancel twice.
    await h.mgmt("DELETE", "/requests");
    await handlers.delete!(h.ctx, id, outs);
    expect(await h.operations()).toEqual(["GetRecord"]);
  });

  it("delete past the refund window releases the order with a clear message", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "late.example.com" });
    await h.mgmt("POST", "/clock/advance", { seconds: 8 * 86_400 });
    await handlers.delete!(h.ctx, id, outs);
    expect(h.lines.join("\n")).toMatch(new RegExp(`order ${id} was NOT cancelled and is released from Pulumi`));
    const order = await h.mgmt("GET", `/orders/${id}`);
    expect(order.refund).toBeNull();
  });
});
