/**
 * The orders a create of this provider process resumed from the purchase
 * journal, by resource. A replacement's create can resume the very order
 * the resource being replaced holds: the journal keeps an entry until a
 * diff, read or update shows the engine holds the order, and a targeted
 * replacement (`pulumi up --replace`) right after the create that bought it
 * calls none of them first. The replaced resource's delete then names the
 * order the replacement holds, and must not cancel it. (One process serves
 * a whole `up`, for the dynamic provider and the plugin alike.)
 */
const resumed = new Map<string, string>();

/** Notes that this process's create of `journalKey` resumed `orderNo`. */
export function noteResumed(orderNo: string, journalKey: string): void {
  resumed.set(orderNo, journalKey);
}

/**
 * True when a create of this process resumed `orderNo` for the same
 * resource: the engine now holds it as that resource's replacement. The
 * note is used up: the replaced resource is deleted once.
 *
 * @example
 * if (heldByReplacement(id, props.journalKey)) return; // not cancelled: the replacement holds it
 */
export function heldByReplacement(orderNo: string, journalKey: string | undefined): boolean {
  if (journalKey === undefined || resumed.get(orderNo) !== journalKey) return false;
  resumed.delete(orderNo);
  return true;
}
