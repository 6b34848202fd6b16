import { existsSync, readFileSync } from "node:fs";
import { open, rename, truncate } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { AccountRecord, OrderRecord, PublishedDnsRecord, PublishedFile } from "./types.js";

/** 3: records, company information and refunds in the specification's shapes. */
export const STATE_VERSION = 3;

/** Everything but the orders: small, so every journal entry carries all of it. */
export interface MetaState {
  clockOffsetMs: number;
  nextAccountId: number;
  accounts: AccountRecord[];
  dnsRecords: PublishedDnsRecord[];
  files: PublishedFile[];
  /** `${accountId}:${orderNo}` → last status read (sandbox ms). */
  statusReads: Record<string, number>;
}

export interface Snapshot extends MetaState {
  version: number;
  /** The last journal entry folded into this snapshot. */
  seq: number;
  orders: OrderRecord[];
}

/** One group commit: the whole meta state and the orders it changed. */
export interface JournalEntry {
  /** Written by `append`; a journal from another sandbox version is refused, like its snapshot. */
  version?: number;
  seq: number;
  meta: MetaState;
  orders: OrderRecord[];
}

/**
 * `state.json` (an atomic snapshot) plus `journal.jsonl` (one line per group
 * commit since). Appending the changed orders keeps a write proportional to
 * the change rather than to the whole book; a snapshot folds the journal in
 * now and then. Entries carry a sequence number, so entries already folded
 * into the snapshot (a crash between snapshot and truncation) are skipped,
 * and a torn last line (a crash mid-append, never acknowledged) is ignored.
 */
export class StateFiles {
  readonly #snapshotPath: string;
  readonly #journalPath: string;
  journalEntries = 0;
  journalBytes = 0;

  constructor(dir: string) {
    this.#snapshotPath = join(dir, "state.json");
    this.#journalPath = join(dir, "journal.jsonl");
  }

  /** The persisted state with the journal replayed, or undefined for a fresh data dir. */
  load(): Snapshot | undefined {
    let state: Snapshot | undefined;
    if (existsSync(this.#snapshotPath)) {
      state = JSON.parse(readFileSync(this.#snapshotPath, "utf8")) as Snapshot;
      if (state.version !== STATE_VERSION) {
        throw new Error(`${this.#snapshotPath} has version ${state.version}; this sandbox reads version ${STATE_VERSION}`);
      }
    }
    if (!existsSync(this.#journalPath)) return state;
    const lines = readFileSync(this.#journalPath, "utf8").split("\n");
    const orders = new Map((state?.orders ?? []).map((o) => [o.orderNo, o]));
    let meta: MetaState | undefined = state;
    let seq = state?.seq ?? 0;
    lines.forEach((line, i) => {
      if (line.trim() === "") return;
      let entry: JournalEntry;
      try {
        entry = JSON.parse(line) as JournalEntry;
      } catch (err) {
        const last = lines.slice(i + 1).every((l) => l.trim() === "");
        if (last) return; // torn final append: it was never acknowledged
        throw new Error(`${this.#journalPath} line ${i + 1} is corrupt`, { cause: err });
      }
      if (entry.version !== STATE_VERSION) {
        throw new Error(`${this.#journalPath} line ${i + 1} has version ${String(entry.version)}; this sandbox reads version ${STATE_VERSION}`);
      }
      if (entry.seq <= seq) return;
      seq = entry.seq;
      meta = entry.meta;
      for (const o of entry.orders) orders.set(o.orderNo, o);
      this.journalEntries++;
    });
    this.journalBytes = Buffer.byteLength(lines.join("\n"));
    if (meta === undefined) return undefined;
    return { ...meta, version: STATE_VERSION, seq, orders: [...orders.values()] };
  }

  /** Serialises before the first await, so the caller's state is captured at the call. */
  async append(entry: JournalEntry): Promise<void> {
    const line = `${JSON.stringify({ ...entry, version: STATE_VERSION })}\n`;
    const fh = await open(this.#journalPath, "a", 0o600);
    try {
      await fh.appendFile(line);
      await fh.sync();
    } finally {
      await fh.close();
    }
    this.journalEntries++;
    this.journalBytes += Buffer.byteLength(line);
  }

  /** Serialises before the first await, so the caller's state is captured at the call. */
  async writeSnapshot(snapshot: Snapshot): Promise<void> {
    const text = JSON.stringify(snapshot);
    const tmp = `${this.#snapshotPath}.tmp-${process.pid}`;
    const fh = await open(tmp, "w", 0o600);
    try {
      await fh.writeFile(text);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, this.#snapshotPath);
    await syncDir(dirname(this.#snapshotPath));
    if (existsSync(this.#journalPath)) await truncate(this.#journalPath, 0);
    this.journalEntries = 0;
    this.journalBytes = 0;
  }
}

/** Makes a rename durable (the directory entry itself). */
async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, "r");
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
