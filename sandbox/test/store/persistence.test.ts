import { spawn } from "node:child_process";
import { once } from "node:events";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StateFiles, STATE_VERSION, type MetaState } from "../../src/store/state-files.js";
import { Store } from "../../src/store/store.js";
import type { OrderRecord } from "../../src/store/types.js";
import { startSandbox } from "../../src/index.js";
import { call, DV_MULTI, mgmt } from "../support/sandbox.js";
import { ManagementClient } from "../../../tests/support/sandbox-management.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "sandbox-state-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const meta = (balance: number): MetaState => ({ clockOffsetMs: 0, nextAccountId: 1002, accounts: [{ balance } as never], dnsRecords: [], files: [], statusReads: {} });
const order = (orderNo: string, orderStatus: number): OrderRecord => ({ orderNo, orderStatus } as unknown as OrderRecord);

describe("state files (snapshot + journal)", () => {
  it("replays journal entries over the snapshot, latest order version winning", async () => {
    const f = new StateFiles(dir);
    await f.append({ seq: 1, meta: meta(100), orders: [order("A", 1)] });
    await f.append({ seq: 2, meta: meta(80), orders: [order("B", 1)] });
    await f.append({ seq: 3, meta: meta(100), orders: [order("A", 4)] });
    const s = new StateFiles(dir).load()!;
    expect(s.seq).toBe(3);
    expect(s.accounts[0]!.balance).toBe(100);
    expect(s.orders.map((o) => [o.orderNo, o.orderStatus])).toEqual([["A", 4], ["B", 1]]);
  });

  it("ignores a torn last line but refuses a corrupt line in the middle", async () => {
    const f = new StateFiles(dir);
    await f.append({ seq: 1, meta: meta(100), orders: [order("A", 1)] });
    appendFileSync(join(dir, "journal.jsonl"), '{"seq":2,"meta":{"clockOff');
    expect(new StateFiles(dir).load()!.seq).toBe(1);
    appendFileSync(join(dir, "journal.jsonl"), "\n" + JSON.stringify({ seq: 3, meta: meta(1), orders: [] }) + "\n");
    expect(() => new StateFiles(dir).load()).toThrow(/line 2 is corrupt/);
  });

  it("a snapshot folds the journal in; entries it already holds are skipped after a crash before truncation", async () => {
    const f = new StateFiles(dir);
    await f.append({ seq: 1, meta: meta(100), orders: [order("A", 1)] });
    const journalBefore = readFileSync(join(dir, "journal.jsonl"), "utf8");
    await f.writeSnapshot({ ...meta(50), version: STATE_VERSION, seq: 2, orders: [order("A", 2)] });
    expect(readFileSync(join(dir, "journal.jsonl"), "utf8")).toBe("");
    // Simulate the crash window: the old entry is still in the journal.
    writeFileSync(join(dir, "journal.jsonl"), journalBefore);
    const s = new StateFiles(dir).load()!;
    expect(s.orders).toEqual([order("A", 2)]);
    expect(s.accounts[0]!.balance).toBe(50);
  });

  it("refuses a journal written by another state version, as it refuses such a snapshot", async () => {
    writeFileSync(join(dir, "journal.jsonl"), `${JSON.stringify({ version: STATE_VERSION - 1, seq: 1, meta: meta(1), orders: [] })}\n`);
    expect(() => new StateFiles(dir).load()).toThrow(`line 1 has version ${STATE_VERSION - 1}`);
    writeFileSync(join(dir, "state.json"), JSON.stringify({ ...meta(1), version: STATE_VERSION - 1, seq: 0, orders: [] }));
    expect(() => new StateFiles(dir).load()).toThrow(`has version ${STATE_VERSION - 1}`);
  });

  it("a store reopened from its data dir has the same accounts, keys and orders", async () => {
    const store = Store.open(dir);
    const a = store.createAccount({ username: "u", balance: 500, creditLimit: 0, now: 0 });
    const key = store.apiKeyOf(a);
    await store.close();
    const again = Store.open(dir);
    expect(again.findAccountByKey(key)?.username).toBe("u");
    await again.close();
    expect(readFileSync(join(dir, "journal.jsonl"), "utf8")).not.toContain(key.split(":")[1]);
  });
});

describe("sandbox restart on a data dir", () => {
  it("keeps orders, money, the clock and the CA across a restart", async () => {
    const first = await startSandbox({ dataDir: dir, statusCooldownSeconds: 0 });
    const created = await call(first, "CreateOrder", DV_MULTI);
    await call(first, "ApplySign", { order_no: created.data.order_no });
    await mgmt(first, "POST", "/clock/advance", { seconds: 3600 });
    const before = (await mgmt(first, "GET", `/orders/${created.data.order_no}`)).body;
    const clockBefore = (await mgmt(first, "GET", "/clock")).body.offsetSeconds;
    await first.stop();
    const second = await startSandbox({ dataDir: dir, statusCooldownSeconds: 0 });
    try {
      expect(second.caCertificatePem).toBe(first.caCertificatePem);
      expect(second.accounts.map((a) => a.apiKey)).toEqual(first.accounts.map((a) => a.apiKey));
      expect(second.accounts[0]!.balance).toBe("4880.00");
      expect((await mgmt(second, "GET", `/orders/${created.data.order_no}`)).body).toEqual(before);
      expect((await mgmt(second, "GET", "/clock")).body.offsetSeconds).toBe(clockBefore);
      const dl = await call(second, "DownloadCertificate", { order_no: created.data.order_no });
      expect(dl.code).toBe(200);
      expect(dl.data.certificate.private_key).toContain("PRIVATE KEY");
      // Sealed at rest: the private key is not in the files.
      const onDisk = readFileSync(join(dir, "journal.jsonl"), "utf8");
      expect(onDisk).not.toContain(dl.data.certificate.private_key.split("\n")[1]);
      expect(onDisk).not.toContain(first.accounts[0]!.apiKey.split(":")[1]);
    } finally {
      await second.stop();
    }
  });
});

describe("data dir lock", () => {
  it("refuses a second sandbox on the same data dir, and frees it on stop or a failed start", async () => {
    const first = await startSandbox({ dataDir: dir });
    await expect(startSandbox({ dataDir: dir })).rejects.toThrow(/already open in this process/);
    await first.stop();
    // A start that fails after opening the store (the port is taken) releases the dir.
    const blocker = await startSandbox();
    const port = Number(new URL(blocker.url).port);
    await expect(startSandbox({ dataDir: dir, port })).rejects.toThrow(/EADDRINUSE/);
    await blocker.stop();
    const again = await startSandbox({ dataDir: dir });
    await again.stop();
  });

  it("takes over the lock of a process that is gone", async () => {
    writeFileSync(join(dir, "sandbox.lock"), "999999999");
    const s = await startSandbox({ dataDir: dir });
    expect(readFileSync(join(dir, "sandbox.lock"), "utf8")).toBe(String(process.pid));
    await s.stop();
    expect(existsSync(join(dir, "sandbox.lock"))).toBe(false);
  });

  it("refuses a data dir a live sandbox in another process holds, naming its pid; takes it once that process stops", async () => {
    // The CLI from source, as a user starts a second sandbox on the same --data-dir.
    const other = spawn(process.execPath, ["--import", "tsx", join(__dirname, "../../src/cli.ts"), "--port", "0", "--quiet", "--data-dir", dir], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      let stderr = "";
      other.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
      // Its one JSON line comes once the store (and so the lock) is open.
      const [line] = (await Promise.race([
        once(createInterface({ input: other.stdout! }), "line"),
        once(other, "exit").then(([code]) => {
          throw new Error(`the other sandbox exited ${code} before it was up:\n${stderr}`);
        }),
      ])) as [string];
      // An answer means its event loop has turned since that line, so its SIGTERM handler (set just after it) is in place.
      expect((await new ManagementClient(JSON.parse(line).managementUrl).call("GET", "/health")).ok).toBe(true);
      expect(readFileSync(join(dir, "sandbox.lock"), "utf8")).toBe(String(other.pid));
      await expect(startSandbox({ dataDir: dir })).rejects.toThrow(`data dir ${dir} is in use by another sandbox (pid ${other.pid}); stop it or use another --data-dir`);
      // Refused without touching the other process's lock.
      expect(readFileSync(join(dir, "sandbox.lock"), "utf8")).toBe(String(other.pid));
      const exited = once(other, "exit");
      other.kill("SIGTERM");
      expect((await exited)[0]).toBe(0);
      const s = await startSandbox({ dataDir: dir });
      await s.stop();
    } finally {
      if (other.exitCode === null && other.signalCode === null) other.kill("SIGKILL");
    }
  });
});
