/**
 * A targeted replacement (`pulumi up --replace`) right after the up that
 * bought the order: the engine calls no diff first, so the purchase journal
 * still holds the order, and the replacement's create resumes it. The
 * replaced resource's delete then names the order the replacement holds: it
 * must not cancel it (the certificate in use would be revoked and the state
 * would hold a cancelled order), in this process or the next one.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { journalEntryKey, PurchaseJournal, resetJournalCachesForTests } from "../../../src/journal/index.js";
import { createContext } from "../../../src/provider/index.js";
import { handlers } from "../../../src/resources/order/handlers.js";
import type { OrderState } from "../../../src/resources/order/state.js";
import { count, useHarness } from "./harness.js";

const h = useHarness({}, { requests: true });

it("the replacement resumes the journaled order, and the old one's delete does not cancel it; the next replacement buys", async () => {
  const { id, outs, inputs } = await h.buy({ productCode: "sandbox-dv-single", domain: "replace-after-create.example.com" });
  const lines: string[] = [];
  const ctx = createContext({ type: "Order", settings: h.ctx.settings, sink: (level, line) => lines.push(`${level}: ${line}`) });
  await h.mgmt("DELETE", "/requests");

  const replacement = await handlers.create(ctx, inputs);
  expect(replacement.id).toBe(id);
  const resumedAt = (replacement.outs as OrderState).resumedAt;
  expect(resumedAt).toBeTruthy();
  // The mark is in the journal, not only in this process: the delete may come from the next run (a kill in between).
  expect((await new PurchaseJournal(h.journalDir).resumedMark(inputs.journalKey, id))?.resumedAt).toBe(resumedAt);
  await handlers.delete!(ctx, id, outs as OrderState);
  expect(count(await h.operations(), "CancelOrder")).toBe(0);
  expect(lines.join("\n")).toMatch(new RegExp(`order ${id} is not cancelled: the purchase journal shows that a create of this resource resumed it at ${resumedAt}`));
  const stored = (await h.mgmt("GET", `/orders/${id}`)) as { certStatus: number };
  expect(stored.certStatus).toBe(2);
  // Same process: the engine recorded the replacement before this delete, so the entry goes.
  expect(await new PurchaseJournal(h.journalDir).read(inputs.journalKey)).toBeUndefined();

  // Run again: the journal is tidy, so the replacement buys, and the old order (held by the resumer itself) is cancelled.
  const again = await handlers.create(ctx, inputs);
  expect(again.id).not.toBe(id);
  await handlers.delete!(ctx, id, replacement.outs as OrderState);
  const ops = await h.operations();
  expect([count(ops, "CreateOrder"), count(ops, "CancelOrder")]).toEqual([1, 1]);
});

it("a mark written by another process (killed between the replacement's create and this delete) is read from the journal: not cancelled, entry kept", async () => {
  const { id, outs, inputs } = await h.buy({ productCode: "sandbox-dv-single", domain: "replace-next-run.example.com" });
  const journal = new PurchaseJournal(h.journalDir);
  // What the killed run's replacement create left: its mark. The replacement's diff in the next run may tidy the entry
  // before the engine deletes the replaced resource: the mark is apart from the entry, and survives that.
  const marked = await journal.markResumed(inputs.journalKey, id, new Date(Date.now() + 1000));
  resetJournalCachesForTests();
  const lines: string[] = [];
  const nextRun = createContext({ type: "Order", settings: h.ctx.settings, sink: (level, line) => lines.push(`${level}: ${line}`) });
  await handlers.diff!(nextRun, id, { ...(outs as OrderState), resumedAt: marked.resumedAt }, inputs);
  expect(await journal.read(inputs.journalKey)).toBeUndefined();
  await h.mgmt("DELETE", "/requests");
  await handlers.delete!(nextRun, id, outs as OrderState);
  expect(count(await h.operations(), "CancelOrder")).toBe(0);
  expect(lines.join("\n")).toMatch(/If no Order of the stack holds CERT\d+ now .*paid and untracked/);
  // The mark stays (a repeated delete must skip again); the resumer's own destroy cancels and removes it.
  expect(await journal.resumedMark(inputs.journalKey, id)).toEqual(marked);
  await handlers.delete!(nextRun, id, { ...(outs as OrderState), resumedAt: marked.resumedAt });
  expect(count(await h.operations(), "CancelOrder")).toBe(1);
  expect(await journal.resumedMark(inputs.journalKey, id)).toBeUndefined();
});

it("the resumer's own destroy cancels the order it resumed, though the entry still carries the mark", async () => {
  const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "resumer-destroy.example.com" });
  const journal = new PurchaseJournal(h.journalDir);
  // A create that bought and was killed before the engine recorded it: the journal holds the order.
  const bought = await h.ctx.api().createOrder({ productCode: "sandbox-dv-single", domain: inputs.domain, months: 12 } as never);
  await journal.recordIntent({ key: inputs.journalKey, domain: inputs.domain, productCode: inputs.productCode, names: [inputs.domain] });
  await journal.recordOrder(inputs.journalKey, bought.orderNo, { ...bought });
  const resumed = await handlers.create(h.ctx, inputs);
  expect(resumed.id).toBe(bought.orderNo);
  await handlers.delete!(h.ctx, resumed.id, resumed.outs as OrderState);
  expect(count(await h.operations(), "CancelOrder")).toBe(1);
  expect(await journal.read(inputs.journalKey)).toBeUndefined();
  expect(await journal.resumedMark(inputs.journalKey, bought.orderNo)).toBeUndefined();
});

describe("the resumed mark, as the engine may order things (a review's cases)", () => {
  it("a repeated delete of the replaced resource (the engine died before recording the first) skips the cancel again", async () => {
    const { id, outs, inputs } = await h.buy({ productCode: "sandbox-dv-single", domain: "mark-repeat.example.com" });
    const replacement = await handlers.create(h.ctx, inputs);
    await h.mgmt("DELETE", "/requests");
    await handlers.delete!(h.ctx, id, outs as OrderState);
    await handlers.delete!(h.ctx, id, outs as OrderState);
    expect(count(await h.operations(), "CancelOrder")).toBe(0);
    // The resumer's own destroy cancels it, and takes its mark along.
    await handlers.delete!(h.ctx, id, replacement.outs as OrderState);
    expect(count(await h.operations(), "CancelOrder")).toBe(1);
    expect(await new PurchaseJournal(h.journalDir).resumedMark(inputs.journalKey, id)).toBeUndefined();
  });

  it("a mark left by a resume that never became the live resource is removed by the live resource's diff, so its destroy cancels", async () => {
    const { id, outs, inputs } = await h.buy({ productCode: "sandbox-dv-single", domain: "mark-stale.example.com" });
    const journal = new PurchaseJournal(h.journalDir);
    // `up --replace` killed during the replacement's create: its mark was written, the engine never recorded it.
    await journal.markResumed(inputs.journalKey, id, new Date(Date.now() + 1000));
    await handlers.diff!(h.ctx, id, outs as OrderState, inputs);
    expect(await journal.resumedMark(inputs.journalKey, id)).toBeUndefined();
    await h.mgmt("DELETE", "/requests");
    await handlers.delete!(h.ctx, id, outs as OrderState);
    expect(count(await h.operations(), "CancelOrder")).toBe(1);
  });

  it("the mark is found through another spelling of the backend (it is named without the fingerprint)", async () => {
    const urn = "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/certreseller:Order::mark-backend";
    const journal = new PurchaseJournal(h.journalDir);
    const written = await journal.markResumed(journalEntryKey({ journalKey: urn, journalScope: "org=acme" }, "1111111111111111"), "CERT1");
    expect(await journal.resumedMark(journalEntryKey({ journalKey: urn, journalScope: "org=acme" }, "2222222222222222"), "CERT1")).toEqual(written);
    expect(await journal.resumedMark(journalEntryKey({ journalKey: urn, journalScope: "org=other" }, "2222222222222222"), "CERT1")).toBeUndefined();
  });

  it("`up --replace` of an Order that adopted its order: the replacement adopts it again, and the replaced resource's delete does not cancel it", async () => {
    const bought = await h.ctx.api().createOrder({ productCode: "sandbox-dv-single", domain: "mark-adopt.example.com", months: 12 } as never);
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "mark-adopt.example.com", adoptOrderNo: bought.orderNo });
    const first = await handlers.create(h.ctx, inputs);
    const second = await handlers.create(h.ctx, inputs);
    expect((second.outs as OrderState).resumedAt).not.toBe((first.outs as OrderState).resumedAt);
    await h.mgmt("DELETE", "/requests");
    await handlers.delete!(h.ctx, bought.orderNo, first.outs as OrderState);
    expect(count(await h.operations(), "CancelOrder")).toBe(0);
    await handlers.delete!(h.ctx, bought.orderNo, second.outs as OrderState);
    expect(count(await h.operations(), "CancelOrder")).toBe(1);
  });
});

it("the replaced resource's delete, with the journal unreadable by then, still knows from this process that its replacement resumed the order", async () => {
  const { id, outs, inputs } = await h.buy({ productCode: "sandbox-dv-single", domain: "mark-unreadable.example.com" });
  await handlers.create(h.ctx, inputs);
  const broken = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "broken-journal-")), "not-a-dir");
  fs.writeFileSync(broken, "");
  onTestFinished(() => fs.rmSync(path.dirname(broken), { recursive: true, force: true }));
  const unreadable = createContext({ type: "Order", settings: { ...h.ctx.settings, journalDir: broken } });
  await h.mgmt("DELETE", "/requests");
  await handlers.delete!(unreadable, id, outs as OrderState);
  expect(count(await h.operations(), "CancelOrder")).toBe(0);
});
