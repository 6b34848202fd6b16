import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

/**
 * What the journal knows about one resource's purchase. Written before
 * CreateOrder (`intentAt`) and right after it answers (`orderNo` ...), so a
 * create that was killed in between can tell "bought, adopt it" from
 * "maybe bought, ask the user" instead of buying again.
 */
export interface JournalEntry {
  version: 1;
  /** The resource's identity: its URN (project, stack, type, parents, name). */
  key: string;
  domain: string;
  productCode: string;
  /** Every ordered name, canonical and sorted: adoption must concern the same purchase. */
  names: string[];
  quotedPrice?: string;
  /** ISO time the intent was written, just before CreateOrder. */
  intentAt: string;
  orderNo?: string;
  /** ISO time CreateOrder's answer was received: the Order's `paidAt` (the service reports no payment time). */
  orderedAt?: string;
  /**
   * CreateOrder's answer (the client's `CreateOrderResult`), kept so a
   * resumed create still reports the price. An entry written by an earlier
   * release may hold another shape: readers take only the order number for
   * granted.
   */
  order?: Record<string, unknown>;
}

/**
 * A directory of small JSON files, one per resource, each replaced
 * atomically and flushed to disk (file and directory fsync) before the
 * returned promise settles: a kill at any point leaves either the old or the
 * new entry, never a torn one.
 *
 * The I/O is asynchronous: one dynamic-provider process runs every resource
 * of a deployment, and four synchronous fsyncs per purchase (about 1.4 ms
 * each on the benchmark machine, more on a busy disk) held every other
 * resource's RPC in that process while the disk flushed. Callers await each
 * step, so the ordering guarantees are unchanged: the intent is on disk
 * before CreateOrder is sent, the order number before ApplySign.
 *
 * @example
 * ```ts
 * const journal = new PurchaseJournal(settings.journalDir);
 * await journal.recordIntent({ key, domain, productCode, names });
 * const order = await api.createOrder(request);
 * await journal.recordOrder(key, order.orderNo, { ...order });
 * ```
 */
export class PurchaseJournal {
  constructor(readonly dir: string) {}

  /** Where the entry for `key` lives (named in messages so users can inspect or remove it). */
  fileFor(key: string): string {
    return path.join(this.dir, `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.json`);
  }

  async read(key: string): Promise<JournalEntry | undefined> {
    let text: string;
    try {
      text = await fs.promises.readFile(this.fileFor(key), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new Error(`certreseller: cannot read the purchase journal ${this.fileFor(key)}`, { cause: error });
    }
    try {
      const entry = JSON.parse(text) as JournalEntry;
      return entry.key === key ? entry : undefined;
    } catch (error) {
      throw new Error(`certreseller: the purchase journal entry ${this.fileFor(key)} is corrupt; inspect it, then delete it`, { cause: error });
    }
  }

  /** Durably notes that a purchase is about to be attempted. */
  async recordIntent(entry: { key: string; domain: string; productCode: string; names: string[]; quotedPrice?: string }, now = new Date()): Promise<JournalEntry> {
    const written: JournalEntry = { version: 1, ...entry, intentAt: now.toISOString() };
    await this.write(written);
    return written;
  }

  /** Durably notes the order number CreateOrder answered with. */
  async recordOrder(key: string, orderNo: string, order: Record<string, unknown>, now = new Date()): Promise<JournalEntry> {
    const previous = await this.read(key);
    if (!previous) throw new Error(`certreseller: no purchase intent recorded for ${key}`);
    const written: JournalEntry = { ...previous, orderNo, orderedAt: now.toISOString(), order };
    await this.write(written);
    return written;
  }

  /** Removes the entry (no error when there is none). */
  async clear(key: string): Promise<void> {
    await fs.promises.rm(this.fileFor(key), { force: true });
    await this.syncDir();
  }

  private async write(entry: JournalEntry): Promise<void> {
    await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = this.fileFor(entry.key);
    const temporary = `${file}.${process.pid}.tmp`;
    const handle = await fs.promises.open(temporary, "w", 0o600);
    try {
      await handle.writeFile(JSON.stringify(entry, null, 2) + "\n");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temporary, file);
    await this.syncDir();
  }

  private async syncDir(): Promise<void> {
    let handle: fs.promises.FileHandle | undefined;
    try {
      handle = await fs.promises.open(this.dir, "r");
      await handle.sync();
    } catch {
      // Directory fsync is not supported everywhere (e.g. Windows); the rename is still atomic there.
    } finally {
      await handle?.close();
    }
  }
}
