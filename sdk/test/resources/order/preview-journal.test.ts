// A preview reads the purchase journal as the create will (issue: after a
// killed `up`, the preview said "will buy" where `up` resumed the order, or
// stopped). Each case: what check says and returns, and what create then does.
import { describe, expect, it } from "vitest";
import { journalEntryKey, PurchaseJournal, purchaseDigest, type JournalEntry } from "../../../src/journal/index.js";
import { summarize, headline, report } from "../../../src/money/summary.js";
import { handlers } from "../../../src/resources/order/handlers.js";
import type { InputRecord, OrderInputs } from "../../../src/resources/order/inputs.js";
import { purchaseInputsOf } from "../../../src/resources/order/journal-entry.js";
import { count, PROVIDER_TEXT, useHarness } from "./harness.js";

const h = useHarness({}, { requests: true });
let n = 0;

/** A create that bought and was killed before the engine recorded it: the journal holds the order. */
async function interrupted(raw: Record<string, unknown>, answered = true): Promise<{ journalKey: string; orderNo?: string; entry: JournalEntry }> {
  const journalKey = `urn:pulumi:dev::proj::pulumi-nodejs:dynamic/certreseller:Order::preview-${++n}`;
  const inputs = (await handlers.check!(h.ctx, {} as OrderInputs, { journalKey, ...raw } as unknown as OrderInputs)).inputs!;
  const journal = new PurchaseJournal(h.journalDir);
  const key = journalEntryKey(inputs);
  const entry = await journal.recordIntent({
    key,
    domain: inputs.domain,
    productCode: inputs.productCode,
    names: [inputs.domain],
    purchaseDigest: purchaseDigest(inputs as unknown as InputRecord, purchaseInputsOf(inputs as unknown as InputRecord)),
  });
  if (!answered) return { journalKey, entry };
  const bought = await h.ctx.api().createOrder({ productCode: inputs.productCode, domain: inputs.domain, months: inputs.months } as never);
  return { journalKey, orderNo: bought.orderNo, entry: await journal.recordOrder(key, bought.orderNo, { ...bought }) };
}

const preview = (journalKey: string, raw: Record<string, unknown>) => handlers.check!(h.ctx, {} as OrderInputs, { journalKey, ...raw } as unknown as OrderInputs);

describe("the preview after a killed up", () => {
  it("same inputs: 'will resume order …', no 'will buy', and the money reading counts no charge; create resumes it", async () => {
    const raw = { productCode: "sandbox-dv-single", domain: "preview-resume.example.com" };
    const { journalKey, orderNo } = await interrupted(raw);
    h.lines.length = 0;
    const planned = await preview(journalKey, raw);
    expect(planned.failures).toEqual([]);
    expect(planned.inputs!.resumesOrderNo).toBe(orderNo);
    expect(h.lines.join("\n")).toMatch(new RegExp(`will resume order ${orderNo} .*nothing is bought`));
    expect(h.lines.join("\n")).not.toMatch(/will buy/);
    const summary = summarize([{ op: "create", urn: `${journalKey}`, type: "pulumi-nodejs:dynamic/certreseller:Order", new: planned.inputs as unknown as Record<string, unknown> }], new Date());
    expect([summary.spend, summary.buys, summary.resumes]).toEqual([0, [], [{ name: journalKey.slice(journalKey.lastIndexOf("::") + 2), orderNo }]]);
    expect(headline(summary)).toMatch(/^buys nothing, resumes 1 bought by an interrupted run \(no charge\)/);
    expect(report(summary).join("\n")).toContain(`resume  ${journalKey.slice(journalKey.lastIndexOf("::") + 2)}: order ${orderNo}`);

    await h.mgmt("DELETE", "/requests");
    const created = await handlers.create(h.ctx, { ...planned.inputs!, __provider: PROVIDER_TEXT } as OrderInputs);
    expect(created.id).toBe(orderNo);
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
    expect((created.outs as Record<string, unknown>).resumesOrderNo).toBeUndefined();
  });

  it("changed purchase inputs: the preview fails with what `up` will say (the order, adopt or cancel), and buys nothing", async () => {
    const raw = { productCode: "sandbox-dv-single", domain: "preview-changed.example.com" };
    const { journalKey, orderNo } = await interrupted(raw);
    h.lines.length = 0;
    const planned = await preview(journalKey, { ...raw, months: 24 });
    expect(planned.failures).toEqual([
      expect.objectContaining({ reason: expect.stringMatching(new RegExp(`^\`up\` will stop before buying: .*holds order ${orderNo} .*Not buying`, "s")) }),
    ]);
    expect(h.lines.join("\n")).not.toMatch(/will buy/);
  });

  it("a lost answer: the preview fails with 'MAY have been charged' and the ways on", async () => {
    const raw = { productCode: "sandbox-dv-single", domain: "preview-lost.example.com" };
    const { journalKey } = await interrupted(raw, false);
    const planned = await preview(journalKey, raw);
    expect(planned.failures).toEqual([expect.objectContaining({ reason: expect.stringMatching(/^`up` will stop before buying: .*MAY have been charged/s) })]);
  });

  it("an order the API shows refunded: the preview says `up` forgets it and buys, and prices the purchase", async () => {
    const raw = { productCode: "sandbox-dv-single", domain: "preview-refunded.example.com" };
    const { journalKey, orderNo } = await interrupted(raw);
    await h.ctx.api().cancelOrder({ orderNo: orderNo!, reason: "outside Pulumi" });
    h.lines.length = 0;
    const planned = await preview(journalKey, raw);
    expect(planned.failures).toEqual([]);
    expect(planned.inputs!.resumesOrderNo).toBeUndefined();
    expect(h.lines.join("\n")).toMatch(new RegExp(`names order ${orderNo}, which the API shows cancelled, refunded or gone: \`up\` forgets it and buys`));
    expect(h.lines.join("\n")).toMatch(/will buy sandbox-dv-single \(12 months\) for preview-refunded\.example\.com: 100\.00/);
  });

  it("a replacement right after the up that bought: the entry is the replaced resource's order (its diff tidies it first), so the preview prices the new purchase", async () => {
    const { id, inputs } = await h.buy({ productCode: "sandbox-dv-single", domain: "preview-replace.example.com" });
    expect((await new PurchaseJournal(h.journalDir).read(journalEntryKey(inputs)))?.orderNo).toBe(id);
    h.lines.length = 0;
    const planned = await handlers.check!(h.ctx, inputs, { ...inputs, months: 24, years: undefined, quotedPrice: undefined } as unknown as OrderInputs);
    expect(planned.failures).toEqual([]);
    expect(planned.inputs!.resumesOrderNo).toBeUndefined();
    expect(h.lines.join("\n")).toMatch(/will buy sandbox-dv-single \(24 months\) for preview-replace\.example\.com/);
  });

  it("the preview planned a resume (no charge) but the order is refunded by the time of the create: nothing is bought, the create says to preview again", async () => {
    const raw = { productCode: "sandbox-dv-single", domain: "preview-then-refunded.example.com" };
    const { journalKey, orderNo } = await interrupted(raw);
    const planned = await preview(journalKey, raw);
    expect(planned.inputs!.resumesOrderNo).toBe(orderNo);
    await h.ctx.api().cancelOrder({ orderNo: orderNo!, reason: "outside Pulumi" });
    await h.mgmt("DELETE", "/requests");
    await expect(handlers.create(h.ctx, { ...planned.inputs!, __provider: PROVIDER_TEXT } as OrderInputs)).rejects.toThrow(
      new RegExp(`the preview planned to resume order ${orderNo} .*Nothing was bought`),
    );
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
  });

  it("a journal that cannot be read fails a purchase's preview, as the create would stop", async () => {
    const raw = { productCode: "sandbox-dv-single", domain: "preview-unreadable.example.com" };
    const planned = await handlers.check!(
      { ...h.ctx, settings: { ...h.ctx.settings, journalDir: "/dev/null/not-a-dir" } },
      {} as OrderInputs,
      { journalKey: "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/certreseller:Order::unreadable", ...raw } as unknown as OrderInputs,
    );
    expect(planned.failures).toEqual([expect.objectContaining({ reason: expect.stringMatching(/^`up` will stop before buying: the purchase journal \/dev\/null\/not-a-dir .*could not be read/) })]);
  });
});
