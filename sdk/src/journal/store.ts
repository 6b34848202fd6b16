import * as fs from "node:fs";
import * as path from "node:path";

/**
 * Where journal entries live: small named texts, each replaced whole. Every
 * store answers only once the text is durable (file: fsynced and renamed;
 * a bucket: the upload answered 2xx), which is what lets `create` write the
 * intent before CreateOrder is sent. Names are checked by every store (see
 * {@link checkEntryName}).
 */
export interface JournalStore {
  /** The journal as a user would name it: a directory, `s3://bucket/prefix`, `gs://bucket/prefix` or `azblob://container/prefix`. */
  readonly location: string;
  /**
   * The URL the store was opened from, with its options (`?endpoint=…&region=…`; never a secret: URLs hold
   * none), for the commands messages print; undefined for a folder, or a store built without one.
   */
  readonly url?: string;
  /** Where one entry lives, for messages (a file path or a bucket URL). */
  locationOf(name: string): string;
  get(name: string): Promise<string | undefined>;
  put(name: string, text: string): Promise<void>;
  /** No error when there is nothing to delete. */
  delete(name: string): Promise<void>;
  /** The names of every entry. */
  list(): Promise<string[]>;
}

/**
 * A directory, one file per entry, each replaced atomically and flushed to
 * disk (file and directory fsync) before the promise settles: a kill at any
 * point leaves either the old or the new entry, never a torn one.
 *
 * The I/O is asynchronous: one dynamic-provider process runs every resource
 * of a deployment, and synchronous fsyncs would hold every other resource's
 * RPC in that process while the disk flushed.
 */
export class FileStore implements JournalStore {
  constructor(readonly dir: string) {}

  get location(): string {
    return this.dir;
  }

  locationOf(name: string): string {
    return path.join(this.dir, name);
  }

  /** The entry's file, once its name is checked. */
  private file(name: string): string {
    checkEntryName(name);
    return path.join(this.dir, name);
  }

  async get(name: string): Promise<string | undefined> {
    try {
      return await fs.promises.readFile(this.file(name), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new Error(`certreseller: cannot read the purchase journal ${this.locationOf(name)}`, { cause: error });
    }
  }

  async put(name: string, text: string): Promise<void> {
    await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = this.file(name);
    const temporary = `${file}.${process.pid}.tmp`;
    const handle = await fs.promises.open(temporary, "w", 0o600);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temporary, file);
    await this.syncDir();
  }

  async delete(name: string): Promise<void> {
    await fs.promises.rm(this.file(name), { force: true });
    await this.syncDir();
  }

  async list(): Promise<string[]> {
    try {
      return (await fs.promises.readdir(this.dir)).filter((f) => f.endsWith(".json") && isEntryName(f)).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw new Error(`certreseller: cannot list the purchase journal ${this.dir}`, { cause: error });
    }
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

/**
 * Refuses a name that is not one plain file name: a store keeps every entry
 * directly under its folder or prefix, and a name with a separator or `..`
 * would read or write outside it (another prefix of the same bucket, or a
 * file beside the journal directory). The journal's own names are hex
 * digests with `.json` or `.resumed`.
 */
export function checkEntryName(name: string): void {
  if (!isEntryName(name)) {
    throw new Error(`certreseller: ${JSON.stringify(name)} is not a purchase journal entry name (letters, digits, '.', '_', '-', no path)`);
  }
}

/** Whether `name` is one a store accepts (see {@link checkEntryName}); listings skip other objects. */
export function isEntryName(name: string): boolean {
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/.test(name);
}
