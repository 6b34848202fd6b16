/**
 * What a create that stops says about a purchase the journal holds: the
 * purchase as the journal recorded it, how the Order changed since, and how
 * to go on. The resume and buy paths both stop with these.
 */
import { changedInputs, journalEntryKey, parseEntryKey, purchaseDigest, purchaseInputDigests, type JournalEntry, type PurchaseJournal } from "../../journal/index.js";
import { resourceName } from "../../provider/index.js";
import { orderedNames } from "../../rules/index.js";
import type { InputRecord, OrderInputs } from "./inputs.js";
import { entryId, purchaseInputsOf } from "./journal-entry.js";

/** The names the journal records with an intent and compares an earlier release's entry by: every ordered name, sorted. */
export function namesOf(inputs: OrderInputs): string[] {
  return orderedNames(inputs).sort();
}

/**
 * What an entry's purchase was: its main name (and the others it covered)
 * and product, as the journal recorded them, never as the Order now reads.
 */
export function recordedPurchase(entry: JournalEntry): string {
  const others = entry.names.filter((name) => name !== entry.domain);
  return `${entry.domain}${others.length > 0 ? ` with ${others.join(", ")}` : ""} (${entry.productCode})`;
}

/** Who sent the entry's CreateOrder, when the entry recorded it (entries of an earlier release do not). */
function recordedSender(entry: JournalEntry): string {
  return entry.accountId ? ` by the account with app id ${entry.accountId}` : "";
}

/**
 * How this Order's purchase inputs differ from those the entry recorded,
 * or undefined when they are the same purchase: by digest, or by names and
 * product for an entry of an earlier release (it holds no digest).
 */
function changedSince(inputs: OrderInputs, entry: JournalEntry): string | undefined {
  const now = `now: ${[inputs.domain, ...namesOf(inputs).filter((n) => n !== inputs.domain)].join(", ")} (${inputs.productCode})`;
  if (entry.purchaseDigest !== undefined) {
    const purchase = purchaseInputsOf(inputs as unknown as InputRecord);
    if (entry.purchaseDigest === purchaseDigest(inputs as unknown as InputRecord, purchase)) return undefined;
    const changed = changedInputs(entry.inputDigests, purchaseInputDigests(inputs as unknown as InputRecord, purchase));
    return `changed: ${changed.length > 0 ? changed.join(", ") : "not recorded"}; ${now}`;
  }
  if (JSON.stringify(entry.names) === JSON.stringify(namesOf(inputs)) && entry.productCode === inputs.productCode) return undefined;
  return now;
}

/**
 * Stop: a purchase for this resource may exist. The message names that
 * purchase as the journal recorded it (the Order may have been edited
 * since), and tells the user how to find out and how to proceed.
 */
export function maybeBoughtMessage(inputs: OrderInputs, entry: JournalEntry, journal: PurchaseJournal, cause: string): string {
  const changed = changedSince(inputs, entry);
  const account = entry.accountId ? ` (app id ${entry.accountId})` : "";
  return [
    `certreseller Order "${resourceName(inputs.journalKey)}": a CreateOrder for ${recordedPurchase(entry)} was sent at ${entry.intentAt}${recordedSender(entry)} ` +
      `and its answer was lost (${cause}). Your account MAY have been charged. Not retrying: a retry could buy a second certificate.`,
    ...(changed
      ? [
          `NOTE: this Order's purchase inputs changed since that CreateOrder (${changed}). The order that may exist is the one above, ` +
            "for the inputs the journal recorded, not for the current ones.",
        ]
      : []),
    `Check your reseller account${account} for an order of ${recordedPurchase(entry)} placed around ${entry.intentAt} (and the balance/credit movement), then:`,
    changed
      ? `  - if the order exists: either keep it (set \`adoptOrderNo: "<its order number>"\` with the inputs it was bought with, and run \`pulumi up\` again), ` +
        `or cancel it with the reseller (refundable within 7 days of payment) and remove the journal entry (${removeCommand(journal, entry.key)});`
      : `  - if the order exists: set \`adoptOrderNo: "<its order number>"\` on this Order and run \`pulumi up\` again (it is adopted, not bought again);`,
    `  - if no order exists: remove the journal entry (${removeCommand(journal, entry.key)}) and run \`pulumi up\` again.`,
  ].join("\n");
}

/** The journal key: organisation, backend and URN (see journal/key.ts). */
export function entryKeyOf(inputs: OrderInputs): string {
  return journalEntryKey(inputs);
}

/** How to remove an entry: the command, pointed at this journal whatever folder it runs in, and the file or object it deletes. */
export function removeCommand(journal: PurchaseJournal, key: string): string {
  return `\`${journal.command(`rm ${entryId(journal, key)}`)}\` deletes ${journal.fileFor(key)}`;
}

/**
 * The journaled order was bought for other purchase inputs than this
 * Order now declares: stop before buying and give the choice.
 */
export function otherPurchaseMessage(inputs: OrderInputs, entry: JournalEntry & { orderNo: string }, journal: PurchaseJournal, what: string): string {
  const buyer = typeof entry.order?.accountId === "string" ? entry.order.accountId : entry.accountId;
  return [
    `certreseller Order "${resourceName(inputs.journalKey)}": the purchase journal holds order ${entry.orderNo} bought at ${entry.orderedAt} for ` +
      `${recordedPurchase(entry)}${buyer ? ` (account app id ${buyer})` : ""} by a create whose order no diff has confirmed held since, but this Order now declares ${what}. ` +
      "Not buying (that order is paid) and not resuming (it was bought for other inputs). Choose:",
    `  - if this stack's state already holds order ${entry.orderNo} (\`pulumi stack export\`; a \`pulumi up --replace\` right after the up that bought it ` +
      "skips the diff that would have tidied the entry): run `pulumi up` without `--replace` first, which tidies it, then replace;",
    `  - keep it: set \`adoptOrderNo: "${entry.orderNo}"\` on this Order with the inputs it was bought with, and run \`pulumi up\` again;`,
    `  - or cancel order ${entry.orderNo} with the reseller (refundable within 7 days of payment), then remove the journal entry ` +
      `(${removeCommand(journal, entry.key)}) and run \`pulumi up\` again to buy for the new inputs.`,
  ].join("\n");
}

/** What a message about an entry under another backend fingerprint adds: both entries, and why there are two. */
export function foreignNote(journal: PurchaseJournal, key: string, entry: JournalEntry): string {
  return (
    `\nThat entry is this resource's (same organisation, project, stack and URN) under another backend fingerprint: ${journal.fileFor(entry.key)} ` +
    `(backend ${parseEntryKey(entry.key).backend}); this run's entry would be ${journal.fileFor(key)} (backend ${parseEntryKey(key).backend}). ` +
    "The same backend written two ways gives two fingerprints (docs/journal.md); so does another backend holding a stack of the same name."
  );
}

/**
 * Stop: the journal holds an order for this project, stack and resource name
 * under another backend fingerprint. It is another backend's stack's order
 * (every self-managed backend's organisation is `organization`), or this
 * stack's from before it moved backends or was reached through another
 * spelling of the same one: only the user can tell, and resuming it in the
 * wrong stack would let either stack's destroy cancel the other's order.
 */
export function foreignOrderMessage(inputs: OrderInputs, entry: JournalEntry & { orderNo: string }, journal: PurchaseJournal, key: string): string {
  const theirs = parseEntryKey(entry.key);
  const buyer = typeof entry.order?.accountId === "string" ? entry.order.accountId : entry.accountId;
  return [
    `certreseller Order "${resourceName(inputs.journalKey)}": the purchase journal holds order ${entry.orderNo} (${recordedPurchase(entry)}, bought at ${entry.orderedAt}` +
      `${buyer ? ` by the account with app id ${buyer}` : ""}) for the same organisation, project, stack and resource name, but under another backend ` +
      `(fingerprint ${theirs.backend}, entry ${journal.fileFor(entry.key)}, key ${entry.key}); this stack's backend is ${parseEntryKey(key).backend} ` +
      `(key ${key}). Not buying and not resuming: it may be another backend's stack of the same name, whose order this one must not hold.`,
    `  - if it is that other stack's order: run \`pulumi up\` or \`pulumi refresh\` of that stack (once it holds the order, its entry goes), or, if that stack ` +
      `already holds order ${entry.orderNo} in its state, remove the entry (${removeCommand(journal, entry.key)}); then run \`pulumi up\` here again;`,
    `  - if it is this stack's (the stack moved backends, or the backend is written two ways): set \`adoptOrderNo: "${entry.orderNo}"\` on this Order and run ` +
      "`pulumi up` again (nothing is bought); its entry goes once this stack holds the order.",
  ].join("\n");
}

/**
 * What stops an Order whose URN and backend have an entry written under no
 * organisation (the plugin before its `organization` setting): it may be
 * this stack's or another organisation's stack of the same name.
 */
export function unscopedEntryMessage(journal: PurchaseJournal, entry: JournalEntry): string {
  const what = entry.orderNo
    ? `order ${entry.orderNo} (${entry.domain}, ${entry.productCode}, bought ${entry.orderedAt})`
    : `a CreateOrder for ${entry.domain} (${entry.productCode}) sent ${entry.intentAt} whose answer was lost (that account MAY have been charged)`;
  return (
    `the purchase journal holds ${what} for this Order's URN, written under no organisation ` +
    "(by a release of the plugin before the `organization` setting), so it may be this stack's or another organisation's stack of the same name. " +
    `Buying now could buy it a second time. If the order is this stack's, declare \`adoptOrderNo\`${entry.orderNo ? `: "${entry.orderNo}"` : " with it once found in the account"}; ` +
    `when it is settled (adopted, cancelled, or another stack's), remove the entry: \`${journal.command(`rm ${entryId(journal, entry.key)}`)}\`. ` +
    `\`${journal.command("ls")}\` shows its state at the service. Nothing was bought.`
  );
}
