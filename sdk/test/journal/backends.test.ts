import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileStore, openJournal, parseS3Url, PurchaseJournal, S3Store } from "../../src/journal/index.js";
import { startLocalS3, type LocalS3 } from "./s3-server.js";

let s3: LocalS3;
let dir: string;
beforeAll(async () => {
  s3 = await startLocalS3();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "journal-backends-"));
});
afterAll(async () => {
  await s3?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const backends = () => [
  { name: "file", journal: () => new PurchaseJournal(new FileStore(path.join(dir, `f-${Math.random()}`))) },
  {
    name: "s3",
    journal: () => openJournal({ journalDir: "/nonexistent", journalUrl: `s3://${s3.bucket}/runs/${Math.random().toString(16).slice(2)}` }, s3.env),
  },
];

describe.each(["file", "s3"])("the %s journal", (kind) => {
  const make = () => backends().find((b) => b.name === kind)!.journal();

  it("records intent, then the order, lists it, then clears it", async () => {
    const journal = make();
    const key = "org=acme;backend=abc;urn:pulumi:dev::proj::pulumi-nodejs:dynamic/certreseller:Order::site";
    await journal.recordIntent({ key, domain: "example.com", productCode: "p", names: ["example.com"], purchaseDigest: "sha256:x" }, new Date("2026-11-22T09:30:00Z"));
    expect(await journal.read(key)).toMatchObject({ key, purchaseDigest: "sha256:x", intentAt: "2026-11-22T09:30:00.000Z" });
    expect(await journal.read(`${key}-other`)).toBeUndefined();
    await journal.recordOrder(key, "CERT1", { orderNo: "CERT1" }, new Date("2026-11-22T09:30:01Z"));
    const listed = await journal.list();
    expect(listed).toHaveLength(1);
    expect(listed[0]!.entry).toMatchObject({ orderNo: "CERT1", orderedAt: "2026-11-22T09:30:01.000Z" });
    expect(listed[0]!.location).toBe(journal.fileFor(key));
    await journal.clear(key);
    expect(await journal.read(key)).toBeUndefined();
    expect(await journal.list()).toEqual([]);
    await journal.clear(key); // idempotent
  });

  it("says when an entry is corrupt, naming where it is", async () => {
    const journal = make();
    await journal.store.put(PurchaseJournal.nameFor("k"), "{ torn");
    await expect(journal.read("k")).rejects.toThrow(/is corrupt; inspect it, then delete it/);
    expect((await journal.list())[0]!.error).toMatch(/corrupt/);
  });
});

describe("the S3 journal against a real S3 server", () => {
  it("signs with the AWS credentials: an unknown key is refused, and the secret is in no message", async () => {
    const journal = openJournal(
      { journalDir: "/nonexistent", journalUrl: `s3://${s3.bucket}/denied` },
      { ...s3.env, AWS_ACCESS_KEY_ID: "SOMEONE-ELSE", AWS_SECRET_ACCESS_KEY: "not-the-secret-123" },
    );
    const error = await journal.recordIntent({ key: "k", domain: "d", productCode: "p", names: [] }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/could not write the purchase journal s3:\/\/certreseller-journal\/denied\/[0-9a-f]{32}\.json: HTTP 403/);
    expect((error as Error).message).not.toContain("not-the-secret-123");
  });

  it("a missing bucket fails the write instead of pretending the intent is stored", async () => {
    const journal = openJournal({ journalDir: "/x", journalUrl: "s3://no-such-bucket/p" }, s3.env);
    await expect(journal.recordIntent({ key: "k", domain: "d", productCode: "p", names: [] })).rejects.toThrow(/HTTP 404 NoSuchBucket/);
  });

  it("lists past one page of results", async () => {
    const store = new S3Store(parseS3Url(`s3://${s3.bucket}/many`, s3.env).location, parseS3Url("s3://b", s3.env).credentials);
    // s3rver pages at max-keys (1000 by default); write few and check the listing is exact and in the prefix only.
    await Promise.all(Array.from({ length: 12 }, (_, i) => store.put(`${String(i).padStart(32, "0")}.json`, "{}")));
    await store.put("../outside.json", "{}").catch(() => undefined);
    expect(await store.list()).toHaveLength(12);
  });

  it("refuses plain http to a non-loopback endpoint and credentials inside the URL", () => {
    expect(() => openJournal({ journalDir: "/x", journalUrl: "s3://b/p?endpoint=http://minio.internal:9000" }, {})).toThrow(/plain http on a non-loopback host/);
    expect(() => openJournal({ journalDir: "/x", journalUrl: "s3://AKIA:secret@b/p" }, {})).toThrow(/must not hold credentials/);
    expect(parseS3Url("s3://b/p/", { AWS_DEFAULT_REGION: "eu-west-1" }).location).toEqual({ bucket: "b", prefix: "p", region: "eu-west-1", endpoint: undefined, pathStyle: false });
  });
});
