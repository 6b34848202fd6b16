import * as fs from "node:fs";
import { describe, expect, it } from "vitest";
import { PartnerClient } from "../../../src/client/index.js";
import { PurchaseJournal } from "../../../src/journal/index.js";
import { PartialFailureError } from "../../../src/provider/index.js";
import { handlers } from "../../../src/resources/order/handlers.js";
import type { OrderInputs } from "../../../src/resources/order/inputs.js";
import type { OrderState } from "../../../src/resources/order/state.js";
import { count, PROVIDER_TEXT, useHarness } from "./harness.js";

const h = useHarness({}, { faults: true, requests: true });

async function ordersFor(domain: string): Promise<{ orderNo: string; certificates: { requestId: string | null }[] }[]> {
  const all = (await h.mgmt("GET", "/orders")) as { orderNo: string; domains: string[]; certificates: { requestId: string | null }[] }[];
  return all.filter((o) => o.domains[0] === domain);
}
/** create, with the outputs it always returns on success. */
async function createOrdered(inputs: OrderInputs): Promise<{ id: string; outs: OrderState }> {
  const { id, outs } = await handlers.create(h.ctx, inputs);
  return { id, outs: outs! };
}

describe("a failure after CreateOrder keeps the order and resumes it", () => {
  it("ApplySign fails: partial-failure error with __provider; update resumes without a second purchase", async () => {
    await h.mgmt("PUT", "/faults", { ApplySign: { errorRate: 1, errorCode: 500, times: 1 } });
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "partial.example.com" });
    const error = await handlers.create(h.ctx, inputs).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PartialFailureError);
    const partial = error as PartialFailureError;
    expect(partial.id).toMatch(/^CERT/);
    expect(partial.properties.__provider).toBe(PROVIDER_TEXT);
    expect(partial.properties.orderNo).toBe(partial.id);
    expect(partial.properties.requestId).toBeUndefined();
    expect(partial.reasons[0]).toMatch(/is bought \(100.00 charged\) but ApplySign failed .*does NOT buy again/);

    // Next `up`: the engine calls diff then update (never create).
    const olds = partial.properties as unknown as OrderState;
    const diff = await handlers.diff!(h.ctx, partial.id, olds, inputs);
    expect(diff.changes).toBe(false);
    const { outs } = await handlers.update!(h.ctx, partial.id, olds, inputs);
    expect(outs?.requestId).toMatch(/^SIG-/);
    expect(outs?.certStatus).toBe(2);
    expect(outs?.price?.total).toBe("100.00");
    const ops = await h.operations();
    expect(count(ops, "CreateOrder")).toBe(1);
    expect(count(ops, "ApplySign")).toBe(2);
    expect(await ordersFor("partial.example.com")).toHaveLength(1);
  });

  it("ApplySign's answer lost after it went through: the resume sees it via GetRecord and does not submit again", async () => {
    await h.mgmt("PUT", "/faults", { ApplySign: { commitThenFail: "drop", times: 1 } });
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "dropped.example.com" });
    const partial = (await handlers.create(h.ctx, inputs).catch((e: unknown) => e)) as PartialFailureError;
    expect(partial).toBeInstanceOf(PartialFailureError);
    const { outs } = await handlers.update!(h.ctx, partial.id, partial.properties as unknown as OrderState, inputs);
    expect(outs?.certStatus).toBe(2);
    expect(outs?.verificationMethod).toBe("dns");
    // GetRecord carries no request_id (spec 4.6): the lost answer's id stays unknown rather than invented.
    expect(outs?.requestId).toBeUndefined();
    expect(count(await h.operations(), "ApplySign")).toBe(1);
  });
});

describe("CreateOrder whose answer is lost", () => {
  it("fails loudly, is not retried, and a rerun neither buys again nor guesses", async () => {
    await h.mgmt("PUT", "/faults", { CreateOrder: { commitThenFail: "500", times: 1 } });
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "lost.example.com" });
    const first = (await handlers.create(h.ctx, inputs).catch((e: unknown) => e)) as Error;
    expect(first.message).toMatch(/a CreateOrder for lost.example.com \(sandbox-dv-single\) was sent at .* Your account MAY have been charged\. Not retrying/);
    expect(first.message).toMatch(/set `adoptOrderNo: "<its order number>"`/);
    const journal = new PurchaseJournal(h.journalDir);
    expect(first.message).toContain(journal.fileFor(inputs.journalKey));
    expect(count(await h.operations(), "CreateOrder")).toBe(1);
    const bought = await ordersFor("lost.example.com");
    expect(bought).toHaveLength(1); // the sandbox did charge

    // The CLI runs create again (pending create): it must stop, not buy.
    await h.mgmt("DELETE", "/requests");
    const second = (await handlers.create(h.ctx, inputs).catch((e: unknown) => e)) as Error;
    expect(second.message).toMatch(/MAY have been charged/);
    expect(count(await h.operations(), "CreateOrder")).toBe(0);

    // The user checks the account and adopts the order: nothing bought, journal cleared.
    const { id, outs } = await createOrdered({ ...inputs, adoptOrderNo: bought[0]!.orderNo });
    expect(id).toBe(bought[0]!.orderNo);
    expect(outs.adopted).toBe(true);
    expect(outs.requestId).toMatch(/^SIG-/);
    expect(await journal.read(inputs.journalKey)).toBeUndefined();
    expect(await ordersFor("lost.example.com")).toHaveLength(1);
  });

  it("when nothing was bought, deleting the named journal entry lets the next run buy", async () => {
    await h.mgmt("PUT", "/faults", { CreateOrder: { reset: true, times: 1 } });
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "reset.example.com" });
    const error = (await handlers.create(h.ctx, inputs).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/MAY have been charged/);
    expect(await ordersFor("reset.example.com")).toHaveLength(0);
    fs.rmSync(new PurchaseJournal(h.journalDir).fileFor(inputs.journalKey));
    const { outs } = await createOrdered(inputs);
    expect(outs.orderNo).toMatch(/^CERT/);
    expect(await ordersFor("reset.example.com")).toHaveLength(1);
  });

  it("a refused CreateOrder says nothing was bought and leaves no journal entry", async () => {
    await h.mgmt("PUT", "/faults", { CreateOrder: { errorRate: 1, errorCode: 400, times: 1 } });
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "refused.example.com" });
    const error = (await handlers.create(h.ctx, inputs).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/CreateOrder was refused, nothing was bought: CreateOrder invalid_request 400/);
    expect(await new PurchaseJournal(h.journalDir).read(inputs.journalKey)).toBeUndefined();
    await handlers.create(h.ctx, inputs);
    expect(await ordersFor("refused.example.com")).toHaveLength(1);
  });
});

describe("purchase journal", () => {
  it("a create killed after CreateOrder answered is resumed from the journal, and the entry goes once the engine holds the order", async () => {
    const inputs = await h.plan({ productCode: "sandbox-dv-multi", domain: "killed.example.com", sanDomains: ["www.killed.example.com"] });
    // What the killed run did before dying: intent, CreateOrder, order number.
    const journal = new PurchaseJournal(h.journalDir);
    await journal.recordIntent({ key: inputs.journalKey, domain: inputs.domain, productCode: inputs.productCode, names: [inputs.domain, ...inputs.sanDomains].sort() });
    const created = await h.ctx.api().createOrder({ productCode: inputs.productCode, domain: inputs.domain, sanDomains: inputs.sanDomains });
    await journal.recordOrder(inputs.journalKey, created.orderNo, JSON.parse(JSON.stringify(created)));
    await h.mgmt("DELETE", "/requests");

    const { id, outs } = await createOrdered(inputs);
    expect(id).toBe(created.orderNo);
    expect(outs.price?.total).toBe("120.00");
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
    expect(h.lines.join("\n")).toMatch(new RegExp(`resuming order ${created.orderNo} bought by an interrupted run`));
    // The engine keeps that run's pending create: the line says which command clears it.
    expect(h.lines.join("\n")).toMatch(/pulumi refresh --yes --clear-pending-creates/);
    // create returned, but the engine may not have written state yet: the entry stays.
    expect((await journal.read(inputs.journalKey))?.orderNo).toBe(created.orderNo);
    await handlers.diff!(h.ctx, id, outs, inputs);
    expect(await journal.read(inputs.journalKey)).toBeUndefined();
  });

  it("resumes from a journal entry an earlier release wrote (another answer shape): the order number is enough", async () => {
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "older.example.com" });
    const journal = new PurchaseJournal(h.journalDir);
    await journal.recordIntent({ key: inputs.journalKey, domain: inputs.domain, productCode: inputs.productCode, names: [inputs.domain] });
    const created = await h.ctx.api().createOrder({ productCode: inputs.productCode, domain: inputs.domain });
    const olderShape = { orderNo: created.orderNo, price: { total: "100.00" }, certStatus: 0, orderStatus: 1, paidAt: "2026-11-22 09:30:00", records: [] };
    await journal.recordOrder(inputs.journalKey, created.orderNo, olderShape, new Date("2026-11-22T09:30:01Z"));
    await h.mgmt("DELETE", "/requests");
    const { id, outs } = await createOrdered(inputs);
    expect(id).toBe(created.orderNo);
    expect(outs.price).toBeUndefined();
    expect(outs.paidAt).toBe("2026-11-22T09:30:01.000Z");
    expect(outs.requestId).toMatch(/^SIG-/);
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
  });

  it("forgets a journal order that was since cancelled (e.g. its stack was removed without destroy) and buys", async () => {
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "stale.example.com" });
    const journal = new PurchaseJournal(h.journalDir);
    await journal.recordIntent({ key: inputs.journalKey, domain: inputs.domain, productCode: inputs.productCode, names: [inputs.domain] });
    const old = await h.ctx.api().createOrder({ productCode: inputs.productCode, domain: inputs.domain });
    await journal.recordOrder(inputs.journalKey, old.orderNo, JSON.parse(JSON.stringify(old)));
    await h.ctx.api().cancelOrder({ orderNo: old.orderNo });
    const { id } = await createOrdered(inputs);
    expect(id).not.toBe(old.orderNo);
    expect(h.lines.join("\n")).toMatch(new RegExp(`named order ${old.orderNo}, which is cancelled, refunded or gone; forgetting it`));
  });

  it("refuses to resume a journal order bought for other names", async () => {
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "changed.example.com" });
    const journal = new PurchaseJournal(h.journalDir);
    await journal.recordIntent({ key: inputs.journalKey, domain: "before.example.com", productCode: inputs.productCode, names: ["before.example.com"] });
    const before = await h.ctx.api().createOrder({ productCode: inputs.productCode, domain: "before.example.com" });
    await journal.recordOrder(inputs.journalKey, before.orderNo, {});
    await h.mgmt("DELETE", "/requests");
    const error = (await handlers.create(h.ctx, inputs).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(new RegExp(`holds order ${before.orderNo} .* for before.example.com .* now declares changed.example.com`));
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
  });

  it("entries are written atomically with private permissions", async () => {
    const journal = new PurchaseJournal(h.journalDir);
    await journal.recordIntent({ key: "p/s/perm", domain: "a.example.com", productCode: "x", names: ["a.example.com"] });
    expect(fs.statSync(journal.fileFor("p/s/perm")).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(h.journalDir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    await journal.clear("p/s/perm");
    expect(await journal.read("p/s/perm")).toBeUndefined();
  });
});

describe("adoption", () => {
  it("adopts an existing order of the account, verifying its names, without buying", async () => {
    const { id } = await h.buy({ productCode: "sandbox-dv-multi", domain: "adopt.example.com", sanDomains: ["www.adopt.example.com"] });
    await h.mgmt("DELETE", "/requests");
    const inputs = await h.plan({ productCode: "sandbox-dv-multi", domain: "adopt.example.com", sanDomains: ["www.adopt.example.com"], adoptOrderNo: id });
    expect(inputs.quotedPrice).toBe("0.00"); // the preview shows that adoption spends nothing
    const { outs } = await createOrdered(inputs);
    expect(outs.orderNo).toBe(id);
    expect(outs.adopted).toBe(true);
    expect(outs.price).toBeUndefined();
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
    // The adopted resource then previews as no change.
    expect(await handlers.diff!(h.ctx, id, outs, inputs)).toEqual({ changes: false });
  });

  it("refuses an order whose names differ", async () => {
    const { id } = await h.buy({ productCode: "sandbox-dv-single", domain: "mine.example.com" });
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "other.example.com", adoptOrderNo: id });
    await expect(handlers.create(h.ctx, inputs)).rejects.toThrow(/cannot adopt order .*: it covers mine.example.com but this Order declares other.example.com/);
  });

  it("refuses an order of another account (404) and one that does not exist", async () => {
    const otherAccount = new PartnerClient({ baseUrl: h.sandbox.url, apiKey: h.sandbox.accounts[1]!.apiKey });
    const theirs = await otherAccount.createOrder({ productCode: "sandbox-dv-single", domain: "theirs.example.com" });
    await otherAccount.close();
    const stolen = await h.plan({ productCode: "sandbox-dv-single", domain: "theirs.example.com", adoptOrderNo: theirs.orderNo });
    await expect(handlers.create(h.ctx, stolen)).rejects.toThrow(new RegExp(`cannot adopt order ${theirs.orderNo}: it does not exist or belongs to another account`));
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "ghost.example.com", adoptOrderNo: "CERT209901010000000000" });
    await expect(handlers.create(h.ctx, inputs)).rejects.toThrow(/cannot adopt order CERT209901010000000000: it does not exist or belongs to another account/);
  });
});
