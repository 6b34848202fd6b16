/**
 * The Orders this provider process has been asked to check, by URN: the
 * StackJournal's preview warning skips their entries (the Order's own check
 * says what `up` does with them). A provider plugin process serves one
 * deployment, so the set is the run's.
 */
const declared = new Set<string>();

/** Called by the Order's check with its URN. */
export function noteDeclaredOrder(urn: string): void {
  declared.add(urn);
}

/** Whether an Order of that URN was checked in this process. */
export function isDeclaredOrder(urn: string): boolean {
  return declared.has(urn);
}

/** Tests: a new provider process (nothing checked yet). */
export function resetDeclaredOrdersForTests(): void {
  declared.clear();
}
