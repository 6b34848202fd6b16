/**
 * A stack's entries in the purchase journal, as its StackJournal sees them:
 * those under the stack's own key (its organisation and backend fingerprint,
 * its project and stack), and the rest that name the same stack.
 */
import { backendFingerprint, parseEntryKey, stackOfUrn, type JournalEntry, type PurchaseJournal } from "../../journal/index.js";

export interface StackEntry {
  /** The entry's id (its name in the store, without `.json`), as `certreseller journal rm` takes it. */
  readonly id: string;
  readonly location: string;
  readonly entry: JournalEntry;
  /** The resource's URN. */
  readonly urn: string;
  /** Under this stack's own organisation and backend; else another backend's (or organisation's) stack of the same names. */
  readonly own: boolean;
}

/**
 * The entries of the stack whose resource URN is `stackUrn` (any URN of the
 * stack) and whose scope is `scope` (`org=<organisation>`).
 */
export async function stackEntries(journal: PurchaseJournal, stackUrn: string, scope: string | undefined, backend: string = backendFingerprint()): Promise<StackEntry[]> {
  const stack = stackOfUrn(stackUrn);
  if (!stack) return [];
  const organization = scope?.startsWith("org=") ? scope.slice("org=".length) : undefined;
  const found: StackEntry[] = [];
  for (const { name, location, entry } of await journal.list()) {
    if (!entry) continue;
    const parts = parseEntryKey(entry.key);
    const urn = entry.urn ?? parts.urn;
    const of = stackOfUrn(urn);
    if (!of || of.project !== stack.project || of.stack !== stack.stack) continue;
    const own = parts.organization !== undefined && parts.organization === organization && parts.backend === backend;
    found.push({ id: name.replace(/\.json$/, ""), location, entry, urn, own });
  }
  return found;
}

/** The resource's name in a URN (after the last `::`). */
export const nameInUrn = (urn: string): string => urn.slice(urn.lastIndexOf("::") + 2);
