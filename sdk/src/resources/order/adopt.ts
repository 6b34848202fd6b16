import { isPartnerApiError } from "../../client/errors.js";
import { CertStatus, type PartnerApi, type RecordSet } from "../../client/types.js";
import { describeError } from "../../client/describe-error.js";
import type { JournalEntry, PurchaseJournal } from "../../journal/index.js";
import { findProduct, type ProviderContext } from "../../provider/index.js";
import { canonicalName, orderedNames } from "../../rules/index.js";
import { knownAccount } from "./account.js";
import { apiSays } from "./evidence.js";
import type { OrderInputs } from "./inputs.js";
import { namesOf as namesOfInputs, recordedPurchase, removeCommand } from "./purchase-messages.js";
import { recordNames } from "../shared/record-names.js";
import { reportedMethod } from "./reported-method.js";
import { markTakenOver } from "./resumed-mark.js";
import { settlementOf } from "./settlement.js";
import { parseServiceTime } from "./service-time.js";
import type { OrderState } from "./state.js";

/**
 * The service's time at which GetRecord showed the order (its `fetched_at`,
 * ISO), as an ISO instant: the order was paid no later than that. Undefined
 * when the answer carries no readable time.
 *
 * @example
 * paidNoLaterThan({ fetchedAt: "2026-11-22T09:30:00+08:00" }) // "2026-11-22T01:30:00.000Z"
 */
export function paidNoLaterThan(stored: Pick<RecordSet, "fetchedAt">): string | undefined {
  return stored.fetchedAt ? parseServiceTime(stored.fetchedAt)?.toISOString() : undefined;
}

/**
 * An order could not be adopted; the message says why and what to do.
 *
 * @example
 * throw new AdoptionError("cannot adopt order CERT1: it covers a.example.com but this Order declares b.example.com");
 */
export class AdoptionError extends Error {
  override readonly name = "AdoptionError";
}

/** Names as a set to compare: canonical, each once, sorted. */
const sorted = (names: Iterable<string>) => [...new Set([...names].map(canonicalName))].sort();

/**
 * Takes over an existing order without buying: GetRecord must show that it
 * exists for this account (the API's own 404 otherwise) and covers exactly
 * the declared names; when it is issued, the product is compared too (only
 * the download names the product). This is the way to import an order:
 * Pulumi's `import` option cannot load a dynamic provider.
 */
export async function adoptOrder(api: PartnerApi, inputs: OrderInputs, orderNo: string): Promise<OrderState> {
  let stored: RecordSet;
  try {
    stored = await api.getRecord({ orderNo });
  } catch (error) {
    if (apiSays(error, "not_found")) {
      throw new AdoptionError(`cannot adopt order ${orderNo}: it does not exist or belongs to another account (GetRecord answered 404)`, { cause: error });
    }
    throw new AdoptionError(`cannot adopt order ${orderNo}: ${describeError(error)}`, { cause: error });
  }
  const declared = [...new Set(orderedNames(inputs))].sort();
  let actual = recordNames(stored);
  if (actual.length === 0) {
    // Only an answer that lists no names at all needs the status read (rate limited per order).
    try {
      const status = await api.getCertificateStatus({ orderNo });
      actual = sorted(status.domainStatuses.map((d) => d.domain));
    } catch (error) {
      const wait = isPartnerApiError(error, "rate_limited") && error.retryAfter ? ` Try again in ${error.retryAfter} s.` : "";
      throw new AdoptionError(`cannot adopt order ${orderNo}: its names could not be read (${describeError(error)}).${wait}`, { cause: error });
    }
  }
  if (JSON.stringify(actual) !== JSON.stringify(declared)) {
    throw new AdoptionError(
      `cannot adopt order ${orderNo}: it covers ${actual.join(", ") || "no names"} but this Order declares ${declared.join(", ")}; ` +
        "make domain/sanDomains/wildcardDomains match the order, or adopt a different order",
    );
  }
  if (stored.certStatus === CertStatus.Issued) {
    const [download, product] = await Promise.all([
      api.downloadCertificate({ orderNo }),
      findProduct(api, inputs.productCode).catch(() => undefined),
    ]);
    if (product && download.productName && download.productName !== product.productName) {
      throw new AdoptionError(
        `cannot adopt order ${orderNo}: it is for ${JSON.stringify(download.productName)} but productCode ${inputs.productCode} is ${JSON.stringify(product.productName)}`,
      );
    }
  }
  const { __provider: _provider, ...rest } = inputs;
  // No `termEndsAt`, `paidAt` or installment numbers: the API reports an order's term only in
  // CreateOrder's answer, and a certificate's end date is not the term's end (an order holds
  // several certificates). Renewal then never buys on its own for this order (renewal.ts).
  // The refund window is bounded by the time the service showed the order (paid before that).
  return {
    ...rest,
    orderNo,
    certStatus: stored.certStatus,
    verificationMethod: reportedMethod(stored.verificationMethod, inputs.verificationMethod),
    adopted: true,
    paidNoLaterThan: paidNoLaterThan(stored),
  };
}

/**
 * Whether the adopted order could be the purchase of an intent whose answer
 * was lost: the same names and product as the intent recorded, and still
 * awaiting submission (that create never reached ApplySign, so its order
 * cannot have been submitted by it). Anything else proves the adopted order
 * is another one, and the intent stays: it is the only record of a purchase
 * that MAY have been charged.
 */
function couldBeLostPurchase(intent: JournalEntry, inputs: OrderInputs, adopted: OrderState): { could: true } | { could: false; why: string } {
  if (intent.productCode !== inputs.productCode) return { could: false, why: `the intent was for ${intent.productCode}, this Order declares ${inputs.productCode}` };
  const declared = namesOfInputs(inputs);
  if (JSON.stringify(intent.names) !== JSON.stringify(declared)) {
    return { could: false, why: `the intent was for ${intent.names.join(", ")}, order ${adopted.orderNo} covers ${declared.join(", ")}` };
  }
  if (adopted.certStatus !== CertStatus.AwaitingSubmission) {
    return {
      could: false,
      why: `order ${adopted.orderNo} was already submitted (cert status ${adopted.certStatus}), which the create whose answer was lost never did`,
    };
  }
  return { could: true };
}

/**
 * The adopt path of an Order's create: the order `adoptOrderNo` names,
 * verified as {@link adoptOrder} does and recorded with the account that
 * holds it (GetRecord showed it to this key). Nothing is bought. This
 * resource's journal entry is settled when it names this order, or when it
 * is an intent whose lost answer this order could be; otherwise it stays,
 * with a warning naming the purchase it protects.
 */
export async function adoptDeclared(ctx: ProviderContext, inputs: OrderInputs, orderNo: string, journal: PurchaseJournal, key: string): Promise<OrderState> {
  const log = ctx.log(inputs.journalKey);
  const adopted = { ...(await adoptOrder(ctx.api(), inputs, orderNo)), ...(await knownAccount(ctx)) };
  // A cancelled or refunded order holds nothing to keep: taking it would show a dead certificate as this Order's.
  let settlement;
  try {
    settlement = await settlementOf(ctx.api(), orderNo, adopted.certStatus);
  } catch (error) {
    throw new AdoptionError(`cannot adopt order ${orderNo}: ${(error as Error).message}; nothing was bought, run \`pulumi up\` again later`, { cause: error });
  }
  if (settlement.kind === "settled") {
    throw new AdoptionError(`cannot adopt order ${orderNo}: it is ${settlement.why}; adopt a live order, or remove adoptOrderNo to buy a new one (nothing was bought)`);
  }
  // As a resume does: a resource this one replaces may hold the same order (`pulumi up --replace` skips the diff that
  // refuses that), and its delete must not cancel it (delete.ts). Without the mark, nothing is adopted.
  const resumedAt = await markTakenOver(
    ctx,
    journal,
    key,
    adopted.orderNo,
    (error) => new AdoptionError(`cannot adopt order ${orderNo}: the purchase journal ${journal.location} could not be written (${(error as Error).message}); nothing was bought`, { cause: error }),
  );
  const state: OrderState = { ...adopted, resumedAt };
  log.info(`adopted order ${state.orderNo} (nothing bought)`);
  await noteHeldElsewhere(journal, key, state.orderNo, ctx.now());
  const entry = (await journal.read(key)) ?? (await journal.read(inputs.journalKey));
  if (!entry) return state;
  const lost = entry.orderNo === undefined ? couldBeLostPurchase(entry, inputs, state) : undefined;
  if (entry.orderNo === state.orderNo || lost?.could) {
    await journal.clear(entry.key);
    log.info(
      `order ${state.orderNo} settles the purchase journal's entry of a create that did not finish. If later commands repeat "Attempting to deploy or update ` +
        "resources with 1 pending operations from previous deployment.\", run `pulumi refresh --yes --clear-pending-creates` once this update has finished",
    );
    return state;
  }
  if (!lost) {
    log.warn(
      `the purchase journal still holds order ${entry.orderNo} for this resource (${recordedPurchase(entry)}, bought at ${entry.orderedAt} by a create that did not finish), ` +
        `not order ${state.orderNo} adopted now: that order stays paid. Keep it elsewhere (\`adoptOrderNo\` on another Order) or cancel it with the reseller, ` +
        `then remove the entry (${removeCommand(journal, entry.key)}).`,
    );
    return state;
  }
  log.warn(
    `the purchase journal's intent of ${entry.intentAt} (a CreateOrder for ${recordedPurchase(entry)} whose answer was lost: your account MAY have been charged) is KEPT: ` +
      `order ${state.orderNo} adopted now cannot be that purchase (${lost.why}). Check your reseller account for an order of ${recordedPurchase(entry)} placed around ` +
      `${entry.intentAt}: cancel or keep it, then remove the entry (${removeCommand(journal, entry.key)}).`,
  );
  return state;
}

/**
 * Another resource's entry may hold the adopted order (its create was
 * killed, and the program now adopts the order under another name, or in
 * another stack sharing the journal): that entry is marked handed back, so
 * the other stack's journal resource never refunds an order this one holds
 * at `destroy`. Bookkeeping: an unreadable journal only skips it (that
 * refund is still checked against the resumed marks).
 */
async function noteHeldElsewhere(journal: PurchaseJournal, key: string, orderNo: string, now: Date): Promise<void> {
  try {
    for (const { entry } of await journal.list()) {
      if (entry && entry.key !== key && entry.orderNo === orderNo && entry.returnedAt === undefined) await journal.markReturned(entry.key, orderNo, now);
    }
  } catch {
    // See above.
  }
}
