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
  /** ISO time CreateOrder answered. */
  orderedAt?: string;
  /** CreateOrder's answer, kept so a resumed create still reports price and term. */
  order?: Record<string, unknown>;
}

/**
 * A directory of small JSON files, one per resource, each replaced
 * atomically and flushed to disk (file and directory fsync) before the
 * method returns: a kill at any point leaves either the old or the new
 * entry, never a torn one.
 *
 * @example
 * ```ts
 * const journal = new PurchaseJournal(settings.journalDir);
 * journal.recordIntent({ key, domain, productCode, names });
 * const order = await api.createOrder(request);
 * journal.recordOrder(key, order.orderNo, { ...order });
 * ```
 */
export class PurchaseJournal {
  constructor(readonly dir: string) {}

  /** Where the entry for `key` lives (named in messages so users can inspect or remove it). */
  fileFor(key: string): string {
    return path.join(this.dir, `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.json`);
  }

  read(key: string): JournalEntry | undefined {
    let text: string;
    try {
      text = fs.readFileSync(this.fileFor(key), "utf8");
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
  recordIntent(entry: { key: string; domain: string; productCode: string; names: string[]; quotedPrice?: string }, now = new Date()): JournalEntry {
    const written: JournalEntry = { version: 1, ...entry, intentAt: now.toISOString() };
    this.write(written);
    return written;
  }

  /** Durably notes the order number CreateOrder answered with. */
  recordOrder(key: string, orderNo: string, order: Record<string, unknown>, now = new Date()): JournalEntry {
    const previous = this.read(key);
    if (!previous) throw new Error(`certreseller: no purchase intent recorded for ${key}`);
    const written: JournalEntry = { ...previous, orderNo, orderedAt: now.toISOString(), order };
    this.write(written);
    return written;
  }

  /** Removes the entry (no error when there is none). */
  clear(key: string): void {
    fs.rmSync(this.fileFor(key), { force: true });
    this.syncDir();
  }

  private write(entry: JournalEntry): void {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = this.fileFor(entry.key);
    const temporary = `${file}.${process.pid}.tmp`;
    const fd = fs.openSync(temporary, "w", 0o600);
    try {
      fs.writeFileSync(fd, JSON.stringify(entry, null, 2) + "\n");
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, file);
    this.syncDir();
  }

  private syncDir(): void {
    let fd: number | undefined;
    try {
      fd = fs.openSync(this.dir, "r");
      fs.fsyncSync(fd);
    } catch {
      // Directory fsync is not supported everywhere (e.g. Windows); the rename is still atomic there.
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }
}
