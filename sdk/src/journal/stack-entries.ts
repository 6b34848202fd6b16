/**
 * A stack's entries in the purchase journal: those whose resource URN names
 * the stack's project and stack, whatever their organisation or backend
 * (each reader decides which of those are its own).
 */
import type { JournalEntry, PurchaseJournal } from "./journal.js";
import { parseEntryKey, stackOfUrn } from "./key.js";

export interface StackEntry {
  /** The entry's id (its name in the store, without `.json`), as `certreseller journal rm` takes it. */
  readonly id: string;
  readonly location: string;
  readonly entry: JournalEntry;
  /** The resource's URN. */
  readonly urn: string;
  /** The organisation and backend fingerprint its key names (absent in an earlier release's key). */
  readonly organization?: string;
  readonly backend?: string;
}

/**
 * The entries of the stack `stack` (project and stack names); unreadable
 * entries are left out.
 *
 * @example
 * await entriesOfStack(journal, { project: "proj", stack: "dev" })
 */
export async function entriesOfStack(journal: PurchaseJournal, stack: { project: string; stack: string }): Promise<StackEntry[]> {
  const found: StackEntry[] = [];
  for (const { name, location, entry } of await journal.list()) {
    if (!entry) continue;
    const { organization, backend, urn: keyUrn } = parseEntryKey(entry.key);
    const urn = entry.urn ?? keyUrn;
    const of = stackOfUrn(urn);
    if (!of || of.project !== stack.project || of.stack !== stack.stack) continue;
    found.push({ id: name.replace(/\.json$/, ""), location, entry, urn, ...(organization !== undefined ? { organization } : {}), ...(backend !== undefined ? { backend } : {}) });
  }
  return found;
}
