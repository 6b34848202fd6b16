import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import type * as S3Sdk from "@aws-sdk/client-s3";
import {
  AnswerTooLarge,
  BucketStore,
  callFailed,
  findCause,
  capBody,
  checkPlainHttp,
  MAX_ANSWER_BYTES,
  MAX_LIST_PAGE_BYTES,
  parseBucketUrl,
  readText,
  transportReason,
  type Call,
  type RemoteStoreOptions,
} from "./remote.js";

/** Options of {@link S3Store}. */
export type S3StoreOptions = RemoteStoreOptions;

/** Where an S3 journal lives and how to reach it. Credentials stay out of `location` and every message. */
export interface S3Location {
  bucket: string;
  /** Key prefix without leading or trailing slash ("" for the bucket's root). */
  prefix: string;
  /** The URL's `region`, else `AWS_REGION` / `AWS_DEFAULT_REGION`; undefined: the profile's region, else us-east-1 (as the AWS CLI). */
  region?: string;
  /** The override for an S3-compatible store (URL `endpoint`, `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`); undefined: AWS's own, or the profile's `endpoint_url`. */
  endpoint?: string;
  /** Path-style addressing (`<endpoint>/<bucket>/<key>`): the default with an endpoint override (MinIO, R2, GCS interop). */
  pathStyle: boolean;
  /** The shared-config profile (URL `profile`, else `AWS_PROFILE`); undefined: `default`. */
  profile?: string;
}

/** Static keys, when the environment given holds them (the chain's first source, read from that environment). */
export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * Reads `s3://bucket/prefix[?region=…&endpoint=…&pathStyle=true&profile=…]`
 * the way the AWS CLI reads its environment: region from the URL, else
 * `AWS_REGION` / `AWS_DEFAULT_REGION`, else the profile's; endpoint from the
 * URL, else `AWS_ENDPOINT_URL_S3` / `AWS_ENDPOINT_URL`, else the profile's.
 * Pulumi's own s3 backend options are read too (`s3ForcePathStyle`,
 * `use_path_style`, an endpoint written `host:port` with `disableSSL`);
 * others (`awssdk`) are ignored. `credentials` holds the
 * environment's `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` pair when set;
 * without it the SDK's default chain finds them (profile, SSO, web
 * identity, container, instance metadata).
 *
 * @example
 * parseS3Url("s3://ci-journal/certreseller?endpoint=http://127.0.0.1:9000", {}).location.pathStyle === true
 */
export function parseS3Url(url: string, env: NodeJS.ProcessEnv = process.env): { location: S3Location; credentials?: S3Credentials } {
  const { parsed, bucket, prefix } = parseBucketUrl(url, "s3", "bucket", "use the AWS environment, a profile or a role");
  const q = parsed.searchParams;
  const region = q.get("region") || env.AWS_REGION || env.AWS_DEFAULT_REGION || undefined;
  let endpoint = (q.get("endpoint") || env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || "").replace(/\/+$/, "") || undefined;
  // Pulumi's older s3 backend URLs name the endpoint as host:port, with disableSSL=true for plain http.
  if (endpoint && !/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint)) endpoint = `${/^(true|1|yes)$/i.test(q.get("disableSSL") ?? "") ? "http" : "https"}://${endpoint}`;
  const pathStyleParam = q.get("pathStyle") ?? q.get("forcePathStyle") ?? q.get("s3ForcePathStyle") ?? q.get("use_path_style");
  const pathStyle = pathStyleParam !== null ? /^(true|1|yes)$/i.test(pathStyleParam) : endpoint !== undefined || bucket.includes(".");
  const profile = q.get("profile") || env.AWS_PROFILE || undefined;
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  const credentials =
    accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) } : undefined;
  return { location: { bucket, prefix, region, endpoint, pathStyle, ...(profile ? { profile } : {}) }, credentials };
}

/** The SDK, loaded at the first S3 store's first call: a program on a local journal never loads it. */
let sdk: typeof S3Sdk | undefined;
function loadSdk(): typeof S3Sdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (sdk ??= require("@aws-sdk/client-s3") as typeof S3Sdk);
}

/**
 * One client per configuration per process: openJournal builds a store per
 * call, and a client per store would resolve credentials (an STS or
 * instance-metadata round trip) on every journal call.
 */
const clients = new Map<string, S3Sdk.S3Client>();

/** Forgets the clients (and the credentials they resolved): tests change the environment between stores. */
export function resetS3ClientsForTests(): void {
  clients.clear();
}

/**
 * A journal in an S3 bucket (or an S3-compatible store), through
 * `@aws-sdk/client-s3` and the SDK's default credential chain. An entry is
 * one object written by one PutObject: S3 replaces objects whole and reads
 * after a write see it, so the file journal's guarantees carry over; `put`
 * settles only once S3 answered 2xx.
 *
 * Every call ends within `deadlineMs` (the SDK's retries included), answers
 * are capped (1 MiB, a listing page 8 MiB), and plain http is refused unless
 * the host the requests reach is loopback.
 */
export class S3Store extends BucketStore {
  /** The endpoint requests go to, for messages. */
  private readonly origin: string;

  constructor(
    readonly where: S3Location,
    private readonly credentials: S3Credentials | undefined,
    options: S3StoreOptions = {},
  ) {
    super("S3Store", { scheme: "s3", bucket: where.bucket, prefix: where.prefix }, options);
    const endpoint = new URL(where.endpoint ?? `https://s3.${where.region ?? "us-east-1"}.amazonaws.com`);
    // The rule applies to the host requests reach, not the endpoint's: `bucket.localhost` is not
    // loopback (a resolver may send it to DNS), and `bucket.127.0.0.1` is a DNS name, not an address.
    const host = where.pathStyle ? endpoint.host : `${where.bucket}.${endpoint.host}`;
    const hostname = where.pathStyle ? endpoint.hostname : `${where.bucket}.${endpoint.hostname}`;
    checkPlainHttp(endpoint, hostname, this.allowInsecureHttp, {
      host,
      note: where.pathStyle ? "" : " (virtual-hosted addressing)",
      fix: where.pathStyle ? "" : ", or path-style addressing (pathStyle=true, the default with an endpoint)",
    });
    this.origin = `${endpoint.protocol}//${host}`;
  }

  async get(name: string): Promise<string | undefined> {
    const call = this.call("read", name);
    try {
      const answer = await this.client().send(new (loadSdk().GetObjectCommand)({ Bucket: this.where.bucket, Key: this.objectName(name) }), { abortSignal: call.deadline });
      return await readText(answer.Body as Readable, call, MAX_ANSWER_BYTES);
    } catch (error) {
      if (status(error) === 404 && (error as Error).name === "NoSuchKey") return undefined;
      throw this.failure(call, error);
    }
  }

  async put(name: string, text: string): Promise<void> {
    const call = this.call("write", name);
    await this.attempt(call, () =>
      this.client().send(new (loadSdk().PutObjectCommand)({ Bucket: this.where.bucket, Key: this.objectName(name), Body: text, ContentType: "application/json" }), {
        abortSignal: call.deadline,
      }),
    );
  }

  async delete(name: string): Promise<void> {
    const call = this.call("delete", name);
    try {
      await this.client().send(new (loadSdk().DeleteObjectCommand)({ Bucket: this.where.bucket, Key: this.objectName(name) }), { abortSignal: call.deadline });
    } catch (error) {
      if (status(error) === 404 && (error as Error).name === "NoSuchKey") return;
      throw this.failure(call, error);
    }
  }

  protected async listObjects(call: Call, prefix: string, found: (objectName: string) => void): Promise<void> {
    let token: string | undefined;
    do {
      const page = await this.client().send(
        new (loadSdk().ListObjectsV2Command)({ Bucket: this.where.bucket, Prefix: prefix, MaxKeys: this.listPageSize, ...(token ? { ContinuationToken: token } : {}) }),
        { abortSignal: call.deadline },
      );
      for (const object of page.Contents ?? []) found(object.Key ?? "");
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  protected failure(call: Call, error: unknown): Error {
    const code = status(error);
    if (code !== undefined && !call.deadline.aborted && !findCause(error, (e): e is AnswerTooLarge => e instanceof AnswerTooLarge)) {
      const name = (error as Error).name;
      return callFailed(call, `HTTP ${code}${name && !/^(Unknown|S3ServiceException|Error)$/.test(name) ? ` ${name}` : ""}`, error);
    }
    if ((error as Error)?.name === "CredentialsProviderError") {
      return callFailed(
        call,
        "no AWS credentials found (environment, AWS_PROFILE's shared config and credentials files, SSO, web identity, container or instance metadata): " +
          (error as Error).message,
        error,
      );
    }
    return callFailed(call, transportReason(call, error, this.origin), error);
  }

  /** The SDK client for this store's configuration, built once per process. */
  private client(): S3Sdk.S3Client {
    const { region, endpoint, pathStyle, profile } = this.where;
    const secret = this.credentials ? createHash("sha256").update(JSON.stringify(this.credentials)).digest("hex") : "";
    const key = JSON.stringify([region, endpoint, pathStyle, profile, secret]);
    let client = clients.get(key);
    if (!client) {
      const { S3Client } = loadSdk();
      client = new S3Client({
        // The AWS CLI's last resort too: a bucket in another region answers with its region, which the SDK follows.
        region: region ?? regionOfProfile(profile),
        ...(endpoint ? { endpoint } : {}),
        forcePathStyle: pathStyle,
        followRegionRedirects: true,
        ...(profile ? { profile } : {}),
        ...(this.credentials ? { credentials: this.credentials } : {}),
        // S3-compatible stores (R2, GCS interop, older MinIO) refuse the newer default checksum headers; S3 needs none here.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      });
      // Inner to the deserializer: every answer body passes a byte cap before the SDK buffers it.
      client.middlewareStack.add(
        (next, context) => async (args) => {
          const result = await next(args);
          const response = result.response as { body?: unknown };
          if (response.body && typeof (response.body as Readable).pipe === "function") {
            response.body = capBody(response.body as Readable, context.commandName === "ListObjectsV2Command" ? MAX_LIST_PAGE_BYTES : MAX_ANSWER_BYTES);
          }
          return result;
        },
        { step: "deserialize", priority: "low", name: "certresellerAnswerCap" },
      );
      clients.set(key, client);
    }
    return client;
  }
}

/** The profile's region from the shared config files, else us-east-1 (what the AWS CLI defaults to for S3). */
function regionOfProfile(profile: string | undefined): () => Promise<string> {
  return async () => {
    const { S3Client } = loadSdk();
    try {
      return await new S3Client(profile ? { profile } : {}).config.region();
    } catch {
      return "us-east-1";
    }
  };
}

/** The HTTP status of an SDK service error, if it is one. */
function status(error: unknown): number | undefined {
  const code = (error as { $metadata?: { httpStatusCode?: unknown } } | null)?.$metadata?.httpStatusCode;
  return typeof code === "number" ? code : undefined;
}
