/**
 * A stack's entries in the purchase journal, as its StackJournal sees them:
 * each marked whether it is under the stack's own key (its organisation and
 * backend fingerprint) or another backend's stack of the same names.
 */
import { backendFingerprint, stackOfUrn, type PurchaseJournal } from "../../journal/index.js";
import { entriesOfStack, type StackEntry as JournalStackEntry } from "../../journal/stack-entries.js";

export interface StackEntry extends JournalStackEntry {
  /** Under this stack's own organisation and backend; else another backend's (or organisation's) stack of the same names. */
  readonly own: boolean;
}

/**
 * The entries of the stack whose resource URN is `stackUrn` (any URN of the
 * stack), marked `own` when under `scope` (`org=<organisation>`) and this
 * process's backend fingerprint.
 */
export async function stackEntries(journal: PurchaseJournal, stackUrn: string, scope: string | undefined, backend: string = backendFingerprint()): Promise<StackEntry[]> {
  const stack = stackOfUrn(stackUrn);
  if (!stack) return [];
  const organization = scope?.startsWith("org=") ? scope.slice("org=".length) : undefined;
  return (await entriesOfStack(journal, stack)).map((found) => ({
    ...found,
    own: found.organization !== undefined && found.organization === organization && found.backend === backend,
  }));
}
