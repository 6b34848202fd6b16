// The purchase journal is bookkeeping around the money: it must never hold up
// a refund, never be blind to an entry of the same resource written under
// another spelling of the backend, and never keep an intent that the state
// proves settled.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { journalEntryKey, PurchaseJournal, resetJournalCachesForTests } from "../../../src/journal/index.js";
import { createContext, PartialFailureError } from "../../../src/provider/index.js";
import { handlers } from "../../../src/resources/order/handlers.js";
import type { OrderInputs } from "../../../src/resources/order/inputs.js";
import type { OrderState } from "../../../src/resources/order/state.js";
import { count, failureOf, useHarness } from "./harness.js";

const h = useHarness({}, { faults: true, requests: true });
afterEach(() => vi.restoreAllMocks());

async function sandboxOrder(orderNo: string): Promise<{ certificates: { status: number }[]; refunded?: boolean } & Record<string, unknown>> {
  return (await h.mgmt("GET", `/orders/${orderNo}`)) as { certificates: { status: number }[] } & Record<string, unknown>;
}
/** A resource of the current journal key format: organisation, backend fingerprint, URN. */
const scoped = (name: string) => ({ journalKey: `urn:pulumi:dev::proj::pulumi-nodejs:dynamic/certreseller:Order::${name}`, journalScope: "org=acme" });

describe("destroy refunds even when the journal cannot be read or written", () => {
  it("cancels and refunds first; the journal's failure is a warning naming the entry to remove", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "unjournaled-destroy.example.com", ...scoped("unjournaled-destroy") });
    // The journal location is now a file: every read, listing and write fails (ENOTDIR), as on a broken mount.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "broken-journal-"));
    onTestFinished(() => fs.rmSync(folder, { recursive: true, force: true }));
    const broken = path.join(folder, "not-a-dir");
    fs.writeFileSync(broken, "");
    const lines: string[] = [];
    const ctx = createContext({
      type: "Order",
      settings: { apiKey: h.sandbox.accounts[0]!.apiKey, baseUrl: h.sandbox.url, journalDir: broken },
      sink: (level, line) => lines.push(`${level}: ${line}`),
    });
    await h.mgmt("DELETE", "/requests");
    await handlers.delete!(ctx, id, outs);
    expect(count(await h.operations(), "CancelOrder")).toBe(1);
    expect((await sandboxOrder(id)).certificates[0]!.status).toBe(5);
    const log = lines.join("\n");
    expect(log).toMatch(/cancelled; refunded/);
    expect(log).toMatch(/warn: .*could not tidy the purchase journal .*An entry for order CERT\d+ may be left at .*not-a-dir\/[0-9a-f]{32}\.json: remove it with `CERTRESELLER_JOURNAL_DIR=.* npx --no-install certreseller journal rm [0-9a-f]{32}`/);
  });
});

describe("an entry of the same resource under another backend fingerprint", () => {
  const journal = () => new PurchaseJournal(h.journalDir);

  /** A create that bought and then stopped (ApplySign failed, state lost), its entry moved under another fingerprint. */
  async function interruptedElsewhere(name: string, domain: string): Promise<{ inputs: OrderInputs; orderNo: string; foreignKey: string }> {
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain, ...scoped(name) });
    await h.mgmt("PUT", "/faults", { ApplySign: { errorRate: 1, errorCode: 500, times: 1 } });
    const partial = (await failureOf(handlers.create(h.ctx, inputs))) as PartialFailureError;
    expect(partial).toBeInstanceOf(PartialFailureError);
    const entry = (await journal().read(journalEntryKey(inputs)))!;
    const foreignKey = journalEntryKey(inputs, "0f0f0f0f0f0f0f0f");
    // As the other run wrote it: the same entry under its key.
    await journal().store.put(PurchaseJournal.nameFor(foreignKey), JSON.stringify({ ...entry, key: foreignKey }));
    await journal().clear(entry.key);
    resetJournalCachesForTests(); // the next run is a new provider process
    await h.mgmt("DELETE", "/requests");
    return { inputs, orderNo: partial.id, foreignKey };
  }

  // Every self-managed backend's organisation is `organization`: another backend's stack of the same project, stack and
  // resource name reads as this resource. Resuming its order would let either stack's destroy cancel the other's.
  it("is never resumed, even for the same purchase: the create stops naming both keys, the order and the ways on; nothing bought", async () => {
    const { inputs, orderNo, foreignKey } = await interruptedElsewhere("fp-resume", "fp-resume.example.com");
    const error = await failureOf(handlers.create(h.ctx, inputs));
    expect(error.message).toMatch(new RegExp(`holds order ${orderNo} .*under another backend`));
    expect(error.message).toContain(`key ${foreignKey}`);
    expect(error.message).toContain(`key ${journalEntryKey(inputs)}`);
    expect(error.message).toContain(`adoptOrderNo: "${orderNo}"`);
    expect(error.message).toContain(`journal rm ${PurchaseJournal.nameFor(foreignKey).replace(/\.json$/, "")}`);
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
    expect((await journal().read(foreignKey))?.orderNo).toBe(orderNo);
    expect(await journal().read(journalEntryKey(inputs))).toBeUndefined();

    // The user says it is this stack's: adopted, nothing bought; once this stack holds it, the other entry goes.
    const { id, outs } = await handlers.create(h.ctx, { ...inputs, adoptOrderNo: orderNo });
    expect(id).toBe(orderNo);
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
    await handlers.diff!(h.ctx, id, outs as OrderState, { ...inputs, adoptOrderNo: orderNo });
    expect(await journal().read(foreignKey)).toBeUndefined();
  });

  it("stops before buying, naming both keys, when it was bought for other purchase inputs", async () => {
    const { inputs, orderNo, foreignKey } = await interruptedElsewhere("fp-other", "fp-other.example.com");
    const changed = { ...inputs, months: 24, years: 2 };
    const error = await failureOf(handlers.create(h.ctx, changed));
    expect(error.message).toMatch(new RegExp(`holds order ${orderNo} .*Not buying`));
    expect(error.message).toContain(journal().fileFor(foreignKey));
    expect(error.message).toContain(`key ${journalEntryKey(changed)}`);
    expect(error.message).toMatch(/under another backend/);
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
  });

  it("an intent with a lost answer stops before buying (MAY have been charged), naming both entries", async () => {
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "fp-lost.example.com", ...scoped("fp-lost") });
    const foreignKey = journalEntryKey(inputs, "0e0e0e0e0e0e0e0e");
    await journal().recordIntent({ key: foreignKey, domain: inputs.domain, productCode: inputs.productCode, names: [inputs.domain] });
    const error = await failureOf(handlers.create(h.ctx, inputs));
    expect(error.message).toMatch(/MAY have been charged/);
    expect(error.message).toContain(journal().fileFor(foreignKey));
    expect(error.message).toContain(journal().fileFor(journalEntryKey(inputs)));
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
  });

  it("another organisation's entry for the same URN is not this resource's", async () => {
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "fp-org.example.com", ...scoped("fp-org") });
    await journal().recordIntent({ key: journalEntryKey({ ...inputs, journalScope: "org=other" }, "0d0d0d0d0d0d0d0d"), domain: inputs.domain, productCode: inputs.productCode, names: [] });
    const { id } = await handlers.create(h.ctx, inputs);
    expect(id).toMatch(/^CERT/);
  });
});

describe("an intent whose order reached state but not the journal", () => {
  const journal = () => new PurchaseJournal(h.journalDir);

  /** create with the journal's recordOrder failing once (an S3 PUT answering 500): the order goes to state, the intent stays. */
  async function boughtWithoutRecord(name: string, domain: string) {
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain, ...scoped(name) });
    vi.spyOn(PurchaseJournal.prototype, "recordOrder").mockRejectedValueOnce(new Error("S3 PUT answered 500"));
    const { id, outs } = await handlers.create(h.ctx, inputs);
    vi.restoreAllMocks();
    const intent = await journal().read(journalEntryKey(inputs));
    expect(intent?.intentAt).toBeTruthy();
    expect(intent?.orderNo).toBeUndefined();
    return { inputs, id, outs: outs as OrderState };
  }

  it("is closed by the next diff, which says so; destroy then recreate buys without 'MAY have been charged'", async () => {
    const { inputs, id, outs } = await boughtWithoutRecord("stale-intent", "stale-intent.example.com");
    expect(h.lines.join("\n")).toMatch(/could not be written to the purchase journal/);
    await handlers.diff!(h.ctx, id, outs, inputs);
    expect(await journal().read(journalEntryKey(inputs))).toBeUndefined();
    expect(h.lines.join("\n")).toMatch(new RegExp(`closed the purchase journal's intent of .* order ${id} in state is that purchase`));
    await handlers.delete!(h.ctx, id, outs);
    const again = await handlers.create(h.ctx, inputs);
    expect(again.id).not.toBe(id);
  });

  it("is closed by destroy too (no diff in between), so the next create under the URN buys", async () => {
    const { inputs, id, outs } = await boughtWithoutRecord("stale-destroy", "stale-destroy.example.com");
    await handlers.delete!(h.ctx, id, outs);
    const again = await handlers.create(h.ctx, inputs);
    expect(again.id).toMatch(/^CERT/);
    expect(again.id).not.toBe(id);
  });

  it("is NOT closed when the order in state was bought before the intent (a later purchase's answer was lost)", async () => {
    const { outs: held, inputs, id } = await h.buy({ productCode: "sandbox-dv-single", domain: "later-intent.example.com", ...scoped("later-intent") });
    await handlers.diff!(h.ctx, id, held, inputs);
    const later = await journal().recordIntent(
      { key: journalEntryKey(inputs), domain: inputs.domain, productCode: inputs.productCode, names: [inputs.domain], purchaseDigest: "sha256:same-or-not" },
      new Date(Date.parse(held.paidAt!) + 60_000),
    );
    await handlers.diff!(h.ctx, id, held, inputs);
    expect((await journal().read(journalEntryKey(inputs)))?.intentAt).toBe(later.intentAt);
  });

  it("is NOT closed for other purchase inputs", async () => {
    const { inputs, id, outs } = await boughtWithoutRecord("stale-other", "stale-other.example.com");
    await handlers.diff!(h.ctx, id, { ...outs, months: 24 }, inputs);
    expect((await journal().read(journalEntryKey(inputs)))?.orderNo).toBeUndefined();
    expect(await journal().read(journalEntryKey(inputs))).toBeDefined();
  });
});

describe("adoptOrderNo and an intent whose answer was lost", () => {
  const journal = () => new PurchaseJournal(h.journalDir);

  /** An intent under this resource's key, as a create whose CreateOrder answer was lost leaves it. */
  async function lostAnswer(inputs: OrderInputs, names: string[] = [inputs.domain]) {
    return journal().recordIntent({ key: journalEntryKey(inputs), domain: inputs.domain, productCode: inputs.productCode, names });
  }

  it("keeps the intent, and warns naming it, when the adopted order was already submitted (bought and signed before)", async () => {
    const older = await h.buy({ productCode: "sandbox-dv-single", domain: "adopt-older.example.com", ...scoped("adopt-older-source") });
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "adopt-older.example.com", ...scoped("adopt-older") });
    const intent = await lostAnswer(inputs);
    const { id } = await handlers.create(h.ctx, { ...inputs, adoptOrderNo: older.id });
    expect(id).toBe(older.id);
    expect((await journal().read(journalEntryKey(inputs)))?.intentAt).toBe(intent.intentAt);
    expect(h.lines.join("\n")).toMatch(
      new RegExp(`intent of ${intent.intentAt} .*MAY have been charged.* is KEPT: order ${older.id} adopted now cannot be that purchase \\(order ${older.id} was already submitted`),
    );
  });

  it("keeps the intent when it was for other names", async () => {
    const other = await h.ctx.api().createOrder({ productCode: "sandbox-dv-single", domain: "adopt-names.example.com", months: 12 } as never);
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "adopt-names.example.com", ...scoped("adopt-names") });
    await lostAnswer(inputs, ["adopt-names-before-edit.example.com"]);
    await handlers.create(h.ctx, { ...inputs, adoptOrderNo: other.orderNo });
    expect((await journal().read(journalEntryKey(inputs)))?.orderNo).toBeUndefined();
    expect((await journal().read(journalEntryKey(inputs)))?.intentAt).toBeTruthy();
    expect(h.lines.join("\n")).toMatch(/the intent was for adopt-names-before-edit\.example\.com/);
  });

  it("settles the intent when the adopted order could be its purchase (same names and product, never submitted)", async () => {
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "adopt-lost.example.com", ...scoped("adopt-lost") });
    await lostAnswer(inputs);
    const found = await h.ctx.api().createOrder({ productCode: "sandbox-dv-single", domain: "adopt-lost.example.com", months: 12 } as never);
    await handlers.create(h.ctx, { ...inputs, adoptOrderNo: found.orderNo });
    expect(await journal().read(journalEntryKey(inputs))).toBeUndefined();
    expect(h.lines.join("\n")).not.toMatch(/is KEPT/);
    expect(h.lines.join("\n")).toMatch(/settles the purchase journal's entry .*pulumi refresh --yes --clear-pending-creates/);
  });
});

describe("an entry written under no organisation (the plugin before its organization setting)", () => {
  const journal = () => new PurchaseJournal(h.journalDir);
  const unscopedOf = (inputs: OrderInputs) => journalEntryKey({ journalKey: inputs.journalKey, journalScope: "org=organization" });

  it("stops the create before buying, whatever the check said, naming the entry and the way on", async () => {
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "unscoped-create.example.com", ...scoped("unscoped-create") });
    await journal().recordIntent({ key: unscopedOf(inputs), domain: inputs.domain, productCode: inputs.productCode, names: [inputs.domain] });
    const error = await failureOf(handlers.create(h.ctx, inputs));
    expect(error.message).toMatch(/written under no organisation .*MAY have been charged|MAY have been charged.*written under no organisation/);
    expect(error.message).toContain(`journal rm ${PurchaseJournal.nameFor(unscopedOf(inputs)).replace(/\.json$/, "")}`);
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
  });

  it("is tidied by the diff of the Order that holds its order, so that Order's replacement can buy", async () => {
    const { id, outs, inputs } = await h.buy({ productCode: "sandbox-dv-single", domain: "unscoped-held.example.com", ...scoped("unscoped-held") });
    const bought = await journal().recordIntent({ key: unscopedOf(inputs), domain: inputs.domain, productCode: inputs.productCode, names: [inputs.domain] });
    await journal().recordOrder(bought.key, id, { orderNo: id });
    await handlers.diff!(h.ctx, id, outs, inputs);
    expect(await journal().read(unscopedOf(inputs))).toBeUndefined();
  });
});
