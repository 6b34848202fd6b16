import { createHash } from "node:crypto";
import { journalCommandLine, shellWord } from "./command-line.js";
import { parseEntryKey } from "./key.js";
import { FileStore, type JournalStore } from "./store.js";

/**
 * What the journal knows about one resource's purchase. Written before
 * CreateOrder (`intentAt`) and right after it answers (`orderNo` ...), so a
 * create that was killed in between can tell "bought, adopt it" from
 * "maybe bought, ask the user" instead of buying again.
 */
export interface JournalEntry {
  version: 1;
  /**
   * The entry's identity: organisation, backend fingerprint and URN (see
   * `key.ts`); the URN alone in entries of an earlier release.
   */
  key: string;
  /** The resource's URN (project, stack, type, parents, name); absent in entries of an earlier release. */
  urn?: string;
  domain: string;
  productCode: string;
  /** Every ordered name, canonical and sorted: adoption must concern the same purchase. */
  names: string[];
  /**
   * SHA-256 of every purchase input (`digest.ts`): a resumed create adopts
   * the order only for the same purchase. Absent in entries of an earlier
   * release, which are compared by names and product.
   */
  purchaseDigest?: string;
  /** A short digest per purchase input, to name what changed (never the values). */
  inputDigests?: Record<string, string>;
  quotedPrice?: string;
  /** The app id of the account whose key sent CreateOrder; absent in entries of an earlier release (readers never require it). */
  accountId?: string;
  /** The service endpoint (normalised base URL) that key answered at: app ids are unique within one deployment only. Absent in entries of an earlier release. */
  accountEndpoint?: string;
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
  /**
   * ISO time the create holding `orderNo` handed it back to the engine
   * (finished, or failed after buying with the order in its answer). Absent:
   * the create never returned, so no state can hold the order (a killed
   * `up`): the stack's journal resource refunds such an entry at `destroy`.
   */
  returnedAt?: string;
}

/**
 * The entry names each journal (by location) held when this process first
 * listed it, kept current with this process's own writes and removals. Only
 * tidying reads it (see {@link PurchaseJournal.listedNames}); undefined when
 * the listing failed.
 */
const listings = new Map<string, Promise<Set<string> | undefined>>();

/**
 * The entries each journal's listing named, read once per process (see
 * {@link PurchaseJournal.related}) and kept current with this process's own
 * removals; undefined when the listing failed.
 */
const scans = new Map<string, Promise<Map<string, JournalEntry> | undefined>>();

/** Forgets this process's listings and scans, as a new provider process starts without them (tests). */
export function resetJournalCachesForTests(): void {
  listings.clear();
  scans.clear();
}

/**
 * A create resumed an order from its journal entry instead of buying (or
 * adopted the order `adoptOrderNo` names): the order may then be held by two
 * generations of one resource (a replacement
 * that resumed it, and the resource it replaces, e.g. `pulumi up --replace`
 * right after the up that bought it). The resumer's state keeps the same
 * `resumedAt`; a delete of a state whose `resumedAt` differs is the replaced
 * resource's, and does not cancel the order. Kept apart from the entry,
 * which tidying removes as soon as the engine shows it holds the order: in
 * the run after a kill, the replacement's diff may come before that delete.
 */
export interface ResumedMark {
  key: string;
  orderNo: string;
  resumedAt: string;
}

/** What a mark is keyed by: the entry key without its backend fingerprint. */
function markIdentity(key: string): string {
  const { organization, urn } = parseEntryKey(key);
  return `${organization ?? ""};${urn}`;
}

/** What `recordIntent` is given. */
export type IntentEntry = Omit<JournalEntry, "version" | "intentAt" | "orderNo" | "orderedAt" | "order">;

/**
 * The purchase journal, on a directory, or in an S3, Google Cloud Storage or
 * Azure Blob bucket (`certreseller:journalUrl`, or beside a bucket backend's state). Callers await each step: the intent
 * is durable before CreateOrder is sent, the order number before ApplySign.
 *
 * @example
 * ```ts
 * const journal = openJournal(settings);
 * await journal.recordIntent({ key, domain, productCode, names, purchaseDigest });
 * const order = await api.createOrder(request);
 * await journal.recordOrder(key, order.orderNo, { ...order });
 * ```
 */
export class PurchaseJournal {
  readonly store: JournalStore;

  constructor(dirOrStore: string | JournalStore) {
    this.store = typeof dirOrStore === "string" ? new FileStore(dirOrStore) : dirOrStore;
  }

  /** The directory, or the bucket URL (`s3://`, `gs://`, `azblob://`). */
  get location(): string {
    return this.store.location;
  }

  /** The entry's name in the store: a hash of the key, so any resource name is safe. */
  static nameFor(key: string): string {
    return `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.json`;
  }

  /** Where the entry for `key` lives (named in messages so users can inspect or remove it). */
  fileFor(key: string): string {
    return this.store.locationOf(PurchaseJournal.nameFor(key));
  }

  async read(key: string): Promise<JournalEntry | undefined> {
    const text = await this.store.get(PurchaseJournal.nameFor(key));
    if (text === undefined) return undefined;
    const entry = this.parse(text, PurchaseJournal.nameFor(key));
    return entry.key === key ? entry : undefined;
  }

  /** Every entry with its name in the store; an unreadable one is reported as such, not thrown. */
  async list(): Promise<{ name: string; location: string; entry?: JournalEntry; error?: string }[]> {
    const names = await this.store.list();
    return Promise.all(
      names.map(async (name) => {
        const location = this.store.locationOf(name);
        try {
          const text = await this.store.get(name);
          return text === undefined ? { name, location, error: "vanished while listing" } : { name, location, entry: this.parse(text, name) };
        } catch (error) {
          return { name, location, error: (error as Error).message };
        }
      }),
    );
  }

  /**
   * The names of the entries this journal holds, listed once per process and
   * then kept current with this process's own writes and removals; undefined
   * when the store cannot be listed (e.g. an S3 key without `s3:ListBucket`).
   *
   * Why: every preview tidies the entry of every Order it sees (see
   * `forgetOrder`), and after the first run almost none is left. A read per
   * Order per run (a GET per Order on S3) becomes one listing. An entry
   * another process writes after the listing is missed until the next run,
   * which only delays a removal: tidying never decides a purchase.
   */
  listedNames(): Promise<ReadonlySet<string> | undefined> {
    let names = listings.get(this.location);
    if (!names) {
      names = this.store.list().then(
        (list) => new Set(list),
        () => undefined,
      );
      listings.set(this.location, names);
    }
    return names;
  }

  /**
   * The entries of the same resource under another key: same organisation
   * and URN (project, stack, type, name), another backend fingerprint. One
   * backend can read as two fingerprints (a symlinked path, a login present
   * on one machine and not on another), and such an entry may protect a
   * purchase of this very resource, so `create` never ignores one.
   *
   * Read from this process's listing: every listed entry is read once per
   * process (a settled journal holds almost none). Undefined when the
   * journal cannot be listed (e.g. an S3 key without `s3:ListBucket`): then
   * nothing can be said, and the caller warns.
   */
  async related(key: string): Promise<JournalEntry[] | undefined> {
    const { organization, urn } = parseEntryKey(key);
    if (organization === undefined) return [];
    const entries = await this.scan();
    if (!entries) return undefined;
    return [...entries.values()].filter((entry) => {
      const parts = parseEntryKey(entry.key);
      return entry.key !== key && parts.organization === organization && parts.urn === urn;
    });
  }

  /** Durably notes that a purchase is about to be attempted. */
  async recordIntent(entry: IntentEntry, now = new Date()): Promise<JournalEntry> {
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

  /**
   * Notes that the create holding `orderNo` is handing it back to the engine
   * (see {@link JournalEntry.returnedAt}); nothing when the entry holds
   * another order or none.
   */
  async markReturned(key: string, orderNo: string, now = new Date()): Promise<void> {
    const previous = await this.read(key);
    if (previous?.orderNo !== orderNo) return;
    await this.write({ ...previous, returnedAt: now.toISOString() });
  }

  /**
   * Durably records that a create of the resource keyed `key` resumed
   * `orderNo` at `now` (see {@link ResumedMark}). Written beside the entries
   * under a name listings skip, so tidying never removes it.
   */
  async markResumed(key: string, orderNo: string, now = new Date()): Promise<ResumedMark> {
    const mark: ResumedMark = { key, orderNo, resumedAt: now.toISOString() };
    await this.store.put(PurchaseJournal.markNameFor(key, orderNo), JSON.stringify(mark, null, 2) + "\n");
    return mark;
  }

  /** The mark a create left when it resumed (or adopted) `orderNo` for `key`'s resource, if any. */
  async resumedMark(key: string, orderNo: string): Promise<ResumedMark | undefined> {
    const text = await this.store.get(PurchaseJournal.markNameFor(key, orderNo));
    if (text === undefined) return undefined;
    const mark = this.parse(text, PurchaseJournal.markNameFor(key, orderNo)) as unknown as ResumedMark;
    return markIdentity(mark.key) === markIdentity(key) && mark.orderNo === orderNo ? mark : undefined;
  }

  /** Removes the mark (no error when there is none). */
  async clearResumedMark(key: string, orderNo: string): Promise<void> {
    await this.store.delete(PurchaseJournal.markNameFor(key, orderNo));
  }

  /**
   * A mark's name: not `.json`, so listings (tidying, `journal ls`, the orphan
   * check) never see it. Named by organisation, URN and order, not the backend
   * fingerprint: the delete that reads it may run through another spelling of
   * the same backend (the order number already tells stacks apart).
   */
  static markNameFor(key: string, orderNo: string): string {
    return `${createHash("sha256").update(`${markIdentity(key)}\n${orderNo}`).digest("hex").slice(0, 32)}.resumed`;
  }

  /** Removes the entry (no error when there is none). */
  async clear(key: string): Promise<void> {
    const name = PurchaseJournal.nameFor(key);
    await this.store.delete(name);
    this.noteListed(name, undefined);
  }

  /** Removes an entry by its name in the store (the journal command's `rm`); false when there was none. */
  async remove(name: string): Promise<boolean> {
    if ((await this.store.get(name)) === undefined) return false;
    await this.store.delete(name);
    this.noteListed(name, undefined);
    return true;
  }

  /**
   * The journal command line that reaches THIS journal, as this process's
   * user runs it (see `command-line.ts`: the project's installed bin in a
   * TypeScript program, the plugin's executable in a plugin process; never a
   * package npx would fetch). The location is given in the environment
   * variable the command reads first, so it reaches this journal from any
   * folder, whatever the stack config there says.
   *
   * @example
   * journal.command("rm 0123…") // "CERTRESELLER_JOURNAL_URL=s3://ci-journal/certreseller npx --no-install certreseller journal rm 0123…"
   */
  command(args: string): string {
    const variable = /^(s3|gs|azblob):\/\//.test(this.location) ? "CERTRESELLER_JOURNAL_URL" : "CERTRESELLER_JOURNAL_DIR";
    // The URL with its options: a custom endpoint or region named only there must reach the command too.
    return `${variable}=${shellWord(this.store.url ?? this.location)} ${journalCommandLine(args)}`;
  }

  private parse(text: string, name: string): JournalEntry {
    try {
      return JSON.parse(text) as JournalEntry;
    } catch (error) {
      throw new Error(`certreseller: the purchase journal entry ${this.store.locationOf(name)} is corrupt; inspect it, then delete it`, { cause: error });
    }
  }

  private async write(entry: JournalEntry): Promise<void> {
    const name = PurchaseJournal.nameFor(entry.key);
    await this.store.put(name, JSON.stringify(entry, null, 2) + "\n");
    this.noteListed(name, entry);
  }

  /** Every listed entry, read once per process; an unreadable one is left out (`list` reports it). */
  private scan(): Promise<Map<string, JournalEntry> | undefined> {
    let entries = scans.get(this.location);
    if (!entries) {
      entries = this.listedNames().then(async (names) => {
        if (!names) return undefined;
        const read = new Map<string, JournalEntry>();
        for (const name of [...names]) {
          const text = await this.store.get(name).catch(() => undefined);
          if (text === undefined) continue;
          try {
            read.set(name, this.parse(text, name));
          } catch {
            // corrupt: `certreseller journal ls` names it
          }
        }
        return read;
      });
      scans.set(this.location, entries);
    }
    return entries;
  }

  /**
   * Keeps this process's listing and scan (if it has them) current with its
   * own change: the entry written, or undefined for a removal. Chained, not
   * awaited: a write (the intent before CreateOrder) must not wait for a
   * listing still in flight. Changes apply in the order made, and a tidy
   * that started before this change may miss it.
   */
  private noteListed(name: string, written: JournalEntry | undefined): void {
    void listings.get(this.location)?.then((names) => {
      if (written) names?.add(name);
      else names?.delete(name);
    });
    void scans.get(this.location)?.then((entries) => {
      if (written) entries?.set(name, written);
      else entries?.delete(name);
    });
  }
}
