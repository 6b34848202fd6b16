import { PurchaseJournal, type JournalEntry } from "./journal.js";
import { journalEntryKey, unscopedEntryKey, type JournalIdentity } from "./key.js";
import { parseS3Url, S3Store } from "./s3.js";

/** The journal settings (a subset of the provider's settings). */
export interface JournalSettings {
  readonly journalDir: string;
  readonly journalUrl?: string;
  readonly allowInsecureHttp?: boolean;
}

/**
 * The journal the settings name: the S3 bucket of `journalUrl` when set,
 * else the directory `journalDir`.
 *
 * @example
 * openJournal({ journalDir: "/tmp/j", journalUrl: "s3://ci-journal/certreseller" }).location === "s3://ci-journal/certreseller"
 */
export function openJournal(settings: JournalSettings, env: NodeJS.ProcessEnv = process.env): PurchaseJournal {
  if (!settings.journalUrl) return new PurchaseJournal(settings.journalDir);
  const { location, credentials } = parseS3Url(settings.journalUrl, env);
  return new PurchaseJournal(new S3Store(location, credentials, { allowInsecureHttp: settings.allowInsecureHttp === true }));
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
