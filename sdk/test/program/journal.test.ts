// The program side of the purchase journal (sdk/src/program/journal.ts): the
// end-of-program check for paid orders no Order of the stack owns.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PurchaseJournal } from "../../src/journal/index.js";
import { orphanWarnings } from "../../src/program/journal.js";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "journal-orphans-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the orphan check (program side)", () => {
  const urn = "urn:pulumi:dev::site::pulumi-nodejs:dynamic/certreseller:Order::web";
  const stack = { project: "site", stack: "dev", organization: "acme" };

  it("reports a declared resource's entries under two backend fingerprints; one entry is left to the provider", async () => {
    const journal = new PurchaseJournal(dir);
    await journal.recordIntent({ key: `org=acme;backend=aaaaaaaaaaaaaaaa;${urn}`, urn, domain: "web.example.com", productCode: "p", names: [] });
    await journal.recordOrder(`org=acme;backend=aaaaaaaaaaaaaaaa;${urn}`, "CERT1", { orderNo: "CERT1" });
    expect(await orphanWarnings(new Set([urn]), stack, journal)).toEqual([]);
    await journal.recordIntent({ key: `org=acme;backend=bbbbbbbbbbbbbbbb;${urn}`, urn, domain: "web.example.com", productCode: "p", names: [] });
    const [warning, ...rest] = await orphanWarnings(new Set([urn]), stack, journal);
    expect(rest).toEqual([]);
    expect(warning).toMatch(/holds 2 entries for web under different backend fingerprints: /);
    expect(warning).toContain("order CERT1 (backend aaaaaaaaaaaaaaaa)");
    expect(warning).toMatch(/a lost answer of \S+ \(backend bbbbbbbbbbbbbbbb\)/);
    // Another organisation's entries are not this stack's.
    expect(await orphanWarnings(new Set([urn]), { ...stack, organization: "other" }, journal)).toEqual([]);
  });
});
