import { expandPrice } from "../../../src/money/stored-price.js";
import { caBrowserMaxDays } from "../../../src/rules/lifetime.js";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { PurchaseJournal } from "../../../src/journal/index.js";
import { closeClients, createContext, type ProviderContext } from "../../../src/provider/index.js";
import { serviceEndpoint } from "../../../src/resources/order/account.js";
import { handlers } from "../../../src/resources/order/handlers.js";
import type { OrderState } from "../../../src/resources/order/state.js";
import { PROVIDER_TEXT, useHarness } from "./harness.js";
import { byOperation, htmlPage, recordOf, ScriptedServer, userData } from "../../support/partner-api/index.js";

const h = useHarness({}, { faults: true, requests: true });

describe("Order lifecycle against the sandbox", () => {
  it("create buys once, submits, and the outputs carry price, submission and every input (no records)", async () => {
    const before = Date.now();
    const { id, outs, inputs } = await h.buy({ productCode: "sandbox-dv-multi", domain: "Example.com", sanDomains: ["www.example.com", "api.example.com"] });
    expect(inputs.quotedPrice).toBe("140.00");
    expect(id).toMatch(/^CERT/);
    expect(outs.orderNo).toBe(id);
    // From CreateOrder's answer (spec 4.3): unit_price, extra_san_count, san_price, ..., payable_amount.
    // Stored without its zero members; the class shows them as zero.
    expect(outs.price).toEqual({ basePrice: "100.00", sanCount: 2, sanPrice: "20.00", total: "140.00" });
    expect(expandPrice(outs.price)).toEqual({ basePrice: "100.00", sanCount: 2, sanPrice: "20.00", wildcardCount: 0, wildcardPrice: "0.00", discount: "0.00", total: "140.00" });
    // The service counts ceil(term / lifetime of a certificate issued now): CA/B SC-081v3 caps a
    // certificate at 200 days from 2026-03-15 (100 from 2027-03-15), so a 12-month order holds several.
    const termDays = (Date.parse(outs.termEndsAt!) - Date.parse(outs.paidAt!)) / 86_400_000;
    expect(outs.installmentsCount).toBe(Math.ceil(Math.floor(termDays) / caBrowserMaxDays(new Date())));
    expect(outs.installmentNo).toBe(1);
    // From ApplySign's answer: the request id, the cert status and the method the service applied (the product's default).
    expect(outs.requestId).toMatch(/^SIG-/);
    expect(outs.certStatus).toBe(2);
    expect(outs.verificationMethod).toBe("dns");
    // paidAt is when the provider received CreateOrder's answer; the term runs from it.
    expect(Date.parse(outs.paidAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(outs.paidAt!)).toBeLessThanOrEqual(Date.now());
    expect(new Date(outs.termEndsAt!).getUTCFullYear()).toBe(new Date(outs.paidAt!).getUTCFullYear() + 1);
    expect(outs.sanDomains).toEqual(["api.example.com", "www.example.com"]);
    expect(outs.journalKey).toMatch(/^proj\/dev\/site-\d+$/);
    expect(JSON.stringify(outs)).not.toContain(h.sandbox.accounts[0]!.apiKey);
    for (const gone of ["__provider", "records", "orderStatus", "emailSuffix"]) expect(Object.keys(outs)).not.toContain(gone);
    // (the product list and account are read once per process by check). A
    // freshly bought order goes straight to ApplySign: no GetRecord before it.
    expect((await h.operations()).filter((op) => op !== "GetUserProduct" && op !== "GetUserData")).toEqual(["CreateOrder", "ApplySign"]);
  });

  it("buys the term given in years and the method the program chose", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "years.example.com", years: 2, verificationMethod: "email-hostmaster" });
    expect(outs).toMatchObject({ years: 2, months: 24, verificationMethod: "email-hostmaster" });
    const order = await h.mgmt("GET", `/orders/${id}`);
    expect(order.months).toBe(24);
    expect(order.certificates[0].method).toBe("email-hostmaster");
  });

  it("read refreshes through GetRecord, drops what an earlier release stored, and keeps a live order whose certificate was revoked", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "read.example.com" });
    const earlier = { ...outs, records: [{ domain: "read.example.com" }], orderStatus: 1, emailSuffix: "admin", __provider: PROVIDER_TEXT };
    const refreshed = await handlers.read!(h.ctx, id, earlier as unknown as OrderState);
    expect(refreshed.id).toBe(id);
    expect(refreshed.props?.requestId).toBe(outs.requestId);
    expect(refreshed.props?.certStatus).toBe(2);
    expect(Object.keys(refreshed.props!)).not.toEqual(expect.arrayContaining(["records"]));
    expect(Object.keys(refreshed.props!).filter((k) => ["records", "orderStatus", "emailSuffix"].includes(k))).toEqual([]);
    await h.mgmt("POST", `/orders/${id}/issue`);
    await h.mgmt("POST", `/orders/${id}/revoke`);
    // Cert status 5 belongs to the certificate; the order is still paid (order status 2): kept, and the way on named.
    const kept = await handlers.read!(h.ctx, id, outs);
    expect(kept.id).toBe(id);
    expect(kept.props?.certStatus).toBe(5);
    expect(h.lines.join("\n")).toMatch(new RegExp(`order ${id}'s current certificate was revoked \\(cert status 5\\) but the order is still paid and live \\(order status 2\\), so it is KEPT`));
    expect(h.lines.join("\n")).toMatch(/pulumi up --replace/);
    // Only a revoked certificate costs the status read (one per order per 180 s, which the Certificate resource also uses).
    expect((await h.operations()).filter((op) => op === "GetCertificateStatus")).toHaveLength(1);
  });

  it("read drops an order whose order status shows it refunded, and never on a revoked certificate alone", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "refunded-read.example.com" });
    await h.ctx.api().cancelOrder({ orderNo: id, reason: "outside Pulumi" });
    const gone = await handlers.read!(h.ctx, id, outs);
    expect(gone.id).toBeUndefined();
    expect(h.lines.join("\n")).toMatch(new RegExp(`order ${id} was (refunded \\(order status 4\\)|cancelled \\(order status 3\\)|being refunded \\(cert status 6\\)) outside Pulumi; removing it from state`));
  });

  it("one product-list walk serves the checks of many resources", async () => {
    await closeClients(); // a fresh process: nothing cached yet
    await Promise.all([0, 1, 2, 3, 4].map((i) => h.plan({ productCode: i % 2 ? "sandbox-dv-single" : "sandbox-dv-multi", domain: `n${i}.example.com` })));
    expect((await h.operations()).filter((op) => op === "GetUserProduct")).toEqual(["GetUserProduct"]);
  });

  it("read of an order the API says does not exist (its own 404) under the account that bought it removes it from state", async () => {
    const accountId = (await h.ctx.api().getUserData()).apiKey.appId!;
    const accountEndpoint = serviceEndpoint(h.sandbox.url);
    const gone = await handlers.read!(h.ctx, "CERT000000000000000000", { orderNo: "CERT000000000000000000", journalKey: "p/s/x", accountId, accountEndpoint } as OrderState);
    expect(gone.id).toBeUndefined();
  });

  it("delete cancels and logs the direct refund", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "delete.example.com" });
    await handlers.delete!(h.ctx, id, outs);
    const order = await h.mgmt("GET", `/orders/${id}`);
    expect(order.orderStatus).toBe(4);
    expect(h.lines.join("\n")).toMatch(new RegExp(`order ${id} cancelled; refunded 100.00 to balance \\(mode direct, refund order REFUND`));
    // A second delete (e.g. after a lost answer) checks first and does not cancel twice:
    // cert status 5 reads "revoked/refunded", and the order status (4) tells which.
    await h.mgmt("DELETE", "/requests");
    await handlers.delete!(h.ctx, id, outs);
    expect(await h.operations()).toEqual(["GetRecord", "GetCertificateStatus"]);
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

describe("an HTML error page in place of the API is not evidence that an order is gone", () => {
  // What a misrouted base URL or a proxy in front of the API answers: an HTML 404 page for every path.
  let proxy: ScriptedServer;
  let ctx: ProviderContext;
  beforeAll(async () => {
    proxy = await ScriptedServer.start(byOperation({}));
    ctx = createContext({ type: "Order", settings: { apiKey: h.sandbox.accounts[0]!.apiKey, baseUrl: proxy.url, journalDir: h.journalDir }, sink: () => {} });
  });
  afterAll(async () => proxy?.close());
  const state = (orderNo: string) => ({ orderNo, journalKey: "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/certreseller:Order::proxied", certStatus: 2 }) as OrderState;

  it("read fails (the order stays in state) instead of dropping it", async () => {
    await expect(handlers.read!(ctx, "CERT1", state("CERT1"))).rejects.toThrow(/http_error/);
  });

  it("delete fails (nothing cancelled, nothing released)", async () => {
    await expect(handlers.delete!(ctx, "CERT1", state("CERT1"))).rejects.toThrow(/reading order CERT1 before cancelling it failed .*http_error.*run again/);
    expect(proxy.operations).not.toContain("CancelOrder");
  });

  it("create does not take the journal's order for gone and does not buy", async () => {
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "proxied.example.com" });
    const journal = new PurchaseJournal(h.journalDir);
    await journal.recordIntent({ key: inputs.journalKey, domain: inputs.domain, productCode: inputs.productCode, names: [inputs.domain] });
    await journal.recordOrder(inputs.journalKey, "CERT20990101000000000001", { orderNo: "CERT20990101000000000001" });
    proxy.reset();
    await expect(handlers.create(ctx, inputs)).rejects.toThrow(/names order CERT20990101000000000001 .* could not be read .*http_error.*Not buying/);
    expect(proxy.operations).toEqual(["GetRecord"]);
    expect((await journal.read(inputs.journalKey))?.orderNo).toBe("CERT20990101000000000001");
  });

  it("a CreateOrder answered by an error page is 'may have been charged', not 'refused'", async () => {
    // Only CreateOrder is misrouted here: the account is read before buying.
    const partial = await ScriptedServer.start(byOperation({ GetUserData: () => userData("ak_scripted") }));
    const ctx = createContext({ type: "Order", settings: { apiKey: h.sandbox.accounts[0]!.apiKey, baseUrl: partial.url, journalDir: h.journalDir }, sink: () => {} });
    onTestFinished(() => partial.close());
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "proxied-buy.example.com" });
    const error = (await handlers.create(ctx, inputs).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/Your account MAY have been charged/);
    expect(await new PurchaseJournal(h.journalDir).read(inputs.journalKey)).toBeDefined();
  });
});

describe("a proxy's 5xx/HTML answers never count as the API's refusal", () => {
  let proxy: ScriptedServer;
  beforeAll(async () => {
    proxy = await ScriptedServer.start(byOperation({ GetRecord: () => recordOf("CERT1", 2), CancelOrder: () => htmlPage(400, "Bad Request") }));
  });
  afterAll(async () => proxy?.close());

  it("delete does not release an order because a gateway answered an HTML 400 to CancelOrder", async () => {
    const ctx = createContext({ type: "Order", settings: { apiKey: "ak_x:y", baseUrl: proxy.url, journalDir: h.journalDir }, sink: () => {} });
    await expect(handlers.delete!(ctx, "CERT1", { orderNo: "CERT1", journalKey: "p/s/gw" } as OrderState)).rejects.toThrow(
      /cancelling order CERT1 failed .*http_error.*The cancel may have gone through; the next run checks the order's state first/,
    );
  });
});
