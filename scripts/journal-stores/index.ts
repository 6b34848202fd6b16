/**
 * The bucket servers the purchase journal's stores are tested against, on
 * loopback: MinIO (an S3 server people run in production), fake-gcs-server
 * (Google Cloud Storage's emulator) and Azurite (Azure's own Blob emulator,
 * an npm package of the workspace). The two Go servers are built from the
 * Go module proxy once per user and cached; each start takes a free port
 * and a temporary folder, and `stop` removes both.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { findOnPath } from "../engine/which.js";

export type Log = (line: string) => void;

/** A Go server built from the module proxy: module, pinned version, and the binary `go install` writes. */
interface GoServer {
  label: string;
  module: string;
  version: string;
  binary: string;
  /** Cold build on this machine kind (2 cores), said when a build starts. */
  expected: string;
}

/** The newest MinIO the proxy serves here (its releases are pseudo-versions); `go install` builds it as it is, no replace directives. */
export const MINIO: GoServer = { label: "MinIO", module: "github.com/minio/minio", version: "v0.0.0-20260212201848-7aac2a2c5b7c", binary: "minio", expected: "9 to 11 min cold" };
export const FAKE_GCS: GoServer = { label: "fake-gcs-server", module: "github.com/fsouza/fake-gcs-server", version: "v1.56.1", binary: "fake-gcs-server", expected: "2 to 6 min cold" };

/** The repository root (this file lives in `scripts/journal-stores/`). */
const repoRoot = path.resolve(__dirname, "..", "..");

/** `${CERTRESELLER_STORES_CACHE:-${XDG_CACHE_HOME:-~/.cache}/pulumi-certreseller/journal-stores}`: per user, shared by every clone. */
export function storesCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CERTRESELLER_STORES_CACHE) return path.resolve(env.CERTRESELLER_STORES_CACHE);
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-certreseller", "journal-stores");
}

/** Where a server's binary lives in the cache: one folder per version. */
export function cachedBinary(server: GoServer, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(storesCacheRoot(env), `${server.binary}-${server.version}`, server.binary);
}

/**
 * The server's binary: cached, else built with `go install module@version`
 * into a temporary folder and renamed into the cache (an interrupted build
 * leaves nothing half-written there). Parallel callers wait for one build.
 *
 * @example
 * const minio = await ensureGoServer(MINIO, console.error);
 */
export async function ensureGoServer(server: GoServer, log: Log, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const output = cachedBinary(server, env);
  if (fs.existsSync(output)) return output;
  const go = findOnPath("go", env.PATH) ?? (fs.existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : undefined);
  if (!go) throw new Error(`cannot provide ${server.label}: not cached at ${output}, and no \`go\` on PATH to build ${server.module}@${server.version}`);
  fs.mkdirSync(path.dirname(output), { recursive: true });
  const release = await lock(`${output}.lock`, server.label, log);
  try {
    if (fs.existsSync(output)) return output; // built meanwhile by another test file
    const started = Date.now();
    log(`${server.label}: building ${server.module}@${server.version} from the Go module proxy (${server.expected} on 2 cores)`);
    const gobin = fs.mkdtempSync(path.join(path.dirname(output), ".build-"));
    try {
      await run(go, ["install", `${server.module}@${server.version}`], { ...env, GOBIN: gobin, CGO_ENABLED: "0", GOFLAGS: `${env.GOFLAGS ?? ""} -buildvcs=false`.trim() }, server.label, log, started);
      fs.renameSync(path.join(gobin, server.binary), output);
    } finally {
      fs.rmSync(gobin, { recursive: true, force: true });
    }
    log(`${server.label}: built in ${Math.round((Date.now() - started) / 1000)} s: ${output}`);
    return output;
  } finally {
    release();
  }
}

/** Runs a build, a progress line every 30 s; fails with its last output lines. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, label: string, log: Log, started: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"], cwd: os.tmpdir() });
    let tail = "";
    const keep = (chunk: Buffer): void => void (tail = (tail + chunk.toString()).slice(-4000));
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const progress = setInterval(() => log(`${label}: still building (${Math.round((Date.now() - started) / 1000)} s)`), 30_000);
    child.on("error", (error) => {
      clearInterval(progress);
      reject(new Error(`${label}: could not run ${command}`, { cause: error }));
    });
    child.on("close", (code) => {
      clearInterval(progress);
      if (code === 0) resolve();
      else reject(new Error(`${label}: \`${command} ${args.join(" ")}\` exited ${code}:\n${tail}`));
    });
  });
}

/** An exclusive lock file holding the holder's pid; a lock whose process is gone is taken over. */
async function lock(file: string, label: string, log: Log): Promise<() => void> {
  let said = false;
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" });
      return () => fs.rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = Number(fs.readFileSync(file, "utf8").trim());
    if (!Number.isInteger(holder) || holder <= 0 || !alive(holder)) {
      fs.rmSync(file, { force: true });
      continue;
    }
    if (!said) log(`${label}: waiting for the build of process ${holder}`);
    said = true;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A server started for a test file. */
export interface RunningStore {
  /** `http://127.0.0.1:<port>` (Azurite: the account's blob service URL). */
  endpoint: string;
  /** The environment a journal store needs to reach it with its root or emulator account (tests may leave the credentials out). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** MinIO's root account in tests: any S3 request signed otherwise is refused (403). */
export const MINIO_ROOT = { accessKeyId: "certreseller-root", secretAccessKey: "certreseller-root-secret" };

/**
 * MinIO on a free loopback port, in a fresh folder, with `buckets` created.
 * It checks every request's SigV4 signature, so a test that gets through
 * used valid credentials.
 */
export async function startMinio(log: Log, buckets: string[] = []): Promise<RunningStore> {
  const binary = await ensureGoServer(MINIO, log);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-minio-"));
  const port = await freePort();
  const consolePort = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const child = spawn(binary, ["server", path.join(dir, "data"), "--address", `127.0.0.1:${port}`, "--console-address", `127.0.0.1:${consolePort}`, "--quiet"], {
    env: { PATH: process.env.PATH ?? "", HOME: dir, MINIO_ROOT_USER: MINIO_ROOT.accessKeyId, MINIO_ROOT_PASSWORD: MINIO_ROOT.secretAccessKey, MINIO_BROWSER: "off", MINIO_UPDATE: "off" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stop = stopper(child, dir);
  try {
    await waitFor(`${endpoint}/minio/health/ready`, child, "MinIO");
    for (const bucket of buckets) await createMinioBucket(endpoint, bucket);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    endpoint,
    env: { AWS_ACCESS_KEY_ID: MINIO_ROOT.accessKeyId, AWS_SECRET_ACCESS_KEY: MINIO_ROOT.secretAccessKey, AWS_REGION: "us-east-1", AWS_ENDPOINT_URL_S3: endpoint },
    stop,
  };
}

/** Creates a bucket with the workspace's S3 SDK, signed as MinIO's root. */
async function createMinioBucket(endpoint: string, bucket: string): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { S3Client, CreateBucketCommand } = require(require.resolve("@aws-sdk/client-s3", { paths: [path.join(repoRoot, "sdk")] })) as typeof import("@aws-sdk/client-s3");
  const client = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials: MINIO_ROOT });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
}

/** fake-gcs-server on a free loopback port, over http, with `buckets` created (its `-data` folder holds one folder per bucket). */
export async function startFakeGcs(log: Log, buckets: string[] = []): Promise<RunningStore> {
  const binary = await ensureGoServer(FAKE_GCS, log);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-fake-gcs-"));
  for (const bucket of buckets) fs.mkdirSync(path.join(dir, "data", bucket), { recursive: true });
  fs.mkdirSync(path.join(dir, "data"), { recursive: true });
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const child = spawn(
    binary,
    ["-scheme", "http", "-host", "127.0.0.1", "-port", String(port), "-public-host", `127.0.0.1:${port}`, "-external-url", endpoint, "-backend", "filesystem", "-filesystem-root", path.join(dir, "fs"), "-data", path.join(dir, "data"), "-log-level", "error"],
    { env: { PATH: process.env.PATH ?? "", HOME: dir }, stdio: ["ignore", "pipe", "pipe"] },
  );
  const stop = stopper(child, dir);
  try {
    await waitFor(`${endpoint}/storage/v1/b`, child, "fake-gcs-server");
  } catch (error) {
    await stop();
    throw error;
  }
  // host:port, as the Go client (Pulumi's gs backend) and gcloud read it; the journal's store takes either form.
  return { endpoint, env: { STORAGE_EMULATOR_HOST: `127.0.0.1:${port}` }, stop };
}

/** Azurite's well-known development account (public, in Azure's documentation). */
export const AZURITE_ACCOUNT = { name: "devstoreaccount1", key: "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==" };

/**
 * Azurite's blob service (the workspace's `azurite` package) on a free
 * loopback port, in memory, with `containers` created. It checks Shared Key
 * signatures, so a wrong key is refused (403).
 */
export async function startAzurite(log: Log, containers: string[] = []): Promise<RunningStore> {
  const bin = path.join(repoRoot, "node_modules", "azurite", "dist", "src", "blob", "main.js");
  if (!fs.existsSync(bin)) throw new Error(`cannot start Azurite: ${bin} is missing; run \`npm install\` (azurite is a devDependency of the workspace)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-azurite-"));
  const port = await freePort();
  // In memory: nothing to clean up, and the folder is only its HOME (debug logs stay off).
  const child = spawn(process.execPath, [bin, "--blobHost", "127.0.0.1", "--blobPort", String(port), "--inMemoryPersistence", "--skipApiVersionCheck", "--silent", "--loose"], {
    env: { PATH: process.env.PATH ?? "", HOME: dir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stop = stopper(child, dir);
  const endpoint = `http://127.0.0.1:${port}/${AZURITE_ACCOUNT.name}`;
  try {
    await waitFor(`${endpoint}?comp=list`, child, "Azurite", (status) => status > 0);
    log(`Azurite: blob service on ${endpoint}`);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const blob = require(require.resolve("@azure/storage-blob", { paths: [path.join(repoRoot, "sdk")] })) as typeof import("@azure/storage-blob");
    const service = new blob.BlobServiceClient(endpoint, new blob.StorageSharedKeyCredential(AZURITE_ACCOUNT.name, AZURITE_ACCOUNT.key));
    for (const container of containers) await service.getContainerClient(container).create();
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    endpoint,
    env: {
      AZURE_STORAGE_ACCOUNT: AZURITE_ACCOUNT.name,
      AZURE_STORAGE_KEY: AZURITE_ACCOUNT.key,
      AZURE_STORAGE_DOMAIN: `127.0.0.1:${port}`,
      AZURE_STORAGE_PROTOCOL: "http",
      AZURE_STORAGE_IS_LOCAL_EMULATOR: "true",
    },
    stop,
  };
}

/** Polls `url` until it answers as `ready` says (default: 2xx), the process exits, or 60 s pass. */
async function waitFor(url: string, child: ChildProcess, label: string, ready: (status: number) => boolean = (s) => s >= 200 && s < 300): Promise<void> {
  let output = "";
  child.stdout?.on("data", (c: Buffer) => void (output = (output + c.toString()).slice(-4000)));
  child.stderr?.on("data", (c: Buffer) => void (output = (output + c.toString()).slice(-4000)));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${label} exited (${child.exitCode}) before it was ready:\n${output}`);
    try {
      const answer = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await answer.arrayBuffer();
      if (ready(answer.status)) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${label} was not ready at ${url} within 60 s:\n${output}`);
}

/** Stops the process (TERM, then KILL after 5 s) and removes its folder. */
function stopper(child: ChildProcess, dir: string): () => Promise<void> {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
