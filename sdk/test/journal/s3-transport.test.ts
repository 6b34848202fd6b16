// The S3 journal's transport discipline, against misbehaving S3 endpoints
// (plain node:http servers on 127.0.0.1): one deadline per store call, a cap
// on every answer, and no plain http off loopback.
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { openJournal, S3Store, type S3Location } from "../../src/journal/index.js";

const credentials = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "not-the-secret-123" };

interface FakeS3 {
  endpoint: string;
  /** Requests received, as `METHOD path`. */
  requests: string[];
  /** Body bytes written to every answer so far. */
  bytesWritten(): number;
  close(): Promise<void>;
}

const servers: FakeS3[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function fakeS3(answer: (req: http.IncomingMessage, res: http.ServerResponse, count: (n: number) => void) => void): Promise<FakeS3> {
  const requests: string[] = [];
  let written = 0;
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    answer(req, res, (n) => (written += n));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const fake: FakeS3 = {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    bytesWritten: () => written,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(fake);
  return fake;
}

function at(endpoint: string, extra: Partial<S3Location> = {}): S3Location {
  return { bucket: "b", prefix: "p", region: "us-east-1", endpoint, pathStyle: true, ...extra };
}

/** Writes `chunk` as fast as the client reads, `total` bytes in all (forever when Infinity), then ends. */
function flood(res: http.ServerResponse, chunk: Buffer, total: number, count: (n: number) => void): void {
  let sent = 0;
  const pump = (): void => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      count(chunk.length);
      if (!res.write(chunk)) return void res.once("drain", pump);
    }
    if (!res.destroyed) res.end();
  };
  res.on("close", () => (sent = total));
  pump();
}

const calls: Array<{ op: string; what: string; object: string; run: (store: S3Store) => Promise<unknown> }> = [
  { op: "get", what: "read", object: "s3://b/p/x.json", run: (s) => s.get("x.json") },
  { op: "put", what: "write", object: "s3://b/p/x.json", run: (s) => s.put("x.json", "{}") },
  { op: "delete", what: "delete", object: "s3://b/p/x.json", run: (s) => s.delete("x.json") },
  { op: "list", what: "list", object: "s3://b/p", run: (s) => s.list() },
];

describe("the S3 journal's deadline", () => {
  it.each(calls)("$op fails within one deadline when the answer trickles and never completes", async ({ what, object, run }) => {
    // Headers at once, then one byte every 100 ms of a body that never ends: each byte resets a per-read idle timer.
    const s3 = await fakeS3((_req, res) => {
      res.writeHead(200, { "content-type": "application/xml", "content-length": "1000000" });
      const timer = setInterval(() => res.write("<"), 100);
      res.on("close", () => clearInterval(timer));
    });
    const store = new S3Store(at(s3.endpoint), credentials, { deadlineMs: 1_000 });
    const started = Date.now();
    const error = (await run(store).then(
      () => undefined,
      (e: unknown) => e,
    )) as Error;
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe(`certreseller: could not ${what} the purchase journal ${object}: no complete answer within 1000 ms (the journal's deadline)`);
    expect(error.cause).toBeDefined();
    // One attempt, cut off by the deadline (the trickle alone would take over a day); the bound only catches a hang.
    expect(s3.requests).toHaveLength(1);
    expect(elapsed).toBeLessThan(8_000);
  }, 20_000);

  it("covers every attempt and the waits between them: a server that never answers is not tried three times over", async () => {
    const s3 = await fakeS3(() => undefined);
    const store = new S3Store(at(s3.endpoint), credentials, { deadlineMs: 800 });
    const started = Date.now();
    await expect(store.get("x.json")).rejects.toThrow("could not read the purchase journal s3://b/p/x.json: no complete answer within 800 ms");
    // One request: a deadline per attempt would have sent three. The bound only catches a hang.
    expect(s3.requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(8_000);
  }, 20_000);

  it("covers every page of a listing: a server announcing pages forever is cut off", async () => {
    let page = 0;
    const s3 = await fakeS3((_req, res) => {
      page++;
      res.writeHead(200, { "content-type": "application/xml" });
      res.end(`<ListBucketResult><IsTruncated>true</IsTruncated><NextContinuationToken>t${page}</NextContinuationToken></ListBucketResult>`);
    });
    const store = new S3Store(at(s3.endpoint), credentials, { deadlineMs: 500 });
    await expect(store.list()).rejects.toThrow("could not list the purchase journal s3://b/p: no complete answer within 500 ms");
    expect(page).toBeGreaterThan(1);
  }, 10_000);

  it("defaults to 30 s and refuses a deadline that is not a positive number", () => {
    expect(new S3Store(at("http://127.0.0.1:1"), credentials).deadlineMs).toBe(30_000);
    expect(() => new S3Store(at("http://127.0.0.1:1"), credentials, { deadlineMs: 0 })).toThrow(/deadlineMs must be a positive number/);
  });
});

describe("the S3 journal's answer cap", () => {
  it("a GET of an entry fails past 1 MiB without reading the rest of a huge body, and is not retried", async () => {
    const s3 = await fakeS3((_req, res, count) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(64 * 1024 * 1024) });
      flood(res, Buffer.alloc(64 * 1024, "a"), 64 * 1024 * 1024, count);
    });
    const store = new S3Store(at(s3.endpoint), credentials);
    const error = (await store.get("x.json").catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe("certreseller: could not read the purchase journal s3://b/p/x.json: the answer exceeded 1048576 bytes");
    expect((error.cause as { code?: string }).code).toBe("CERTRESELLER_ANSWER_TOO_LARGE");
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The server wrote the cap plus what the sockets' buffers held, not 64 MiB.
    expect(s3.bytesWritten()).toBeLessThan(24 * 1024 * 1024);
    expect(s3.requests).toHaveLength(1);
  }, 20_000);

  it("an endless listing page fails past 8 MiB", async () => {
    const s3 = await fakeS3((_req, res, count) => {
      res.writeHead(200, { "content-type": "application/xml" });
      res.write("<ListBucketResult><IsTruncated>false</IsTruncated>");
      flood(res, Buffer.from("<Contents><Key>p/0123456789abcdef0123456789abcdef.json</Key><Size>2</Size></Contents>".repeat(100)), Infinity, count);
    });
    const store = new S3Store(at(s3.endpoint), credentials);
    await expect(store.list()).rejects.toThrow("certreseller: could not list the purchase journal s3://b/p: the answer exceeded 8388608 bytes");
    expect(s3.requests).toHaveLength(1);
  }, 20_000);

  it("an error page is capped too", async () => {
    const s3 = await fakeS3((_req, res, count) => {
      res.writeHead(503, { "content-type": "application/xml" });
      flood(res, Buffer.alloc(64 * 1024, "e"), Infinity, count);
    });
    await expect(new S3Store(at(s3.endpoint), credentials).put("x.json", "{}")).rejects.toThrow(
      "could not write the purchase journal s3://b/p/x.json: the answer exceeded 1048576 bytes",
    );
  }, 20_000);

  it("a real-sized listing page (1,000 keys) fits under the cap", async () => {
    const contents = Array.from(
      { length: 1_000 },
      (_, i) =>
        `<Contents><Key>p/${String(i).padStart(32, "0")}.json</Key><LastModified>2026-11-22T09:30:00.000Z</LastModified>` +
        `<ETag>&quot;0123456789abcdef0123456789abcdef&quot;</ETag><Size>512</Size><StorageClass>STANDARD</StorageClass></Contents>`,
    ).join("");
    const s3 = await fakeS3((_req, res) => {
      res.writeHead(200, { "content-type": "application/xml" });
      res.end(`<ListBucketResult><IsTruncated>false</IsTruncated>${contents}</ListBucketResult>`);
    });
    expect(await new S3Store(at(s3.endpoint), credentials).list()).toHaveLength(1_000);
  });
});

describe("the S3 journal's plain-http rule applies to the host actually contacted", () => {
  it("refuses virtual-hosted addressing over http when the bucket's host name is not loopback", async () => {
    const s3 = await fakeS3((_req, res) => res.end());
    const port = new URL(s3.endpoint).port;
    for (const endpoint of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`]) {
      expect(() => new S3Store(at(endpoint, { pathStyle: false }), credentials), endpoint).toThrow(
        /sends every request to b\.(127\.0\.0\.1|localhost|\[::1\]):\d+ \(virtual-hosted addressing\): plain http on a non-loopback host; .*pathStyle=true/,
      );
    }
    expect(() => openJournal({ journalDir: "/x", journalUrl: `s3://b/p?endpoint=http://localhost:${port}&pathStyle=false` }, {})).toThrow(/to b\.localhost:\d+ \(virtual-hosted addressing\): plain http on a non-loopback host/);
    expect(s3.requests).toEqual([]);
  });

  it("still accepts path style to loopback, https anywhere, and plain http when allowInsecureHttp is set", () => {
    expect(() => new S3Store(at("http://localhost:9000"), credentials)).not.toThrow();
    expect(() => new S3Store(at("https://minio.internal:9000", { pathStyle: false }), credentials)).not.toThrow();
    expect(() => new S3Store({ bucket: "b", prefix: "", region: "eu-west-1", pathStyle: false }, credentials)).not.toThrow();
    expect(() => new S3Store(at("http://127.0.0.1:9000", { pathStyle: false }), credentials, { allowInsecureHttp: true })).not.toThrow();
    expect(() => new S3Store(at("http://minio.internal:9000"), credentials)).toThrow(/to minio\.internal:9000: plain http on a non-loopback host/);
  });
});
