import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import aws4 from "aws4";
import { Agent, request } from "undici";
import { isLoopback } from "../client/partner-client.js";
import { describeNetworkError, errorCode } from "../client/transport.js";
import type { JournalStore } from "./store.js";

/** One store call (every attempt, wait and page of it) ends by then: a journal that hangs must not hold a deployment. */
const DEFAULT_DEADLINE_MS = 30_000;
/** An entry is about 1 KiB of JSON, an error page less: anything near 1 MiB is not S3. */
const MAX_ANSWER_BYTES = 1024 * 1024;
/**
 * A ListObjectsV2 page holds at most 1,000 keys (`max-keys`, S3's maximum).
 * At S3's longest key (1,024 bytes) with its markup that is about 1.4 MB;
 * 8 MiB leaves room for XML-escaped keys and is still a bounded buffer.
 */
const MAX_LIST_PAGE_BYTES = 8 * 1024 * 1024;
const ATTEMPTS = 3;

// One connection pool per answer cap, shared by every store of the process (openJournal builds a store
// per call). undici counts body bytes as they arrive and drops the connection past the cap, so an
// endless answer is cut off rather than buffered; the Partner client's Transport caps the same way.
const pools = new Map<number, Agent>();
function poolFor(maxResponseBytes: number): Agent {
  let pool = pools.get(maxResponseBytes);
  if (!pool) pools.set(maxResponseBytes, (pool = new Agent({ maxResponseSize: maxResponseBytes })));
  return pool;
}

/** One store call: what it does and to which object, for messages, and its deadline. */
interface Call {
  what: "read" | "write" | "delete" | "list";
  /** The entry's name, or "" for the journal as a whole. */
  name: string;
  deadline: AbortSignal;
}

export interface S3StoreOptions {
  /** Accept a plain `http://` endpoint whose requests leave the machine (certreseller:allowInsecureHttp). */
  allowInsecureHttp?: boolean;
  /** How long one store call (`get`, `put`, `delete`, `list`: retries and pages included) may take. Default 30 s. */
  deadlineMs?: number;
  /** Keys asked per listing page (`max-keys`), 1 to 1,000. Default 1,000; tests page with fewer. */
  listPageSize?: number;
}

/** Where an S3 journal lives and how to reach it. Credentials stay out of `location` and every message. */
export interface S3Location {
  bucket: string;
  /** Key prefix without leading or trailing slash ("" for the bucket's root). */
  prefix: string;
  region: string;
  /** `https://s3.<region>.amazonaws.com` style origin, or the override for an S3-compatible store. */
  endpoint?: string;
  /** Path-style addressing (`<endpoint>/<bucket>/<key>`): the default with an endpoint override (MinIO, R2, GCS interop). */
  pathStyle: boolean;
}

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * Reads `s3://bucket/prefix[?region=...&endpoint=...&pathStyle=true]` with
 * the standard AWS environment: `AWS_REGION` / `AWS_DEFAULT_REGION`,
 * `AWS_ENDPOINT_URL_S3` / `AWS_ENDPOINT_URL`, `AWS_ACCESS_KEY_ID`,
 * `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`. Values in the URL win over
 * the environment.
 *
 * @example
 * parseS3Url("s3://ci-journal/certreseller?endpoint=http://127.0.0.1:9000", {}).location.pathStyle === true
 */
export function parseS3Url(url: string, env: NodeJS.ProcessEnv = process.env): { location: S3Location; credentials?: S3Credentials } {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new Error(`certreseller: the journal URL ${JSON.stringify(url)} is not a URL; write s3://<bucket>/<prefix>`);
  }
  if (parsed.protocol !== "s3:") throw new Error(`certreseller: the journal URL must start with s3:// (got ${parsed.protocol}//...)`);
  if (parsed.username || parsed.password) {
    throw new Error("certreseller: the journal URL must not hold credentials; use AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
  }
  const bucket = parsed.hostname;
  if (!bucket) throw new Error("certreseller: the journal URL names no bucket; write s3://<bucket>/<prefix>");
  const prefix = decodeURIComponent(parsed.pathname).replace(/^\/+|\/+$/g, "");
  const q = parsed.searchParams;
  const region = q.get("region") || env.AWS_REGION || env.AWS_DEFAULT_REGION || "us-east-1";
  const endpoint = (q.get("endpoint") || env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || "").replace(/\/+$/, "") || undefined;
  const pathStyleParam = q.get("pathStyle") ?? q.get("forcePathStyle");
  const pathStyle = pathStyleParam !== null ? /^(true|1|yes)$/i.test(pathStyleParam) : endpoint !== undefined || bucket.includes(".");
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  const credentials =
    accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) } : undefined;
  return { location: { bucket, prefix, region, endpoint, pathStyle }, credentials };
}

/**
 * A journal in an S3-compatible bucket, signed with AWS Signature V4 (the
 * `aws4` signer) and sent with undici. An entry is one object, written by
 * one PUT: S3 replaces objects whole and reads after a write see it, so the
 * file journal's guarantees carry over. `put` settles only on a 2xx answer.
 *
 * Every call ends within `deadlineMs`, answers are capped (1 MiB, a listing
 * page 8 MiB), and plain http is refused unless the host the requests go
 * to is loopback.
 */
export class S3Store implements JournalStore {
  private readonly origin: URL;
  /** `host[:port]` every request is sent to: the endpoint's, or the bucket's under it (virtual-hosted). */
  private readonly host: string;
  readonly deadlineMs: number;
  readonly listPageSize: number;

  constructor(
    readonly where: S3Location,
    private readonly credentials: S3Credentials | undefined,
    options: S3StoreOptions = {},
  ) {
    const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    if (!Number.isFinite(deadlineMs) || deadlineMs <= 0) throw new TypeError("certreseller: S3Store deadlineMs must be a positive number of milliseconds");
    this.deadlineMs = deadlineMs;
    const listPageSize = options.listPageSize ?? 1000;
    if (!Number.isInteger(listPageSize) || listPageSize < 1 || listPageSize > 1000) throw new TypeError("certreseller: S3Store listPageSize must be a whole number from 1 to 1000");
    this.listPageSize = listPageSize;
    this.origin = new URL(where.endpoint ?? `https://s3.${where.region}.amazonaws.com`);
    const target = (host: string): string => (where.pathStyle ? host : `${where.bucket}.${host}`);
    this.host = target(this.origin.host);
    // The rule applies to the host requests reach, not the endpoint's: `bucket.localhost` is not
    // loopback (a resolver may send it to DNS), and `bucket.127.0.0.1` is a DNS name, not an address.
    if (this.origin.protocol === "http:" && !options.allowInsecureHttp && !isLoopback(target(this.origin.hostname))) {
      throw new Error(
        `certreseller: the journal endpoint ${this.origin.origin} sends every request to ${this.host}${where.pathStyle ? "" : " (virtual-hosted addressing)"}: ` +
          "plain http on a non-loopback host; every request is signed with your AWS key. " +
          `Use https${where.pathStyle ? "" : ", or path-style addressing (pathStyle=true, the default with an endpoint)"}, ` +
          "or set certreseller:allowInsecureHttp / CERTRESELLER_ALLOW_INSECURE_HTTP=true to accept it.",
      );
    }
  }

  get location(): string {
    return `s3://${this.where.bucket}${this.where.prefix ? `/${this.where.prefix}` : ""}`;
  }

  locationOf(name: string): string {
    return `${this.location}/${name}`;
  }

  async get(name: string): Promise<string | undefined> {
    const call = this.call("read", name);
    const answer = await this.send(call, "GET", this.objectKey(name));
    if (answer.status === 404) return undefined;
    this.expectOk(answer, call);
    return answer.body;
  }

  async put(name: string, text: string): Promise<void> {
    const call = this.call("write", name);
    this.expectOk(await this.send(call, "PUT", this.objectKey(name), {}, text), call);
  }

  async delete(name: string): Promise<void> {
    const call = this.call("delete", name);
    const answer = await this.send(call, "DELETE", this.objectKey(name));
    if (answer.status !== 404) this.expectOk(answer, call);
  }

  async list(): Promise<string[]> {
    // One deadline for every page: it also ends a server that announces more pages forever.
    const call = this.call("list", "");
    const prefix = this.where.prefix ? `${this.where.prefix}/` : "";
    const names: string[] = [];
    let token: string | undefined;
    do {
      const query: Record<string, string> = { "list-type": "2", "max-keys": String(this.listPageSize), prefix, ...(token ? { "continuation-token": token } : {}) };
      const answer = await this.send(call, "GET", "", query);
      this.expectOk(answer, call);
      for (const match of answer.body.matchAll(/<Key>([^<]*)<\/Key>/g)) {
        const key = unescapeXml(match[1]!);
        const name = key.slice(prefix.length);
        if (name.endsWith(".json") && !name.includes("/")) names.push(name);
      }
      token = /<IsTruncated>true<\/IsTruncated>/.test(answer.body) ? unescapeXml(/<NextContinuationToken>([^<]*)</.exec(answer.body)?.[1] ?? "") : undefined;
    } while (token);
    return names.sort();
  }

  private objectKey(name: string): string {
    return this.where.prefix ? `${this.where.prefix}/${name}` : name;
  }

  private call(what: Call["what"], name: string): Call {
    return { what, name, deadline: AbortSignal.timeout(this.deadlineMs) };
  }

  private failure(call: Call, reason: string, cause?: unknown): Error {
    return new Error(`certreseller: could not ${call.what} the purchase journal ${call.name ? this.locationOf(call.name) : this.location}: ${reason}`, { cause });
  }

  private expectOk(answer: { status: number; body: string }, call: Call): void {
    if (answer.status >= 200 && answer.status < 300) return;
    const code = /<Code>([^<]*)<\/Code>/.exec(answer.body)?.[1];
    throw this.failure(
      call,
      `HTTP ${answer.status}${code ? ` ${code}` : ""}` +
        (answer.status === 403 && !this.credentials ? " (no AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY in the environment)" : ""),
    );
  }

  /**
   * One signed request, within the call's deadline; retried on a network
   * failure or a 5xx (every call here is idempotent: PUT of the same text
   * included), never on an answer over the cap (it would be as big again).
   */
  private async send(call: Call, method: string, key: string, query: Record<string, string> = {}, body?: string): Promise<{ status: number; body: string }> {
    const { bucket, pathStyle, region } = this.where;
    const host = this.host;
    const maxBytes = call.what === "list" ? MAX_LIST_PAGE_BYTES : MAX_ANSWER_BYTES;
    const timedOut = (cause: unknown): Error => this.failure(call, `no complete answer within ${this.deadlineMs} ms (the journal's deadline)`, cause);
    const encodedKey = key.split("/").map(encodeRfc3986).join("/");
    const basePath = (this.origin.pathname.replace(/\/+$/, "") || "") + (pathStyle ? `/${encodeRfc3986(bucket)}` : "");
    const search = Object.keys(query)
      .sort()
      .map((k) => `${encodeRfc3986(k)}=${encodeRfc3986(query[k]!)}`)
      .join("&");
    const requestPath = `${basePath}/${encodedKey}${search ? `?${search}` : ""}`;
    const headers: Record<string, string> = body !== undefined ? { "content-type": "application/json" } : {};
    if (body !== undefined) headers["x-amz-content-sha256"] = createHash("sha256").update(body).digest("hex");
    let lastError: unknown;
    let lastReason = "";
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const signed = aws4.sign(
        { host, path: requestPath, method, service: "s3", region, headers: { ...headers }, ...(body !== undefined ? { body } : {}), doNotEncodePath: true },
        this.credentials ?? {},
      );
      try {
        const answer = await request(`${this.origin.protocol}//${host}${requestPath}`, {
          dispatcher: poolFor(maxBytes),
          method: method as "GET",
          headers: signed.headers as Record<string, string>,
          body,
          // Aborts connect, headers and body alike: per-read idle timers never end a trickling answer.
          signal: call.deadline,
        });
        const text = await answer.body.text();
        if (answer.statusCode >= 500 && attempt < ATTEMPTS - 1) {
          lastError = new Error(`HTTP ${answer.statusCode}`);
          lastReason = `HTTP ${answer.statusCode}`;
        } else {
          return { status: answer.statusCode, body: text };
        }
      } catch (error) {
        if (call.deadline.aborted) throw timedOut(error);
        if (errorCode(error) === "UND_ERR_RES_EXCEEDED_MAX_SIZE") throw this.failure(call, `the answer exceeded ${maxBytes} bytes`, error);
        lastError = error;
        lastReason = describeNetworkError(error);
      }
      if (attempt === ATTEMPTS - 1) break;
      try {
        await sleep(200 * (attempt + 1), undefined, { signal: call.deadline });
      } catch (error) {
        throw timedOut(error);
      }
    }
    throw this.failure(call, `no answer from ${this.origin.protocol}//${host} after ${ATTEMPTS} attempts (the last: ${lastReason})`, lastError);
  }
}

function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function unescapeXml(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" })[e]!);
}
