import { createHash } from "node:crypto";
import aws4 from "aws4";
import { request } from "undici";
import { isLoopback } from "../client/partner-client.js";
import type { JournalStore } from "./store.js";

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
 */
export class S3Store implements JournalStore {
  private readonly origin: URL;

  constructor(
    readonly where: S3Location,
    private readonly credentials: S3Credentials | undefined,
    options: { allowInsecureHttp?: boolean } = {},
  ) {
    this.origin = new URL(where.endpoint ?? `https://s3.${where.region}.amazonaws.com`);
    if (this.origin.protocol === "http:" && !isLoopback(this.origin.hostname) && !options.allowInsecureHttp) {
      throw new Error(
        `certreseller: the journal endpoint ${this.origin.origin} is plain http on a non-loopback host; every request is signed with your AWS key. ` +
          "Use https, or set certreseller:allowInsecureHttp / CERTRESELLER_ALLOW_INSECURE_HTTP=true to accept it.",
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
    const answer = await this.send("GET", this.objectKey(name));
    if (answer.status === 404) return undefined;
    this.expectOk(answer, "read", name);
    return answer.body;
  }

  async put(name: string, text: string): Promise<void> {
    const answer = await this.send("PUT", this.objectKey(name), {}, text);
    this.expectOk(answer, "write", name);
  }

  async delete(name: string): Promise<void> {
    const answer = await this.send("DELETE", this.objectKey(name));
    if (answer.status !== 404) this.expectOk(answer, "delete", name);
  }

  async list(): Promise<string[]> {
    const prefix = this.where.prefix ? `${this.where.prefix}/` : "";
    const names: string[] = [];
    let token: string | undefined;
    do {
      const query: Record<string, string> = { "list-type": "2", prefix, ...(token ? { "continuation-token": token } : {}) };
      const answer = await this.send("GET", "", query);
      this.expectOk(answer, "list", "");
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

  private expectOk(answer: { status: number; body: string }, what: string, name: string): void {
    if (answer.status >= 200 && answer.status < 300) return;
    const code = /<Code>([^<]*)<\/Code>/.exec(answer.body)?.[1];
    throw new Error(
      `certreseller: could not ${what} the purchase journal ${name ? this.locationOf(name) : this.location}: HTTP ${answer.status}${code ? ` ${code}` : ""}` +
        (answer.status === 403 && !this.credentials ? " (no AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY in the environment)" : ""),
    );
  }

  /** One signed request; retried on a network failure or a 5xx (every call here is idempotent: PUT of the same text included). */
  private async send(method: string, key: string, query: Record<string, string> = {}, body?: string): Promise<{ status: number; body: string }> {
    const { bucket, pathStyle, region } = this.where;
    const host = pathStyle ? this.origin.host : `${bucket}.${this.origin.host}`;
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
    for (let attempt = 0; attempt < 3; attempt++) {
      const signed = aws4.sign(
        { host, path: requestPath, method, service: "s3", region, headers: { ...headers }, ...(body !== undefined ? { body } : {}), doNotEncodePath: true },
        this.credentials ?? {},
      );
      try {
        const answer = await request(`${this.origin.protocol}//${host}${requestPath}`, {
          method: method as "GET",
          headers: signed.headers as Record<string, string>,
          body,
          headersTimeout: 30_000,
          bodyTimeout: 30_000,
        });
        const text = await answer.body.text();
        if (answer.statusCode >= 500 && attempt < 2) {
          lastError = new Error(`HTTP ${answer.statusCode}`);
        } else {
          return { status: answer.statusCode, body: text };
        }
      } catch (error) {
        lastError = error;
      }
      await new Promise((resolve) => setTimeout(resolve, 200 * (attempt + 1)));
    }
    throw new Error(`certreseller: the purchase journal ${this.location} did not answer (${(lastError as Error)?.message ?? lastError})`, { cause: lastError });
  }
}

function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function unescapeXml(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" })[e]!);
}
