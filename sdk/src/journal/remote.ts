import { PassThrough, pipeline, type Readable } from "node:stream";
import { isLoopback } from "../client/partner-client.js";
import { describeNetworkError, errorCode } from "../client/transport.js";

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
