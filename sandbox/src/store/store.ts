import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { open, rename } from "node:fs/promises";
import { join } from "node:path";
import { newApiKeyParts } from "../util/ids.js";
import type { Cents } from "../util/money.js";
import { SecretBox } from "./secret-box.js";
import type { AccountRecord, OrderRecord, PublishedDnsRecord, PublishedFile } from "./types.js";

const STATE_VERSION = 1;

interface PersistedState {
  version: number;
  clockOffsetMs: number;
  nextAccountId: number;
  accounts: AccountRecord[];
  orders: OrderRecord[];
  dnsRecords: PublishedDnsRecord[];
  files: PublishedFile[];
  /** `${accountId}:${orderNo}` → last status read (sandbox ms). */
  statusReads: Record<string, number>;
}

/**
 * All sandbox state: accounts, orders with their certificates, published
 * validation records. In memory, or mirrored to `<dataDir>/state.json` with
 * write-to-temp + fsync + rename, so a crash leaves either the old or the new
 * state, never half of one.
 *
 * Changes are marked with `commit()` and made durable by `flush()`, which the
 * front end awaits before it answers: concurrent requests share one write
 * (group commit), and no answer reports a change that a crash could lose.
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
  readonly #statePath: string | undefined;

  private constructor(box: SecretBox, statePath: string | undefined) {
    this.box = box;
    this.#statePath = statePath;
  }

  /** An in-memory store, or the one persisted in `dataDir` (created when missing). */
  static open(dataDir?: string): Store {
    if (dataDir === undefined) return new Store(new SecretBox(), undefined);
    mkdirSync(dataDir, { recursive: true });
    const keyPath = join(dataDir, "secret.key");
    let key: Buffer;
    if (existsSync(keyPath)) {
      key = Buffer.from(readFileSync(keyPath, "utf8").trim(), "base64");
    } else {
      key = new SecretBox().key;
      writeFileSync(keyPath, key.toString("base64"), { mode: 0o600 });
    }
    const store = new Store(new SecretBox(key), join(dataDir, "state.json"));
    if (existsSync(store.#statePath!)) store.#load(JSON.parse(readFileSync(store.#statePath!, "utf8")) as PersistedState);
    return store;
  }

  get persistent(): boolean {
    return this.#statePath !== undefined;
  }

  #load(state: PersistedState): void {
    if (state.version !== STATE_VERSION) {
      throw new Error(`state.json has version ${state.version}; this sandbox reads version ${STATE_VERSION}`);
    }
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

  #dirty = false;
  #writing: Promise<void> | undefined;

  /** Marks the state changed; `flush()` writes it. Call after every change. */
  commit(): void {
    if (this.#statePath !== undefined) this.#dirty = true;
  }

  /** Resolves once every change committed before the call is on disk (no-op in memory). */
  async flush(): Promise<void> {
    while (this.#dirty || this.#writing !== undefined) {
      if (this.#writing !== undefined) {
        await this.#writing;
        continue;
      }
      this.#dirty = false;
      this.#writing = this.#write().finally(() => {
        this.#writing = undefined;
      });
      await this.#writing;
    }
  }

  async #write(): Promise<void> {
    const statePath = this.#statePath!;
    // Serialised synchronously: the snapshot is one consistent instant.
    const text = JSON.stringify({
      version: STATE_VERSION,
      clockOffsetMs: this.clockOffsetMs,
      nextAccountId: this.#nextAccountId,
      accounts: [...this.accounts.values()],
      orders: [...this.orders.values()],
      dnsRecords: this.dnsRecords,
      files: this.files,
      statusReads: Object.fromEntries(this.statusReads),
    } satisfies PersistedState);
    const tmp = `${statePath}.tmp-${process.pid}`;
    const fh = await open(tmp, "w", 0o600);
    try {
      await fh.writeFile(text);
      await fh.sync();
    } catch (err) {
      this.#dirty = true;
      throw err;
    } finally {
      await fh.close();
    }
    await rename(tmp, statePath);
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
    this.commit();
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
