import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
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

  it("refuses an entry name that is not one plain file name, so nothing lands outside the journal", async () => {
    const journal = make();
    for (const name of ["../outside.json", "sub/inside.json", ".."]) {
      await expect(journal.store.put(name, "{}"), name).rejects.toThrow(/is not a purchase journal entry name/);
    }
    expect(await journal.list()).toEqual([]);
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

  it("lists only the names in its prefix: not the bucket's root, a sibling prefix sharing its start, or a folder inside it", async () => {
    const store = new S3Store(parseS3Url(`s3://${s3.bucket}/many`, s3.env).location, parseS3Url("s3://b", s3.env).credentials);
    const names = Array.from({ length: 12 }, (_, i) => `${String(i).padStart(32, "0")}.json`);
    await Promise.all(names.map((name) => store.put(name, "{}")));
    // Each written where it claims (a failed put throws), so the listing below has something to leave out.
    const root = new S3Store({ ...store.where, prefix: "" }, parseS3Url("s3://b", s3.env).credentials);
    await root.put("outside.json", "{}");
    await new S3Store({ ...store.where, prefix: "many-sibling" }, parseS3Url("s3://b", s3.env).credentials).put("outside.json", "{}");
    await new S3Store({ ...store.where, prefix: "many/nested" }, parseS3Url("s3://b", s3.env).credentials).put("inside-a-folder.json", "{}");
    expect(await root.list()).toEqual(["outside.json"]);
    expect(await new S3Store({ ...store.where, prefix: "many-sibling" }, parseS3Url("s3://b", s3.env).credentials).list()).toEqual(["outside.json"]);
    expect(await store.list()).toEqual(names);
  });

  it("refuses a name that climbs out of its prefix, before any request", async () => {
    const store = new S3Store(parseS3Url(`s3://${s3.bucket}/climb`, s3.env).location, parseS3Url("s3://b", s3.env).credentials);
    for (const name of ["../climbed.json", "a/b.json", "..", "", "x\\y.json"]) {
      await expect(store.put(name, "{}"), name).rejects.toThrow(/is not a purchase journal entry name/);
      await expect(store.get(name), name).rejects.toThrow(/is not a purchase journal entry name/);
      await expect(store.delete(name), name).rejects.toThrow(/is not a purchase journal entry name/);
    }
    const root = new S3Store({ ...store.where, prefix: "" }, parseS3Url("s3://b", s3.env).credentials);
    expect(await root.get("climbed.json")).toBeUndefined();
  });

  it("refuses a listing page size S3 does not take", () => {
    const where = parseS3Url(`s3://${s3.bucket}/p`, s3.env).location;
    expect(new S3Store(where, undefined).listPageSize).toBe(1000);
    for (const listPageSize of [0, 1001, 2.5]) expect(() => new S3Store(where, undefined, { listPageSize })).toThrow(/listPageSize must be a whole number from 1 to 1000/);
  });

  it("refuses plain http to a non-loopback endpoint and credentials inside the URL", () => {
    expect(() => openJournal({ journalDir: "/x", journalUrl: "s3://b/p?endpoint=http://minio.internal:9000" }, {})).toThrow(/plain http on a non-loopback host/);
    expect(() => openJournal({ journalDir: "/x", journalUrl: "s3://AKIA:secret@b/p" }, {})).toThrow(/must not hold credentials/);
    expect(parseS3Url("s3://b/p/", { AWS_DEFAULT_REGION: "eu-west-1" }).location).toEqual({ bucket: "b", prefix: "p", region: "eu-west-1", endpoint: undefined, pathStyle: false });
    expect(parseS3Url("s3://b/p?endpoint=127.0.0.1:9000&disableSSL=true", {}).location.endpoint).toBe("http://127.0.0.1:9000");
    expect(parseS3Url("s3://b/p?endpoint=minio.acme:9000", {}).location.endpoint).toBe("https://minio.acme:9000");
    expect(parseS3Url("s3://b/p?s3ForcePathStyle=true&profile=ci&awssdk=v2", {}).location).toEqual({ bucket: "b", prefix: "p", region: undefined, endpoint: undefined, pathStyle: true, profile: "ci" });
  });
});

// s3rver cannot page: its continuation tokens are DES-encrypted, which OpenSSL 3 no longer offers, so any truncated
// listing is an HTTP 500. Paging is checked against a ListObjectsV2 of its own that honours max-keys and the token.
describe("the S3 journal's listing past one page", () => {
  it("follows the continuation token over every page (three of five keys for twelve entries), asking the page size it was given", async () => {
    const names = Array.from({ length: 12 }, (_, i) => `${String(i).padStart(32, "0")}.json`);
    const bucket = await pagingS3([...names.map((n) => `many/${n}`), "many/nested/x.json", "many/notes.txt", "other/y.json"]);
    try {
      const store = new S3Store({ bucket: "b", prefix: "many", region: "us-east-1", endpoint: bucket.endpoint, pathStyle: true }, { accessKeyId: "k", secretAccessKey: "s" }, { listPageSize: 5 });
      expect(await store.list()).toEqual(names);
      expect(bucket.lists.map((q) => [q.get("max-keys"), q.get("prefix"), q.get("continuation-token")])).toEqual([
        ["5", "many/", null],
        ["5", "many/", "after many/00000000000000000000000000000004.json & more"],
        ["5", "many/", "after many/00000000000000000000000000000009.json & more"],
      ]);
    } finally {
      await bucket.close();
    }
  });
});

/**
 * ListObjectsV2 over `keys` on 127.0.0.1: `prefix`, `max-keys` and an opaque
 * `continuation-token` (XML-escaped in the answer, as S3 does), each listing's
 * query recorded.
 */
async function pagingS3(keys: string[]): Promise<{ endpoint: string; lists: URLSearchParams[]; close(): Promise<void> }> {
  const lists: URLSearchParams[] = [];
  const sorted = [...keys].sort();
  const server = http.createServer((req, res) => {
    const query = new URL(req.url ?? "/", "http://s3").searchParams;
    lists.push(query);
    const prefix = query.get("prefix") ?? "";
    const pageSize = Number(query.get("max-keys") ?? "1000");
    const after = /^after (.*) & more$/.exec(query.get("continuation-token") ?? "")?.[1];
    const matching = sorted.filter((k) => k.startsWith(prefix) && (after === undefined || k > after));
    const page = matching.slice(0, pageSize);
    const truncated = matching.length > pageSize;
    const escape = (text: string) => text.replace(/&/g, "&amp;");
    res.writeHead(200, { "content-type": "application/xml" });
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><KeyCount>${page.length}</KeyCount><MaxKeys>${pageSize}</MaxKeys>` +
        page.map((k) => `<Contents><Key>${escape(k)}</Key></Contents>`).join("") +
        `<IsTruncated>${truncated}</IsTruncated>${truncated ? `<NextContinuationToken>${escape(`after ${page.at(-1)} & more`)}</NextContinuationToken>` : ""}</ListBucketResult>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lists,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
