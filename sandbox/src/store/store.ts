import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newApiKeyParts } from "../util/ids.js";
import type { Cents } from "../util/money.js";
import { lockDataDir } from "./dir-lock.js";
import { SecretBox } from "./secret-box.js";
import { StateFiles, STATE_VERSION, type MetaState, type Snapshot } from "./state-files.js";
import type { AccountRecord, OrderRecord, PublishedDnsRecord, PublishedFile } from "./types.js";

/**
 * All sandbox state: accounts, orders with their certificates, published
 * validation records. In memory, or persisted in a data dir (see
 * {@link StateFiles}: an atomic snapshot plus a journal of changed orders).
 *
 * Changes are marked with `markOrder(order)` / `markMeta()` and made durable
 * by `flush()`, which the front end awaits before it answers: concurrent
 * requests share one write (group commit), and no answer reports a change
 * that a crash could lose.
 */
export class Store {
  readonly box: SecretBox;
  readonly accounts = new Map<number, AccountRecord>();
  readonly orders = new Map<string, OrderRecord>();
  dnsRecords: PublishedDnsRecord[] = [];
  files: PublishedFile[] = [];
  statusReads = new Map<string, number>();
  clockOffsetMs = 0;
  #nextAccountId = 1001;
  /** secret → account id; rebuilt from the sealed secrets on load. */
  readonly #bySecret = new Map<string, number>();
  readonly #files: StateFiles | undefined;

  readonly #unlock: () => void;

  private constructor(box: SecretBox, files: StateFiles | undefined, unlock: () => void = () => {}) {
    this.box = box;
    this.#files = files;
    this.#unlock = unlock;
  }

  /** Writes what is pending and releases the data dir. */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.#unlock();
    }
  }

  /** An in-memory store, or the one persisted in `dataDir` (created when missing). */
  static open(dataDir?: string): Store {
    if (dataDir === undefined) return new Store(new SecretBox(), undefined);
    mkdirSync(dataDir, { recursive: true });
    const unlock = lockDataDir(dataDir);
    try {
      return Store.#openLocked(dataDir, unlock);
    } catch (err) {
      unlock();
      throw err;
    }
  }

  static #openLocked(dataDir: string, unlock: () => void): Store {
    const keyPath = join(dataDir, "secret.key");
    let key: Buffer;
    if (existsSync(keyPath)) {
      key = Buffer.from(readFileSync(keyPath, "utf8").trim(), "base64");
    } else {
      key = new SecretBox().key;
      writeFileSync(keyPath, key.toString("base64"), { mode: 0o600 });
    }
    const files = new StateFiles(dataDir);
    const store = new Store(new SecretBox(key), files, unlock);
    const state = files.load();
    if (state !== undefined) store.#load(state);
    return store;
  }

  get persistent(): boolean {
    return this.#files !== undefined;
  }

  #load(state: Snapshot): void {
    this.#seq = state.seq;
    this.clockOffsetMs = state.clockOffsetMs;
    this.#nextAccountId = state.nextAccountId;
    for (const a of state.accounts) {
      this.accounts.set(a.id, a);
      this.#bySecret.set(this.box.open(a.secretSealed), a.id);
    }
    for (const o of state.orders) this.orders.set(o.orderNo, o);
    this.dnsRecords = state.dnsRecords;
    this.files = state.files;
    this.statusReads = new Map(Object.entries(state.statusReads));
  }

  #seq = 0;
  #metaDirty = false;
  readonly #dirtyOrders = new Set<string>();
  #writing: Promise<void> | undefined;

  /** Records that an order (and possibly accounts) changed; `flush()` writes it. */
  markOrder(order: OrderRecord): void {
    if (this.#files === undefined) return;
    this.#dirtyOrders.add(order.orderNo);
    this.#metaDirty = true;
  }

  /** Records that accounts, published records, status reads or the clock changed. */
  markMeta(): void {
    if (this.#files !== undefined) this.#metaDirty = true;
  }

  /** Resolves once every change marked before the call is on disk (no-op in memory). */
  async flush(): Promise<void> {
    while (this.#metaDirty || this.#writing !== undefined) {
      if (this.#writing !== undefined) {
        await this.#writing;
        continue;
      }
      this.#writing = this.#write().finally(() => {
        this.#writing = undefined;
      });
      await this.#writing;
    }
  }

  #meta(): MetaState {
    return {
      clockOffsetMs: this.clockOffsetMs,
      nextAccountId: this.#nextAccountId,
      accounts: [...this.accounts.values()],
      dnsRecords: this.dnsRecords,
      files: this.files,
      statusReads: Object.fromEntries(this.statusReads),
    };
  }

  async #write(): Promise<void> {
    const files = this.#files!;
    // Taken synchronously: each write is one consistent instant.
    const dirty = [...this.#dirtyOrders];
    this.#dirtyOrders.clear();
    this.#metaDirty = false;
    const seq = ++this.#seq;
    try {
      if (files.journalEntries >= 1000 || files.journalBytes >= 16 << 20) {
        await files.writeSnapshot({ ...this.#meta(), version: STATE_VERSION, seq, orders: [...this.orders.values()] });
      } else {
        const orders = dirty.map((no) => this.orders.get(no)).filter((o): o is OrderRecord => o !== undefined);
        await files.append({ seq, meta: this.#meta(), orders });
      }
    } catch (err) {
      // Not on disk: keep it dirty so the next flush retries it.
      for (const no of dirty) this.#dirtyOrders.add(no);
      this.#metaDirty = true;
      throw err;
    }
  }

  createAccount(input: { username: string; email?: string; balance: Cents; creditLimit: Cents; now: number }): AccountRecord {
    const { appId, secret } = newApiKeyParts();
    const account: AccountRecord = {
      id: this.#nextAccountId++,
      username: input.username,
      email: input.email ?? `${input.username}@sandbox.test`,
      status: 1,
      appId,
      secretSealed: this.box.seal(secret),
      keyStatus: 1,
      keyExpiresAt: null,
      balance: input.balance,
      creditLimit: input.creditLimit,
      creditUsed: 0,
      createdAt: input.now,
      lastUsedIp: null,
      lastUsedAt: null,
    };
    this.accounts.set(account.id, account);
    this.#bySecret.set(secret, account.id);
    this.markMeta();
    return account;
  }

  findAccountByUsername(username: string): AccountRecord | undefined {
    for (const a of this.accounts.values()) if (a.username === username) return a;
    return undefined;
  }

  /** The full `appId:secret`, or the secret alone; undefined when no account holds it. */
  findAccountByKey(key: string): AccountRecord | undefined {
    const colon = key.indexOf(":");
    const secret = colon === -1 ? key : key.slice(colon + 1);
    const id = this.#bySecret.get(secret);
    const account = id === undefined ? undefined : this.accounts.get(id);
    if (account === undefined) return undefined;
    if (colon !== -1 && key.slice(0, colon) !== account.appId) return undefined;
    return account;
  }

  apiKeyOf(account: AccountRecord): string {
    return `${account.appId}:${this.box.open(account.secretSealed)}`;
  }
}
