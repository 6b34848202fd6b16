// An entry the plugin journaled under no organisation (before the `organization` setting) is never skipped
// silently on Pulumi Cloud: the Order's preview stops, naming it and the ways on.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PurchaseJournal } from "../../src/journal/journal.js";
import { journalEntryKey } from "../../src/journal/key.js";
import { unscopedEntryStop } from "../../src/plugin/unscoped-entry.js";

const urn = "urn:pulumi:dev::shop::certreseller:index:Order::site";

describe("an Order's entry journaled under no organisation", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  async function journalWith(orderNo?: string): Promise<string> {
    const journalDir = fs.mkdtempSync(path.join(os.tmpdir(), "unscoped-"));
    dirs.push(journalDir);
    const journal = new PurchaseJournal(journalDir);
    const key = journalEntryKey({ journalKey: urn, journalScope: "org=organization" });
    await journal.recordIntent({ key, urn, domain: "www.example.com", productCode: "dv", names: ["www.example.com"] });
    if (orderNo) await journal.recordOrder(key, orderNo, {});
    return journalDir;
  }

  it("stops the preview of an organisation's Order on a lost answer, naming the entry's purchase and the rm command", async () => {
    const journalDir = await journalWith();
    const stop = await unscopedEntryStop({ journalDir }, urn, "org=acme", false);
    expect(stop).toMatch(/www\.example\.com \(dv\).*MAY have been charged/);
    expect(stop).toMatch(/journal rm [0-9a-f]+/);
    expect(stop).toMatch(/Nothing was bought/);
    // Even with the Order in state: a lost answer is never taken as settled.
    const inState = await unscopedEntryStop({ journalDir }, urn, "org=acme", true);
    expect(inState).toMatch(/www\.example\.com \(dv\).*MAY have been charged/);
    expect(inState).toMatch(/journal rm [0-9a-f]+/);
  });

  it("says nothing under the unscoped scope (self-managed backends), or for a bought order the Order already holds", async () => {
    const journalDir = await journalWith("CERT-1");
    expect(await unscopedEntryStop({ journalDir }, urn, "org=organization", false)).toBeUndefined();
    expect(await unscopedEntryStop({ journalDir }, urn, "org=acme", true)).toBeUndefined();
    expect(await unscopedEntryStop({ journalDir }, urn, "org=acme", false)).toMatch(/order CERT-1.*adoptOrderNo`: "CERT-1"/);
  });
});
