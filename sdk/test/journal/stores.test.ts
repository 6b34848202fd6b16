// The journal's bucket stores against real servers on loopback, each through its cloud's own SDK: S3 against
// MinIO (which checks every signature), Google Cloud Storage against fake-gcs-server, Azure Blob against Azurite
// (which checks Shared Key signatures). The servers come from scripts/journal-stores/ (built once, cached).
import * as fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cachedBinary, FAKE_GCS, MINIO, startAzurite, startFakeGcs, startMinio, type RunningStore } from "../../../scripts/journal-stores/index.js";
import { skipWithout } from "../../../tests/support/ci.js";
import { openBucketStore, openJournal, PurchaseJournal, resetJournalCachesForTests, resetStoreClientsForTests, type JournalStore } from "../../src/journal/index.js";

const BUCKET = "journal-stores";
const log = (line: string): void => console.error(`[journal-stores] ${line}`);
// Provided (built or found cached) by the sdk project's global setup before any file runs.
const missing = (server: typeof MINIO): string | undefined =>
  fs.existsSync(cachedBinary(server)) ? undefined : `${server.label} is not at ${cachedBinary(server)} (sdk/test/journal/global-setup.ts builds it with Go)`;

interface Kind {
  name: string;
  scheme: string;
  missing?: string;
  start(): Promise<RunningStore>;
  /** The environment with the credentials replaced by wrong ones the server refuses; the secret given is `not-the-secret-123`. */
  wrongCredentials(env: Record<string, string>): Record<string, string>;
  /** What a refused write says. */
  refused: RegExp;
  missingBucket: RegExp;
}

const kinds: Kind[] = [
  {
    name: "S3 (MinIO)",
    scheme: "s3",
    missing: missing(MINIO),
    start: () => startMinio(log, [BUCKET]),
    wrongCredentials: (env) => ({ ...env, AWS_ACCESS_KEY_ID: env.AWS_ACCESS_KEY_ID!, AWS_SECRET_ACCESS_KEY: "not-the-secret-123" }),
    refused: /HTTP 403 SignatureDoesNotMatch/,
    missingBucket: /HTTP 404 NoSuchBucket/,
  },
  {
    name: "Google Cloud Storage (fake-gcs-server)",
    scheme: "gs",
    missing: missing(FAKE_GCS),
    start: () => startFakeGcs(log, [BUCKET]),
    // The emulator takes no credentials: refusal is checked on the other two.
    wrongCredentials: (env) => env,
    refused: /./,
    missingBucket: /HTTP 404/,
  },
  {
    name: "Azure Blob (Azurite)",
    scheme: "azblob",
    start: () => startAzurite(log, [BUCKET]),
    wrongCredentials: (env) => ({ ...env, AZURE_STORAGE_KEY: Buffer.from("not-the-secret-123").toString("base64") }),
    refused: /HTTP 403 AuthorizationFailure|HTTP 403 AuthenticationFailed/,
    missingBucket: /HTTP 404 ContainerNotFound/,
  },
];

describe.each(kinds)("the $name journal store", (kind) => {
  let server: RunningStore;
  const skip = skipWithout(kind.missing);
  beforeAll(async () => {
    if (!skip) server = await kind.start();
  }, 20 * 60_000);
  afterAll(async () => {
    await server?.stop();
  });
  const url = (prefix: string) => `${kind.scheme}://${BUCKET}/${prefix}`;
  const store = (prefix: string, options: { listPageSize?: number; env?: Record<string, string> } = {}): JournalStore => {
    resetStoreClientsForTests();
    return openBucketStore(url(prefix), { ...(options.listPageSize ? { listPageSize: options.listPageSize } : {}) }, options.env ?? server.env);
  };
  const run = (prefix: string) => `${prefix}-${Math.random().toString(16).slice(2)}`;

  it.skipIf(skip)("records intent, then the order, lists it, reads it back, then clears it", async () => {
    const journal = openJournal({ journalDir: "/nonexistent", journalUrl: url(run("runs")) }, server.env);
    const key = "org=organization;backend=abc;urn:pulumi:dev::proj::certreseller:index:Order::site";
    await journal.recordIntent({ key, domain: "example.com", productCode: "p", names: ["example.com"], purchaseDigest: "sha256:x" }, new Date("2026-11-22T09:30:00Z"));
    expect(await journal.read(key)).toMatchObject({ key, intentAt: "2026-11-22T09:30:00.000Z" });
    await journal.recordOrder(key, "CERT1", { orderNo: "CERT1" });
    const listed = await journal.list();
    expect(listed.map((l) => [l.location, l.entry?.orderNo])).toEqual([[journal.fileFor(key), "CERT1"]]);
    expect(journal.location).toMatch(new RegExp(`^${kind.scheme}://${BUCKET}/runs-`));
    await journal.markResumed(key, "CERT1");
    expect(await journal.resumedMark(key, "CERT1")).toMatchObject({ orderNo: "CERT1" });
    expect((await journal.list()).length).toBe(1); // the mark is not an entry
    await journal.clear(key);
    await journal.clear(key); // nothing to delete: no error
    expect(await journal.read(key)).toBeUndefined();
    expect(await journal.list()).toEqual([]);
  });

  it.skipIf(skip)("lists only the names in its prefix, over several pages, and refuses a name that climbs out of it", async () => {
    const prefix = run("many");
    const inside = store(prefix, { listPageSize: 5 });
    const names = Array.from({ length: 12 }, (_, i) => `${String(i).padStart(32, "0")}.json`);
    await Promise.all(names.map((name) => inside.put(name, "{}")));
    await store(`${prefix}-sibling`).put("outside.json", "{}");
    await store(`${prefix}/nested`).put("inside-a-folder.json", "{}");
    await inside.put("notes.resumed", "{}");
    expect(await store(`${prefix}-sibling`).list()).toEqual(["outside.json"]);
    expect(await inside.list()).toEqual(names);
    for (const name of ["../climbed.json", "a/b.json", ".."]) await expect(inside.put(name, "{}"), name).rejects.toThrow(/is not a purchase journal entry name/);
    expect(await store("").get("climbed.json")).toBeUndefined();
  });

  it.skipIf(skip || kind.scheme !== "gs")("reaches the emulator when the process's own environment names it host:port, as Pulumi's gs backend reads it", async () => {
    const saved = process.env.STORAGE_EMULATOR_HOST;
    process.env.STORAGE_EMULATOR_HOST = server.env.STORAGE_EMULATOR_HOST;
    try {
      const s = store(run("process-env"), { env: process.env as Record<string, string> });
      await s.put("x.json", "{}");
      expect(await s.get("x.json")).toBe("{}");
    } finally {
      if (saved === undefined) delete process.env.STORAGE_EMULATOR_HOST;
      else process.env.STORAGE_EMULATOR_HOST = saved;
    }
  });

  it.skipIf(skip)("an entry over 1 MiB is not read to its end", async () => {
    const s = store(run("big"));
    await s.put("big.json", "x".repeat(1024 * 1024 + 10));
    await expect(s.get("big.json")).rejects.toThrow(/could not read the purchase journal .*big\.json: the answer exceeded 1048576 bytes/);
  });

  it.skipIf(skip || kind.scheme === "gs")("refuses credentials the server does not know, and the secret is in no message", async () => {
    const journal = new PurchaseJournal(store(run("denied"), { env: kind.wrongCredentials(server.env) }));
    const error = (await journal.recordIntent({ key: "k", domain: "d", productCode: "p", names: [] }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(new RegExp(`could not write the purchase journal ${kind.scheme}://${BUCKET}/denied-[0-9a-f]+/[0-9a-f]{32}\\.json: `));
    expect(error.message).toMatch(kind.refused);
    expect(error.cause).toBeDefined();
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain("not-the-secret-123");
  });

  it.skipIf(skip)("a missing bucket fails the write instead of pretending the intent is stored", async () => {
    resetStoreClientsForTests();
    const journal = new PurchaseJournal(openBucketStore(`${kind.scheme}://no-such-bucket/p`, {}, server.env));
    await expect(journal.recordIntent({ key: "k", domain: "d", productCode: "p", names: [] })).rejects.toThrow(kind.missingBucket);
  });

  it.skipIf(skip)("a store that is down fails a write (nothing is bought) and a read within the deadline, and tidying's listing reads as unknown", async () => {
    const down = { ...server.env };
    const deadPort = "127.0.0.1:9";
    if (kind.scheme === "s3") down.AWS_ENDPOINT_URL_S3 = `http://${deadPort}`;
    if (kind.scheme === "gs") down.STORAGE_EMULATOR_HOST = `http://${deadPort}`;
    if (kind.scheme === "azblob") down.AZURE_STORAGE_DOMAIN = deadPort;
    resetStoreClientsForTests();
    resetJournalCachesForTests();
    const journal = new PurchaseJournal(openBucketStore(url("down"), { deadlineMs: 3_000 }, down));
    const started = Date.now();
    await expect(journal.recordIntent({ key: "k", domain: "d", productCode: "p", names: [] })).rejects.toThrow(/could not write the purchase journal/);
    await expect(journal.read("k")).rejects.toThrow(/could not read the purchase journal/);
    expect(await journal.listedNames()).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);
});
