import { AzureBlobStore, parseAzureBlobUrl, resetAzureClientsForTests } from "./azblob.js";
import { GcsStore, parseGcsUrl, resetGcsClientsForTests } from "./gcs.js";
import { PurchaseJournal, type JournalEntry } from "./journal.js";
import { backendUrl, journalEntryKey, normalizeBackendUrl, unscopedEntryKey, type JournalIdentity } from "./key.js";
import type { RemoteStoreOptions } from "./remote.js";
import { parseS3Url, resetS3ClientsForTests, S3Store } from "./s3.js";
import type { JournalStore } from "./store.js";

/** The journal settings (a subset of the provider's settings). */
export interface JournalSettings {
  readonly journalDir: string;
  readonly journalUrl?: string;
  /**
   * True when `journalDir` is the default, not a setting: then a bucket
   * backend keeps the journal beside the state (see {@link journalUrlBesideState}).
   * Settings built without it (tests, callers naming a folder) keep the folder.
   */
  readonly journalDirDefaulted?: boolean;
  readonly allowInsecureHttp?: boolean;
}

/**
 * The folder, under the backend's root, of a journal kept beside the state.
 * Pulumi's self-managed backends write only under `<root>/.pulumi/` (stacks,
 * history, backups, locks, `meta.yaml`), so a sibling top-level folder never
 * holds one of their files, and no stack name can reach it: stack files are
 * always below `.pulumi/stacks/`.
 */
export const BESIDE_STATE_PREFIX = ".certreseller/journal";

/**
 * The journal URL beside a bucket backend's state: the same bucket (or
 * container) and root, under {@link BESIDE_STATE_PREFIX}, with the backend
 * URL's options (region, endpoint, path style, profile; Azure's account,
 * domain, protocol, emulator), which the journal's stores read the same
 * way. Undefined for any other backend (`file://` keeps the local folder,
 * Pulumi Cloud has no bucket).
 *
 * @example
 * journalUrlBesideState("s3://acme-state/infra?region=eu-west-1&awssdk=v2") === "s3://acme-state/infra/.certreseller/journal?region=eu-west-1&awssdk=v2"
 */
export function journalUrlBesideState(backend: string): string | undefined {
  const match = /^(s3|gs|azblob):\/\/([^/?#]+)([^?#]*)(\?[^#]*)?/i.exec(backend.trim());
  if (!match) return undefined;
  const root = match[3]!.replace(/^\/+|\/+$/g, "");
  return `${match[1]!.toLowerCase()}://${match[2]}/${root ? `${root}/` : ""}${BESIDE_STATE_PREFIX}${match[4] ?? ""}`;
}

/** Where the journal is and why, for the preview line and the journal command. */
export interface ResolvedJournal {
  /** The bucket URL, when the journal is in one. */
  url?: string;
  dir: string;
  /** Why there: a setting, or beside the state of which backend, or the default folder. */
  why: string;
}

/**
 * Where the settings put the journal: `journalUrl` when set; else a set
 * `journalDir`; else, when the stack's backend (`backend`, by default
 * {@link backendUrl}) is `s3://`, `gs://` or `azblob://`, beside its state;
 * else the default folder. A setting always wins.
 *
 * @example
 * resolveJournal({ journalDir: "/home/me/.certreseller/journal", journalDirDefaulted: true }, {}, "gs://acme-state").url === "gs://acme-state/.certreseller/journal"
 */
export function resolveJournal(settings: JournalSettings, env: NodeJS.ProcessEnv = process.env, backend?: string): ResolvedJournal {
  if (settings.journalUrl) return { url: settings.journalUrl, dir: settings.journalDir, why: "the journalUrl setting" };
  if (!settings.journalDirDefaulted) return { dir: settings.journalDir, why: "the journalDir setting" };
  const stateBackend = backend ?? cachedBackendUrl(env);
  const beside = journalUrlBesideState(stateBackend);
  if (beside) return { url: beside, dir: settings.journalDir, why: `beside the stack's state in ${normalizeBackendUrl(stateBackend)}, as no journal setting is set` };
  return { dir: settings.journalDir, why: "the default folder, as no journal setting is set and the stack's backend is not a bucket" };
}

let backendOfProcess: string | undefined;
/** The backend, read once per process for the process's own environment (openJournal runs per call). */
function cachedBackendUrl(env: NodeJS.ProcessEnv): string {
  if (env !== process.env) return backendUrl(env);
  return (backendOfProcess ??= backendUrl());
}

/**
 * The journal the settings name (see {@link resolveJournal}): an S3 bucket
 * (`s3://`), a Google Cloud Storage bucket (`gs://`), an Azure Blob
 * container (`azblob://`), or a local folder. Each cloud SDK is loaded at
 * its store's first call, never here.
 *
 * @example
 * openJournal({ journalDir: "/tmp/j", journalUrl: "s3://ci-journal/certreseller" }).location === "s3://ci-journal/certreseller"
 */
export function openJournal(settings: JournalSettings, env: NodeJS.ProcessEnv = process.env, backend?: string): PurchaseJournal {
  const { url, dir } = resolveJournal(settings, env, backend);
  return new PurchaseJournal(url ? openBucketStore(url, { allowInsecureHttp: settings.allowInsecureHttp === true }, env) : dir);
}

/**
 * The store of a bucket URL, by its scheme: `s3://`, `gs://` or `azblob://`.
 *
 * @example
 * openBucketStore("gs://acme-state/.certreseller/journal").location === "gs://acme-state/.certreseller/journal"
 */
export function openBucketStore(url: string, given: RemoteStoreOptions = {}, env: NodeJS.ProcessEnv = process.env): JournalStore {
  const options = { ...given, url: url.trim() };
  const scheme = /^([a-z0-9+.-]+):/i.exec(url.trim())?.[1]?.toLowerCase();
  if (scheme === "s3") {
    const { location, credentials } = parseS3Url(url, env);
    return new S3Store(location, credentials, options);
  }
  if (scheme === "gs") return new GcsStore(parseGcsUrl(url, env), options);
  if (scheme === "azblob") return new AzureBlobStore(parseAzureBlobUrl(url, env), options);
  throw new Error(`certreseller: the journal URL ${JSON.stringify(url.replace(/\?.*$/, ""))} must start with s3://, gs:// or azblob://`);
}

/** Lets tests resolve the backend again. */
export function resetJournalBackendForTests(): void {
  backendOfProcess = undefined;
}

/** Forgets every store's SDK clients (and the credentials they resolved), as a new process would: tests change the environment. */
export function resetStoreClientsForTests(): void {
  resetS3ClientsForTests();
  resetGcsClientsForTests();
  resetAzureClientsForTests();
}

/** The order a resource's state holds, as tidying compares it with the journal. */
export interface HeldOrder {
  orderNo: string;
  /** When CreateOrder answered (the state's `paidAt`); absent for an adopted order. */
  paidAt?: string;
  /** `purchaseDigest` of the purchase inputs in state. */
  purchaseDigest?: string;
}

/** What tidying did beyond removing this order's own entry, for the caller to log. */
export interface Tidied {
  /** Intents closed because the held order is their purchase (see {@link forgetOrder}). */
  closedIntents: JournalEntry[];
  /** Entries of this resource under another backend fingerprint that name another order or a lost answer: left, to be reported. */
  foreign: JournalEntry[];
}

/**
 * Removes the journal entries a resource's state makes unnecessary, once the
 * engine holds its order (diff/read saw it in the old outputs) or it is
 * deleted:
 *
 * - the entry naming `held.orderNo`, under the resource's key, under its
 *   URN alone (an earlier release), under no organisation (the plugin
 *   before its `organization` setting), or under another backend
 *   fingerprint of the same organisation and URN (see
 *   `PurchaseJournal.related`);
 * - an intent with no order number (CreateOrder answered but the answer
 *   could not be journaled) when the held order is provably its purchase:
 *   same key, same purchase inputs (digest), bought at or after the intent.
 *   Nothing else can have bought under that key after the intent: a later
 *   create would have found the intent and stopped. Left alone, the intent
 *   would stop every later purchase under the URN, renewals included.
 *
 * Entries naming another order are left alone. Only entries in the
 * journal's listing are read (see `PurchaseJournal.listedNames`): a preview
 * of a settled stack lists the journal once rather than reading it once per
 * Order.
 */
export async function forgetOrder(settings: JournalSettings, identity: JournalIdentity, held: HeldOrder): Promise<Tidied> {
  const journal = openJournal(settings);
  const listed = await journal.listedNames();
  const key = journalEntryKey(identity);
  // Read for the held order only: an intent there may be another organisation's stack of the same name.
  const unscoped = unscopedEntryKey(identity);
  const tidied: Tidied = { closedIntents: [], foreign: [] };
  for (const candidate of [...new Set([key, identity.journalKey, ...(unscoped ? [unscoped] : [])])]) {
    if (listed && !listed.has(PurchaseJournal.nameFor(candidate))) continue;
    const entry = await journal.read(candidate);
    if (!entry) continue;
    if (entry.orderNo === held.orderNo) await journal.clear(candidate);
    else if (candidate !== unscoped && entry.orderNo === undefined && isPurchaseOf(entry, held)) {
      await journal.clear(candidate);
      tidied.closedIntents.push(entry);
    }
  }
  for (const entry of (await journal.related(key)) ?? []) {
    if (entry.orderNo === held.orderNo) await journal.clear(entry.key);
    else tidied.foreign.push(entry);
  }
  return tidied;
}

/** The held order was bought by the create that wrote this intent: same purchase, bought at or after it. */
function isPurchaseOf(intent: JournalEntry, held: HeldOrder): boolean {
  if (!held.paidAt || !held.purchaseDigest || intent.purchaseDigest !== held.purchaseDigest) return false;
  const paid = Date.parse(held.paidAt);
  const intended = Date.parse(intent.intentAt);
  return Number.isFinite(paid) && Number.isFinite(intended) && paid >= intended;
}
