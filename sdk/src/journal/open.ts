import { PurchaseJournal } from "./journal.js";
import { journalEntryKey, type JournalIdentity } from "./key.js";
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

/**
 * Removes the entry that protected the purchase of `orderNo` once the engine
 * holds the order (diff/read saw it in the old outputs) or it is deleted:
 * under the resource's key, or under its URN alone for an entry an earlier
 * release wrote. An entry naming another order is left alone. Only entries
 * in the journal's listing are read (see `PurchaseJournal.listedNames`): a
 * preview of a settled stack then lists the journal once rather than reading
 * it once per Order.
 */
export async function forgetOrder(settings: JournalSettings, identity: JournalIdentity, orderNo: string): Promise<void> {
  const journal = openJournal(settings);
  const listed = await journal.listedNames();
  const keys = [...new Set([journalEntryKey(identity), identity.journalKey])];
  for (const key of keys) {
    if (listed && !listed.has(PurchaseJournal.nameFor(key))) continue;
    if ((await journal.read(key))?.orderNo === orderNo) await journal.clear(key);
  }
}
