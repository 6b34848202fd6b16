import type { Readable } from "node:stream";
import type * as AzureBlobSdk from "@azure/storage-blob";
import type * as AzureIdentitySdk from "@azure/identity";
import { BucketStore, callFailed, checkPlainHttp, MAX_ANSWER_BYTES, parseBucketUrl, readText, transportReason, type Call, type RemoteStoreOptions } from "./remote.js";

/** How an Azure Blob journal authenticates: the first the environment offers, in Pulumi's azblob backend's order. */
export type AzureAuth =
  | { kind: "connection-string"; connectionString: string }
  | { kind: "shared-key"; accountKey: string }
  | { kind: "sas"; sasToken: string }
  | { kind: "default-azure-credential" };

/** Where an Azure Blob journal lives. Secrets (keys, SAS, connection string) stay in `auth`, out of every message. */
export interface AzureBlobLocation {
  container: string;
  /** Blob name prefix without leading or trailing slash ("" for the container's root). */
  prefix: string;
  /** The storage account (`storage_account=`, `AZURE_STORAGE_ACCOUNT`, or the connection string's). */
  account?: string;
  /** The blob service URL, e.g. `https://<account>.blob.core.windows.net` or Azurite's `http://127.0.0.1:10000/devstoreaccount1`. */
  serviceUrl: string;
  auth: AzureAuth;
}

/**
 * Reads `azblob://container/prefix[?storage_account=…&domain=…&protocol=…&localemu=true]`
 * with the environment Pulumi's azblob backend reads:
 * `AZURE_STORAGE_CONNECTION_STRING`, else `AZURE_STORAGE_ACCOUNT` with
 * `AZURE_STORAGE_KEY` or `AZURE_STORAGE_SAS_TOKEN`, else the account with
 * `DefaultAzureCredential` (environment service principal, workload
 * identity, managed identity, Azure CLI login); the service URL from
 * `AZURE_STORAGE_DOMAIN` (default `blob.core.windows.net`),
 * `AZURE_STORAGE_PROTOCOL` and `AZURE_STORAGE_IS_LOCAL_EMULATOR` (Azurite:
 * `<protocol>://<domain>/<account>`). Query options win over the environment.
 *
 * @example
 * parseAzureBlobUrl("azblob://state/.certreseller/journal", { AZURE_STORAGE_ACCOUNT: "acme" }).serviceUrl === "https://acme.blob.core.windows.net"
 */
export function parseAzureBlobUrl(url: string, env: NodeJS.ProcessEnv = process.env): AzureBlobLocation {
  const { parsed, bucket: container, prefix } = parseBucketUrl(url, "azblob", "container", "use AZURE_STORAGE_KEY, a SAS token, a connection string or an Azure identity");
  const q = parsed.searchParams;
  const connectionString = env.AZURE_STORAGE_CONNECTION_STRING?.trim();
  if (connectionString) {
    const { account, serviceUrl } = connectionStringEndpoint(connectionString);
    return { container, prefix, ...(account ? { account } : {}), serviceUrl, auth: { kind: "connection-string", connectionString } };
  }
  const account = q.get("storage_account") || env.AZURE_STORAGE_ACCOUNT?.trim();
  if (!account) {
    throw new Error(
      `certreseller: the journal ${url.replace(/\?.*$/, "")} names no storage account: set AZURE_STORAGE_ACCOUNT (with AZURE_STORAGE_KEY, AZURE_STORAGE_SAS_TOKEN, or an Azure identity), or AZURE_STORAGE_CONNECTION_STRING`,
    );
  }
  const domain = q.get("domain") || env.AZURE_STORAGE_DOMAIN?.trim() || "blob.core.windows.net";
  const protocol = (q.get("protocol") || env.AZURE_STORAGE_PROTOCOL?.trim() || "https").replace(/:$/, "");
  const localEmulator = /^(true|1|yes)$/i.test(q.get("localemu") || env.AZURE_STORAGE_IS_LOCAL_EMULATOR?.trim() || "");
  const serviceUrl = localEmulator ? `${protocol}://${domain}/${account}` : `${protocol}://${account}.${domain}`;
  const auth: AzureAuth = env.AZURE_STORAGE_KEY?.trim()
    ? { kind: "shared-key", accountKey: env.AZURE_STORAGE_KEY.trim() }
    : env.AZURE_STORAGE_SAS_TOKEN?.trim()
      ? { kind: "sas", sasToken: env.AZURE_STORAGE_SAS_TOKEN.trim().replace(/^\?/, "") }
      : { kind: "default-azure-credential" };
  return { container, prefix, account, serviceUrl, auth };
}

/** The blob endpoint and account a connection string names (its secrets are not read here). */
function connectionStringEndpoint(connectionString: string): { account?: string; serviceUrl: string } {
  const parts = new Map<string, string>();
  for (const part of connectionString.split(";")) {
    const at = part.indexOf("=");
    if (at > 0) parts.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim());
  }
  if (/^true$/i.test(parts.get("usedevelopmentstorage") ?? "")) return { account: "devstoreaccount1", serviceUrl: "http://127.0.0.1:10000/devstoreaccount1" };
  const account = parts.get("accountname");
  const blobEndpoint = parts.get("blobendpoint");
  if (blobEndpoint) return { ...(account ? { account } : {}), serviceUrl: blobEndpoint.replace(/\/+$/, "") };
  if (!account) throw new Error("certreseller: AZURE_STORAGE_CONNECTION_STRING names neither BlobEndpoint nor AccountName");
  const protocol = parts.get("defaultendpointsprotocol") ?? "https";
  return { account, serviceUrl: `${protocol}://${account}.blob.${parts.get("endpointsuffix") ?? "core.windows.net"}` };
}

/** The SDKs, loaded at the first Azure store's first call: a program on a local journal never loads them. */
let sdk: typeof AzureBlobSdk | undefined;
function loadSdk(): typeof AzureBlobSdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (sdk ??= require("@azure/storage-blob") as typeof AzureBlobSdk);
}
function loadIdentity(): typeof AzureIdentitySdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("@azure/identity") as typeof AzureIdentitySdk;
}

/** One client per service and authentication per process: an identity's token is fetched once, not per call. */
const clients = new Map<string, AzureBlobSdk.BlobServiceClient>();

/** Forgets the clients (and the credentials they resolved): tests change the environment between stores. */
export function resetAzureClientsForTests(): void {
  clients.clear();
}

/**
 * A journal in an Azure Blob Storage container, through
 * `@azure/storage-blob`. An entry is one block blob written by one Put Blob
 * request: Azure replaces blobs whole and is strongly consistent, and `put`
 * settles only once the upload answered 201. Every call ends within
 * `deadlineMs` (the SDK's retries included); an entry over 1 MiB is not read.
 */
export class AzureBlobStore extends BucketStore {
  private readonly origin: string;

  constructor(
    readonly where: AzureBlobLocation,
    options: RemoteStoreOptions = {},
  ) {
    super("AzureBlobStore", { scheme: "azblob", bucket: where.container, prefix: where.prefix }, options);
    let endpoint: URL;
    try {
      endpoint = new URL(where.serviceUrl);
    } catch (error) {
      throw new Error(`certreseller: the Azure blob service URL ${JSON.stringify(where.serviceUrl)} is not a URL (check AZURE_STORAGE_DOMAIN / AZURE_STORAGE_PROTOCOL)`, { cause: error });
    }
    checkPlainHttp(endpoint, endpoint.hostname, this.allowInsecureHttp, { host: endpoint.host, note: "", fix: "" });
    this.origin = endpoint.origin;
  }

  async get(name: string): Promise<string | undefined> {
    const call = this.call("read", name);
    try {
      const answer = await this.blob(name).download(0, undefined, { abortSignal: call.deadline });
      return await readText(answer.readableStreamBody as Readable, call, MAX_ANSWER_BYTES);
    } catch (error) {
      if (errorCodeOf(error) === "BlobNotFound") return undefined;
      throw this.failure(call, error);
    }
  }

  async put(name: string, text: string): Promise<void> {
    const call = this.call("write", name);
    await this.attempt(call, () => this.blob(name).upload(text, Buffer.byteLength(text), { blobHTTPHeaders: { blobContentType: "application/json" }, abortSignal: call.deadline }));
  }

  async delete(name: string): Promise<void> {
    const call = this.call("delete", name);
    await this.attempt(call, () => this.blob(name).deleteIfExists({ abortSignal: call.deadline }));
  }

  protected async listObjects(call: Call, prefix: string, found: (objectName: string) => void): Promise<void> {
    // One request per page of up to 1,000 names; the delimiter leaves out "folders" under the prefix.
    const pages = this.container().listBlobsByHierarchy("/", { prefix, abortSignal: call.deadline }).byPage({ maxPageSize: this.listPageSize });
    for await (const page of pages) for (const blob of page.segment.blobItems) found(blob.name);
  }

  private blob(name: string): AzureBlobSdk.BlockBlobClient {
    return this.container().getBlockBlobClient(this.objectName(name));
  }

  private container(): AzureBlobSdk.ContainerClient {
    const { auth, serviceUrl, account } = this.where;
    const key = JSON.stringify([serviceUrl, auth.kind, account]);
    let client = clients.get(key);
    if (!client) {
      const { BlobServiceClient, StorageSharedKeyCredential } = loadSdk();
      const pipeline = { retryOptions: { maxTries: 3 } };
      if (auth.kind === "connection-string") client = BlobServiceClient.fromConnectionString(auth.connectionString, pipeline);
      else if (auth.kind === "shared-key") client = new BlobServiceClient(serviceUrl, new StorageSharedKeyCredential(account!, auth.accountKey), pipeline);
      else if (auth.kind === "sas") client = new BlobServiceClient(`${serviceUrl}?${auth.sasToken}`, undefined, pipeline);
      else client = new BlobServiceClient(serviceUrl, new (loadIdentity().DefaultAzureCredential)(), pipeline);
      clients.set(key, client);
    }
    return client.getContainerClient(this.where.container);
  }

  protected failure(call: Call, error: unknown): Error {
    const status = (error as { statusCode?: unknown } | null)?.statusCode;
    if (typeof status === "number" && !call.deadline.aborted) {
      const code = errorCodeOf(error);
      return callFailed(call, `HTTP ${status}${code ? ` ${code}` : ""}`, error);
    }
    if ((error as Error)?.name === "CredentialUnavailableError" || (error as Error)?.name === "AggregateAuthenticationError") {
      return callFailed(
        call,
        "no Azure credentials found (AZURE_STORAGE_CONNECTION_STRING, AZURE_STORAGE_KEY, AZURE_STORAGE_SAS_TOKEN, or DefaultAzureCredential: " +
          `environment service principal, workload identity, managed identity, Azure CLI): ${(error as Error).message}`,
        error,
      );
    }
    return callFailed(call, transportReason(call, error, this.origin), error);
  }
}

/** The storage service's error code (`BlobNotFound`, `ContainerNotFound`, `AuthenticationFailed`…), if any. */
function errorCodeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown; details?: { errorCode?: unknown } } | null)?.details?.errorCode ?? (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}
