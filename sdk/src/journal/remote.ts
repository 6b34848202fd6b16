import { PassThrough, pipeline, type Readable } from "node:stream";
import { isLoopback } from "../client/partner-client.js";
import { describeNetworkError, errorCode } from "../client/transport.js";
import { checkEntryName, isEntryName, type JournalStore } from "./store.js";

/** One store call (every attempt, wait and page of it) ends by then: a journal that hangs must not hold a deployment. */
export const DEFAULT_DEADLINE_MS = 30_000;
/** An entry is about 1 KiB of JSON, an error page less: anything near 1 MiB is not a journal entry. */
export const MAX_ANSWER_BYTES = 1024 * 1024;
/**
 * A listing page holds at most 1,000 names. At the longest key (1,024 bytes)
 * with its markup that is about 1.4 MB; 8 MiB leaves room for escaped keys
 * and is still a bounded buffer.
 */
export const MAX_LIST_PAGE_BYTES = 8 * 1024 * 1024;

/** Options every bucket store takes. */
export interface RemoteStoreOptions {
  /** Accept a plain `http://` endpoint whose requests leave the machine (certreseller:allowInsecureHttp). */
  allowInsecureHttp?: boolean;
  /** How long one store call (`get`, `put`, `delete`, `list`: retries and pages included) may take. Default 30 s. */
  deadlineMs?: number;
  /** Names asked per listing page, 1 to 1,000. Default 1,000; tests page with fewer. */
  listPageSize?: number;
  /** The URL the store is opened from (see `JournalStore.url`). */
  url?: string;
}

/** The options checked, defaults filled in. */
export function remoteOptions(store: string, options: RemoteStoreOptions): { deadlineMs: number; listPageSize: number; allowInsecureHttp: boolean } {
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  if (!Number.isFinite(deadlineMs) || deadlineMs <= 0) throw new TypeError(`certreseller: ${store} deadlineMs must be a positive number of milliseconds`);
  const listPageSize = options.listPageSize ?? 1000;
  if (!Number.isInteger(listPageSize) || listPageSize < 1 || listPageSize > 1000) throw new TypeError(`certreseller: ${store} listPageSize must be a whole number from 1 to 1000`);
  return { deadlineMs, listPageSize, allowInsecureHttp: options.allowInsecureHttp === true };
}

/** One store call: what it does and to which object, for messages, and its deadline. */
export interface Call {
  what: "read" | "write" | "delete" | "list";
  /** Where: the entry's location, or the journal's. */
  where: string;
  deadline: AbortSignal;
  deadlineMs: number;
}

/** Starts a call: its deadline runs from now. */
export function startCall(what: Call["what"], where: string, deadlineMs: number): Call {
  return { what, where, deadline: AbortSignal.timeout(deadlineMs), deadlineMs };
}

/** The error of a failed call: what, where, why; the SDK's error as the cause (never a secret: SDKs do not put keys in errors). */
export function callFailed(call: Call, reason: string, cause?: unknown): Error {
  return new Error(`certreseller: could not ${call.what} the purchase journal ${call.where}: ${reason}`, { cause });
}

/** Thrown by {@link capBody} past the cap; found again in an SDK error's causes. */
export class AnswerTooLarge extends Error {
  override readonly name = "AnswerTooLarge";
  readonly code = "CERTRESELLER_ANSWER_TOO_LARGE";
  constructor(readonly limit: number) {
    super(`the answer exceeded ${limit} bytes`);
  }
}

/**
 * The answer body, passed on until `limit` bytes, then cut: the source is
 * destroyed (so the server stops sending) and the returned stream errors
 * with {@link AnswerTooLarge}. SDKs buffer a whole answer before parsing it;
 * this bounds what they buffer.
 */
export function capBody(body: Readable, limit: number): Readable {
  let seen = 0;
  const out = new PassThrough({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > limit) done(new AnswerTooLarge(limit));
      else done(null, chunk);
    },
  });
  pipeline(body, out, () => undefined);
  return out;
}

/** The first error in `error`'s cause chain that `test` accepts. */
export function findCause<T>(error: unknown, test: (e: unknown) => e is T): T | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 10; e = (e as { cause?: unknown }).cause, depth++) if (test(e)) return e;
  return undefined;
}

/**
 * The reason for a failed call that is not an HTTP answer: the deadline, the
 * cap, or the network (after the SDK's own retries).
 */
export function transportReason(call: Call, error: unknown, origin: string): string {
  if (call.deadline.aborted) return `no complete answer within ${call.deadlineMs} ms (the journal's deadline)`;
  const tooLarge = findCause(error, (e): e is AnswerTooLarge => e instanceof AnswerTooLarge);
  if (tooLarge) return tooLarge.message;
  const network = findCause(error, (e): e is Error => errorCode(e) !== undefined);
  return `no answer from ${origin} (${network ? describeNetworkError(network) : (error as Error)?.message ?? String(error)})`;
}

/**
 * Refuses plain http to a host that is not loopback unless allowed: every
 * request carries the caller's credentials. `hostname` is the host requests
 * actually reach (the bucket's own under virtual-hosted addressing);
 * `shown.note` and `shown.fix` say how addressing made it so.
 */
export function checkPlainHttp(endpoint: URL, hostname: string, allowInsecureHttp: boolean, shown: { host: string; note: string; fix: string }): void {
  if (endpoint.protocol !== "http:" || allowInsecureHttp || isLoopback(hostname)) return;
  throw new Error(
    `certreseller: the journal endpoint ${endpoint.origin} sends every request to ${shown.host}${shown.note}: plain http on a non-loopback host; every request carries your credentials. ` +
      `Use https${shown.fix}, or set certreseller:allowInsecureHttp / CERTRESELLER_ALLOW_INSECURE_HTTP=true to accept it.`,
  );
}

/**
 * Reads a whole answer body as text, at most `limit` bytes, and no later
 * than the call's deadline.
 */
export async function readText(body: Readable, call: Call, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let seen = 0;
  const onAbort = (): void => void body.destroy(call.deadline.reason as Error);
  call.deadline.addEventListener("abort", onAbort, { once: true });
  try {
    for await (const chunk of body) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      seen += buffer.length;
      if (seen > limit) {
        body.destroy();
        throw new AnswerTooLarge(limit);
      }
      chunks.push(buffer);
    }
  } finally {
    call.deadline.removeEventListener("abort", onAbort);
  }
  if (call.deadline.aborted) throw call.deadline.reason;
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Runs `work`, or rejects when the call's deadline passes first: for SDK
 * calls that take no abort signal, so the journal call still ends on time
 * (the request left behind is dropped with its answer).
 */
export async function withDeadline<T>(call: Call, work: () => Promise<T>): Promise<T> {
  if (call.deadline.aborted) throw call.deadline.reason;
  let onAbort: (() => void) | undefined;
  const deadline = new Promise<never>((_, reject) => {
    onAbort = () => reject(call.deadline.reason as Error);
    call.deadline.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work(), deadline]);
  } finally {
    call.deadline.removeEventListener("abort", onAbort!);
  }
}

/** A bucket store's URL, read: the bucket (or container) and the prefix, without slashes at either end. */
export interface BucketUrl {
  parsed: URL;
  /** The URL's host: the bucket or container. */
  bucket: string;
  prefix: string;
}

/**
 * Reads `<scheme>://<bucket>/<prefix>`, refusing what no bucket store takes:
 * not a URL, another scheme, credentials in the URL, no bucket. `holder`
 * names the bucket in messages ("bucket", "container"); `credentialsAdvice`
 * says where the credentials go instead.
 *
 * @example
 * parseBucketUrl("gs://acme/.certreseller/journal", "gs", "bucket", "use Application Default Credentials") // bucket "acme", prefix ".certreseller/journal"
 */
export function parseBucketUrl(url: string, scheme: string, holder: string, credentialsAdvice: string): BucketUrl {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch (error) {
    throw new Error(`certreseller: the journal URL ${JSON.stringify(url)} is not a URL; write ${scheme}://<${holder}>/<prefix>`, { cause: error });
  }
  if (parsed.protocol !== `${scheme}:`) throw new Error(`certreseller: the journal URL must start with ${scheme}:// (got ${parsed.protocol}//...)`);
  if (parsed.username || parsed.password) throw new Error(`certreseller: the journal URL must not hold credentials; ${credentialsAdvice}`);
  if (!parsed.hostname) throw new Error(`certreseller: the journal URL names no ${holder}; write ${scheme}://<${holder}>/<prefix>`);
  return { parsed, bucket: parsed.hostname, prefix: decodeURIComponent(parsed.pathname).replace(/^\/+|\/+$/g, "") };
}

/** Where a bucket store keeps its entries: `<scheme>://<bucket>/<prefix>`. */
export interface BucketRoot {
  scheme: string;
  bucket: string;
  /** Without leading or trailing slash ("" for the bucket's root). */
  prefix: string;
}

/**
 * What every bucket store shares: its options checked, its location, an
 * entry's object name under the prefix, each call's deadline and error,
 * and `list` from the SDK's pages. Subclasses talk to their SDK.
 */
export abstract class BucketStore implements JournalStore {
  readonly deadlineMs: number;
  readonly listPageSize: number;
  readonly url?: string;
  /** Whether a plain-http endpoint off this machine is accepted (see {@link checkPlainHttp}). */
  protected readonly allowInsecureHttp: boolean;
  private readonly root: BucketRoot;

  /** `storeName` names the store in option errors ("S3Store"). */
  protected constructor(storeName: string, root: BucketRoot, options: RemoteStoreOptions) {
    const checked = remoteOptions(storeName, options);
    this.deadlineMs = checked.deadlineMs;
    this.listPageSize = checked.listPageSize;
    this.allowInsecureHttp = checked.allowInsecureHttp;
    if (options.url) this.url = options.url;
    this.root = root;
  }

  get location(): string {
    return `${this.root.scheme}://${this.root.bucket}${this.root.prefix ? `/${this.root.prefix}` : ""}`;
  }

  locationOf(name: string): string {
    return `${this.location}/${name}`;
  }

  abstract get(name: string): Promise<string | undefined>;
  abstract put(name: string, text: string): Promise<void>;
  abstract delete(name: string): Promise<void>;

  async list(): Promise<string[]> {
    // One deadline for every page: it also ends a server that announces more pages forever.
    const call = startCall("list", this.location, this.deadlineMs);
    const names: string[] = [];
    await this.attempt(call, () =>
      this.listObjects(call, this.listPrefix, (objectName) => {
        const name = objectName.slice(this.listPrefix.length);
        if (name.endsWith(".json") && isEntryName(name)) names.push(name);
      }),
    );
    return names.sort();
  }

  /**
   * Lists the objects directly under `prefix` (not in "folders" below it),
   * page by page within the call's deadline, passing each object's full name
   * to `found`.
   */
  protected abstract listObjects(call: Call, prefix: string, found: (objectName: string) => void): Promise<void>;

  /** The error a failed call throws: the store's reading of its SDK's error (an HTTP status, missing credentials, the transport). */
  protected abstract failure(call: Call, error: unknown): Error;

  /** Runs `work` for `call`, throwing {@link failure}'s error if it fails. */
  protected async attempt<T>(call: Call, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw this.failure(call, error);
    }
  }

  /** Starts a call on one entry, its name checked. */
  protected call(what: Call["what"], name: string): Call {
    checkEntryName(name);
    return startCall(what, this.locationOf(name), this.deadlineMs);
  }

  /** The object (key, blob) an entry is, under the prefix; the name checked. */
  protected objectName(name: string): string {
    checkEntryName(name);
    return this.root.prefix ? `${this.root.prefix}/${name}` : name;
  }

  /** What a listing asks for: the prefix and its slash, or "" at the bucket's root. */
  protected get listPrefix(): string {
    return this.root.prefix ? `${this.root.prefix}/` : "";
  }
}
