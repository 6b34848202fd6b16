import type { Readable } from "node:stream";
import type * as GcsSdk from "@google-cloud/storage";
import { BucketStore, callFailed, checkPlainHttp, MAX_ANSWER_BYTES, parseBucketUrl, readText, transportReason, withDeadline, type Call, type RemoteStoreOptions } from "./remote.js";

/** Where a Google Cloud Storage journal lives. */
export interface GcsLocation {
  bucket: string;
  /** Object name prefix without leading or trailing slash ("" for the bucket's root). */
  prefix: string;
  /** `STORAGE_EMULATOR_HOST` (fake-gcs-server, the emulator): requests go there, unauthenticated. Undefined: Google's endpoint. */
  emulatorHost?: string;
}

/**
 * Reads `gs://bucket/prefix`, as Pulumi's gs backend names a bucket. The
 * emulator comes from `STORAGE_EMULATOR_HOST`; credentials are Application
 * Default Credentials (`GOOGLE_APPLICATION_CREDENTIALS`, the gcloud user's
 * ADC file, workload identity, the metadata server), found by the SDK.
 *
 * @example
 * parseGcsUrl("gs://acme-state/.certreseller/journal", {}) // { bucket: "acme-state", prefix: ".certreseller/journal" }
 */
export function parseGcsUrl(url: string, env: NodeJS.ProcessEnv = process.env): GcsLocation {
  const { bucket, prefix } = parseBucketUrl(url, "gs", "bucket", "use Application Default Credentials");
  const emulatorHost = env.STORAGE_EMULATOR_HOST?.trim() || undefined;
  return { bucket, prefix, ...(emulatorHost ? { emulatorHost } : {}) };
}

/** The SDK, loaded at the first GCS store's first call: a program on a local journal never loads it. */
let sdk: typeof GcsSdk | undefined;
function loadSdk(): typeof GcsSdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (sdk ??= require("@google-cloud/storage") as typeof GcsSdk);
}

/** One client per endpoint per process: ADC is resolved (a metadata-server round trip on GCE) once, not per call. */
const clients = new Map<string, GcsSdk.Storage>();

/** Forgets the clients (and the credentials they resolved): tests change the environment between stores. */
export function resetGcsClientsForTests(): void {
  clients.clear();
}

/**
 * A journal in a Google Cloud Storage bucket, through `@google-cloud/storage`
 * and Application Default Credentials. An entry is one object written by
 * one single-request upload (not resumable): GCS replaces objects whole and
 * is strongly consistent, and `put` settles only once the upload answered.
 * Every call ends within `deadlineMs`; an entry over 1 MiB is not read.
 */
export class GcsStore extends BucketStore {
  private readonly origin: string;

  constructor(
    readonly where: GcsLocation,
    options: RemoteStoreOptions = {},
  ) {
    super("GcsStore", { scheme: "gs", bucket: where.bucket, prefix: where.prefix }, options);
    const endpoint = new URL(where.emulatorHost ? (/^https?:\/\//.test(where.emulatorHost) ? where.emulatorHost : `http://${where.emulatorHost}`) : "https://storage.googleapis.com");
    checkPlainHttp(endpoint, endpoint.hostname, this.allowInsecureHttp, { host: endpoint.host, note: " (STORAGE_EMULATOR_HOST)", fix: "" });
    this.origin = endpoint.origin;
  }

  async get(name: string): Promise<string | undefined> {
    const call = this.call("read", name);
    try {
      return await withDeadline(call, async () => {
        const stream = this.file(name).createReadStream({ validation: false }) as Readable;
        return await readText(stream, call, MAX_ANSWER_BYTES);
      });
    } catch (error) {
      if (httpStatus(error) === 404 && !/bucket/i.test((error as Error).message)) return undefined;
      throw this.failure(call, error);
    }
  }

  async put(name: string, text: string): Promise<void> {
    const call = this.call("write", name);
    await this.attempt(call, () => withDeadline(call, () => this.file(name).save(text, { resumable: false, contentType: "application/json", validation: false })));
  }

  async delete(name: string): Promise<void> {
    const call = this.call("delete", name);
    await this.attempt(call, () => withDeadline(call, () => this.file(name).delete({ ignoreNotFound: true })));
  }

  protected async listObjects(call: Call, prefix: string, found: (objectName: string) => void): Promise<void> {
    await withDeadline(call, async () => {
      let pageToken: string | undefined;
      do {
        // One request per page of up to 1,000 names; the delimiter leaves out "folders" under the prefix.
        const [files, next] = await this.bucket().getFiles({ prefix, delimiter: "/", maxResults: this.listPageSize, autoPaginate: false, ...(pageToken ? { pageToken } : {}) });
        for (const file of files) found(file.name);
        pageToken = (next as { pageToken?: string } | null | undefined)?.pageToken;
      } while (pageToken && !call.deadline.aborted);
    });
  }

  private file(name: string): GcsSdk.File {
    return this.bucket().file(this.objectName(name));
  }

  private bucket(): GcsSdk.Bucket {
    const key = this.where.emulatorHost ?? "";
    let client = clients.get(key);
    if (!client) {
      const { Storage } = loadSdk();
      // The SDK would take STORAGE_EMULATOR_HOST from the process's environment verbatim as its base URL, which
      // is no URL when written host:port (as the Go client, so Pulumi's gs backend, and gcloud write it). The
      // emulator is given as the endpoint instead (requests then go unauthenticated); without one, ADC.
      const fromProcess = process.env.STORAGE_EMULATOR_HOST;
      delete process.env.STORAGE_EMULATOR_HOST;
      try {
        client = new Storage({ ...(this.where.emulatorHost ? { apiEndpoint: this.origin } : {}), retryOptions: { autoRetry: true, maxRetries: 2, totalTimeout: Math.ceil(this.deadlineMs / 1000) } });
      } finally {
        if (fromProcess !== undefined) process.env.STORAGE_EMULATOR_HOST = fromProcess;
      }
      clients.set(key, client);
    }
    return client.bucket(this.where.bucket);
  }

  protected failure(call: Call, error: unknown): Error {
    const code = httpStatus(error);
    if (code !== undefined && !call.deadline.aborted) {
      const reason = (error as { errors?: Array<{ reason?: string }> }).errors?.[0]?.reason;
      return callFailed(call, `HTTP ${code}${reason ? ` ${reason}` : ""}`, error);
    }
    if (/Could not load the default credentials|Unable to detect a Project Id/i.test((error as Error)?.message ?? "")) {
      return callFailed(call, `no Google Application Default Credentials found (GOOGLE_APPLICATION_CREDENTIALS, gcloud auth application-default login, or the metadata server): ${(error as Error).message}`, error);
    }
    return callFailed(call, transportReason(call, error, this.origin), error);
  }
}

/** The HTTP status of a GCS API error, if it is one. */
function httpStatus(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "number" ? code : undefined;
}
