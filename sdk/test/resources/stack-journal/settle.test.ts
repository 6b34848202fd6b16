// The StackJournal's delete refunds what a killed `up` bought and the engine
// never recorded, through the Order's own delete, and touches nothing a state
// may hold: an entry whose create returned, an order adopted elsewhere,
// another backend's stack of the same name. Its check names those entries in
// a plugin program's preview.
import { describe, expect, it } from "vitest";
import { journalEntryKey, PurchaseJournal, resetJournalCachesForTests, type JournalEntry } from "../../../src/journal/index.js";
import { createContext, PartialFailureError } from "../../../src/provider/index.js";
import { handlers as orderHandlers } from "../../../src/resources/order/handlers.js";
import type { OrderInputs } from "../../../src/resources/order/inputs.js";
import { handlers } from "../../../src/resources/stack-journal/handlers.js";
import { noteDeclaredOrder, resetDeclaredOrdersForTests } from "../../../src/resources/shared/declared-orders.js";
import type { StackJournalState } from "../../../src/resources/stack-journal/settle.js";
import { count, failureOf, useHarness } from "../order/harness.js";

const h = useHarness({}, { faults: true, requests: true });

const SCOPE = "org=acme";
const orderUrn = (name: string, stack = "dev") => `urn:pulumi:${stack}::proj::certreseller:index:Order::${name}`;
const STACK_JOURNAL: StackJournalState = { journalKey: "urn:pulumi:dev::proj::certreseller:index:StackJournal::journal", journalScope: SCOPE };
const journal = () => new PurchaseJournal(h.journalDir);

async function sandboxOrder(orderNo: string): Promise<{ certificates: { status: number }[] } & Record<string, unknown>> {
  return (await h.mgmt("GET", `/orders/${orderNo}`)) as { certificates: { status: number }[] };
}

/**
 * A create that bought and was killed before it returned: the journal holds
 * the order number and no `returnedAt` (a partial failure's entry, with the
 * mark the kill never let it write taken off).
 */
async function killedCreate(name: string, stack = "dev"): Promise<{ inputs: OrderInputs; orderNo: string; entry: JournalEntry }> {
  const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: `${name}.example.com`, journalKey: orderUrn(name, stack), journalScope: SCOPE });
  await h.mgmt("PUT", "/faults", { ApplySign: { errorRate: 1, errorCode: 500, times: 1 } });
  const partial = (await failureOf(orderHandlers.create(h.ctx, inputs))) as PartialFailureError;
  expect(partial).toBeInstanceOf(PartialFailureError);
  const key = journalEntryKey(inputs);
  const returned = (await journal().read(key))!;
  expect(returned.returnedAt, "a create that failed after buying hands the order back").toBeDefined();
  const { returnedAt: _, ...entry } = returned;
  await journal().store.put(PurchaseJournal.nameFor(key), JSON.stringify(entry));
  resetJournalCachesForTests();
  await h.mgmt("DELETE", "/requests");
  await h.mgmt("DELETE", "/faults");
  return { inputs, orderNo: partial.id, entry };
}

describe("StackJournal delete (pulumi destroy)", () => {
  it("refunds a paid order whose create never returned, once, and removes its entry", async () => {
    const { orderNo, entry } = await killedCreate("killed");
    await handlers.delete!(h.ctx, "stack-journal", STACK_JOURNAL);
    expect(count(await h.operations(), "CancelOrder")).toBe(1);
    expect((await sandboxOrder(orderNo)).certificates[0]!.status).toBe(5);
    expect(await journal().read(entry.key)).toBeUndefined();
    expect(h.lines.join("\n")).toMatch(new RegExp(`order ${orderNo} for "killed" was bought by a create the engine never recorded`));
    expect(h.lines.join("\n")).toMatch(new RegExp(`order ${orderNo} cancelled; refunded`));
    // A second destroy finds nothing left.
    await h.mgmt("DELETE", "/requests");
    await handlers.delete!(h.ctx, "stack-journal", STACK_JOURNAL);
    expect(count(await h.operations(), "CancelOrder")).toBe(0);
  });

  it("leaves an order whose create returned to the Order that holds it (its delete cancels it; retainOnDelete keeps it)", async () => {
    const { id, inputs } = await h.buy({ productCode: "sandbox-dv-single", domain: "returned.example.com", journalKey: orderUrn("returned"), journalScope: SCOPE });
    expect((await journal().read(journalEntryKey(inputs)))?.returnedAt).toBeDefined();
    await h.mgmt("DELETE", "/requests");
    await handlers.delete!(h.ctx, "stack-journal", STACK_JOURNAL);
    expect(count(await h.operations(), "CancelOrder")).toBe(0);
    expect((await sandboxOrder(id)).certificates[0]!.status).not.toBe(5);
  });

  it("never cancels an order another Order adopted after the kill", async () => {
    const { orderNo } = await killedCreate("adopted-elsewhere");
    await h.buy({ productCode: "sandbox-dv-single", domain: "adopted-elsewhere.example.com", adoptOrderNo: orderNo, journalKey: orderUrn("keeper"), journalScope: SCOPE });
    await h.mgmt("DELETE", "/requests");
    await handlers.delete!(h.ctx, "stack-journal", STACK_JOURNAL);
    expect(count(await h.operations(), "CancelOrder")).toBe(0);
    expect((await sandboxOrder(orderNo)).certificates[0]!.status).not.toBe(5);
  });

  it("names a lost answer (it cannot be cancelled without a number) and another stack's entry, and cancels neither", async () => {
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "lost.example.com", journalKey: orderUrn("lost"), journalScope: SCOPE });
    await journal().recordIntent({ key: journalEntryKey(inputs), urn: inputs.journalKey, domain: "lost.example.com", productCode: "sandbox-dv-single", names: ["lost.example.com"] });
    const { orderNo: otherStacks } = await killedCreate("elsewhere", "prod");
    const foreignKey = journalEntryKey({ journalKey: orderUrn("foreign"), journalScope: SCOPE }, "0f0f0f0f0f0f0f0f");
    await journal().store.put(
      PurchaseJournal.nameFor(foreignKey),
      JSON.stringify({ version: 1, key: foreignKey, urn: orderUrn("foreign"), domain: "f.example.com", productCode: "sandbox-dv-single", names: ["f.example.com"], intentAt: new Date().toISOString(), orderNo: "CERT0" }),
    );
    resetJournalCachesForTests();
    h.lines.length = 0;
    await handlers.delete!(h.ctx, "stack-journal", STACK_JOURNAL);
    expect(count(await h.operations(), "CancelOrder")).toBe(0);
    const log = h.lines.join("\n");
    expect(log).toMatch(/warn: .*a purchase of lost\.example\.com \(sandbox-dv-single\) for "lost" sent .* whose answer was lost: the account MAY have been charged/);
    expect(log).toMatch(/warn: .*order CERT0 for "foreign" of a stack of this name under another backend or organisation .*left alone/);
    expect(log).not.toContain(otherStacks);
    expect((await sandboxOrder(otherStacks)).certificates[0]!.status).not.toBe(5);
  });

  it("fails (the resource stays, the next destroy tries again) when the API refuses without proof", async () => {
    const { orderNo, entry } = await killedCreate("refused");
    await h.mgmt("PUT", "/faults", { CancelOrder: { errorRate: 1, errorCode: 500, times: 1 } });
    const error = await failureOf(handlers.delete!(h.ctx, "stack-journal", STACK_JOURNAL));
    expect(error.message).toMatch(new RegExp(`paid order that no state holds could not be refunded: order ${orderNo} for "refused"`));
    expect(error.message).toMatch(/run `pulumi destroy` again/);
    expect((await journal().read(entry.key))?.orderNo).toBe(orderNo);
    await h.mgmt("DELETE", "/faults");
    await handlers.delete!(h.ctx, "stack-journal", STACK_JOURNAL);
    expect((await sandboxOrder(orderNo)).certificates[0]!.status).toBe(5);
  });

  it("does not hold up a destroy when the journal cannot be read", async () => {
    const ctx = createContext({ type: "StackJournal", settings: { ...h.ctx.settings, journalDir: "/dev/null/not-a-dir" }, sink: (level, line) => h.lines.push(`${level}: ${line}`) });
    await handlers.delete!(ctx, "stack-journal", STACK_JOURNAL);
    expect(h.lines.join("\n")).toMatch(/warn: .*could not read the purchase journal/);
  });
});

describe("StackJournal check (a plugin program's preview)", () => {
  it("names an entry whose Order no check of this process saw; quiet for a declared Order and in TypeScript programs", async () => {
    const { orderNo } = await killedCreate("orphan-preview");
    resetDeclaredOrdersForTests(); // the next preview's process: the killed run's Order is not declared any more
    h.lines.length = 0;
    await handlers.check!(h.ctx, {} as StackJournalState, { ...STACK_JOURNAL, orphanReport: "program" });
    expect(h.lines.join("\n")).not.toContain(orderNo);
    await handlers.check!(h.ctx, {} as StackJournalState, STACK_JOURNAL);
    expect(h.lines.join("\n")).toMatch(new RegExp(`warn: .*holds PAID order ${orderNo} .* for "orphan-preview"\\. .*\`pulumi destroy\` refunds it`));
    h.lines.length = 0;
    noteDeclaredOrder(orderUrn("orphan-preview"));
    await handlers.check!(h.ctx, {} as StackJournalState, STACK_JOURNAL);
    expect(h.lines.join("\n")).not.toContain(orderNo);
    expect(count(await h.operations(), "CancelOrder")).toBe(0);
  });
});
