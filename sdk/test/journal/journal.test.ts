import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FileStore, forgetOrder, PurchaseJournal } from "../../src/journal/index.js";

let dir: string;
beforeEach(() => {
  dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "journal-test-")), "nested", "journal");
});
afterEach(() => fs.rmSync(path.dirname(path.dirname(dir)), { recursive: true, force: true }));

describe("PurchaseJournal", () => {
  it("records intent, then the order, then clears; creates its directory privately", async () => {
    const journal = new PurchaseJournal(dir);
    const at = new Date("2026-11-22T09:30:00Z");
    await journal.recordIntent({ key: "proj/dev/site", domain: "example.com", productCode: "p", names: ["example.com"], quotedPrice: "100.00" }, at);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(await journal.read("proj/dev/site")).toEqual({
      version: 1,
      key: "proj/dev/site",
      domain: "example.com",
      productCode: "p",
      names: ["example.com"],
      quotedPrice: "100.00",
      intentAt: "2026-11-22T09:30:00.000Z",
    });
    await journal.recordOrder("proj/dev/site", "CERT1", { orderNo: "CERT1" }, new Date("2026-11-22T09:30:01Z"));
    expect(await journal.read("proj/dev/site")).toMatchObject({ orderNo: "CERT1", orderedAt: "2026-11-22T09:30:01.000Z", order: { orderNo: "CERT1" } });
    await journal.clear("proj/dev/site");
    expect(await journal.read("proj/dev/site")).toBeUndefined();
    await journal.clear("proj/dev/site"); // idempotent
  });

  it("keeps resources apart and is safe for any resource name", async () => {
    const journal = new PurchaseJournal(dir);
    await journal.recordIntent({ key: "proj/dev/a", domain: "a.example.com", productCode: "p", names: [] });
    await journal.recordIntent({ key: "proj/dev/../../etc", domain: "b.example.com", productCode: "p", names: [] });
    expect((await journal.read("proj/dev/a"))?.domain).toBe("a.example.com");
    expect((await journal.read("proj/dev/../../etc"))?.domain).toBe("b.example.com");
    expect(path.dirname(journal.fileFor("proj/dev/../../etc"))).toBe(dir);
  });

  it("refuses to record an order without an intent, and says when an entry is corrupt", async () => {
    const journal = new PurchaseJournal(dir);
    await expect(journal.recordOrder("x/y/z", "CERT1", {})).rejects.toThrow(/no purchase intent recorded for x\/y\/z/);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(journal.fileFor("x/y/z"), "{ torn");
    await expect(journal.read("x/y/z")).rejects.toThrow(/is corrupt; inspect it, then delete it/);
  });
});

describe("tidying (forgetOrder)", () => {
  afterEach(() => vi.restoreAllMocks());
  const urn = (name: string) => `urn:pulumi:dev::site::pulumi-nodejs:dynamic/certreseller:Order::${name}`;

  it("lists the journal once per process and reads only the entries listed: a settled stack costs no read per Order", async () => {
    const journal = new PurchaseJournal(dir);
    await journal.recordIntent({ key: urn("held"), domain: "held.example.com", productCode: "p", names: [] });
    await journal.recordOrder(urn("held"), "CERT1", { orderNo: "CERT1" });
    const list = vi.spyOn(FileStore.prototype, "list");
    const get = vi.spyOn(FileStore.prototype, "get");
    for (let i = 0; i < 20; i++) await forgetOrder({ journalDir: dir }, { journalKey: urn(`settled-${i}`) }, { orderNo: `CERT-S${i}` });
    expect(list).toHaveBeenCalledTimes(1);
    expect(get).not.toHaveBeenCalled();
    // The one entry that is there is still read, and removed only for its own order.
    await forgetOrder({ journalDir: dir }, { journalKey: urn("held") }, { orderNo: "CERT-OTHER" });
    expect(await journal.read(urn("held"))).toMatchObject({ orderNo: "CERT1" });
    await forgetOrder({ journalDir: dir }, { journalKey: urn("held") }, { orderNo: "CERT1" });
    expect(await journal.read(urn("held"))).toBeUndefined();
    expect(list).toHaveBeenCalledTimes(1);
  });

  it("keeps the listing current with this process's own writes, so an entry written after it is still tidied", async () => {
    const journal = new PurchaseJournal(dir);
    await forgetOrder({ journalDir: dir }, { journalKey: urn("first") }, { orderNo: "CERT0" }); // takes the listing (empty)
    await journal.recordIntent({ key: urn("later"), domain: "later.example.com", productCode: "p", names: [] });
    await journal.recordOrder(urn("later"), "CERT2", { orderNo: "CERT2" });
    await forgetOrder({ journalDir: dir }, { journalKey: urn("later") }, { orderNo: "CERT2" });
    expect(await journal.read(urn("later"))).toBeUndefined();
    expect(await journal.listedNames()).toEqual(new Set());
  });

  it("reads every key when the journal cannot be listed (e.g. no s3:ListBucket)", async () => {
    const journal = new PurchaseJournal(dir);
    await journal.recordIntent({ key: urn("unlisted"), domain: "u.example.com", productCode: "p", names: [] });
    await journal.recordOrder(urn("unlisted"), "CERT3", { orderNo: "CERT3" });
    vi.spyOn(FileStore.prototype, "list").mockRejectedValue(new Error("AccessDenied"));
    await forgetOrder({ journalDir: dir }, { journalKey: urn("unlisted") }, { orderNo: "CERT3" });
    expect(await journal.read(urn("unlisted"))).toBeUndefined();
  });
});
