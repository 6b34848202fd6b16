import type * as pulumi from "@pulumi/pulumi";
import { isPartnerApiError } from "../../client/errors.js";
import { CertStatus, type CreateOrderRequest, type CreateOrderResult, type PartnerApi } from "../../client/types.js";
import {
  changedInputs,
  journalEntryKey,
  openJournal,
  parseEntryKey,
  purchaseDigest,
  purchaseInputDigests,
  type JournalEntry,
  type PurchaseJournal,
} from "../../journal/index.js";
import { partialFailure, resourceName, toPlainJson, type ProviderContext } from "../../provider/index.js";
import { orderedNames } from "../../rules/index.js";
import { systemDns, type DnsDeps } from "../shared/dns-checks.js";
import { accountOf, incompleteRecord, knownAccount, otherAccountError, type AccountRecord } from "./account.js";
import { AdoptionError, adoptOrder } from "./adopt.js";
import { describeError } from "./describe-error.js";
import { apiSays, apiSaysNoSuchOrder, unconfirmedNotFound } from "./evidence.js";
import { INPUT_DECLARATIONS, type InputRecord, type OrderInputs } from "./inputs.js";
import { entryId, purchaseInputsOf } from "./journal-entry.js";
import { checkBeforeBuying } from "./purchase-checks.js";
import { noteResumed } from "./resumed-orders.js";
import { priceBeforeBuying } from "./purchase-price.js";
import { parseServiceTime } from "./service-time.js";
import { ensureSubmitted } from "./sign.js";
import type { OrderState } from "./state.js";
import { priceFrom } from "./stored-price.js";

/** The API's own answers that prove CreateOrder was refused, so nothing was charged. */
const REFUSED = ["invalid_request", "unauthorized", "forbidden", "not_found", "method_not_allowed", "rate_limited"] as const;

/** The names the journal records with an intent and compares an earlier release's entry by: every ordered name, sorted. */
function namesOf(inputs: OrderInputs): string[] {
  return orderedNames(inputs).sort();
}

/**
 * Payment time + term: when the purchased term ends (the renewal clock).
 *
 * @example
 * termEnd("2026-11-22T09:30:00.000Z", 12) === "2027-11-22T09:30:00.000Z"
 */
export function termEnd(paidAt: string | null | undefined, months: number): string | undefined {
  const paid = paidAt ? parseServiceTime(paidAt) : undefined;
  if (!paid) return undefined;
  const end = new Date(paid);
  end.setUTCMonth(end.getUTCMonth() + months);
  return end.toISOString();
}

/**
 * The state of a freshly bought order, before ApplySign. `receivedAt` is
 * when the provider received CreateOrder's answer: the service reports no
 * payment time, and the money is taken when it answers.
 */
export function stateFromCreate(inputs: OrderInputs, created: CreateOrderResult, receivedAt: Date): OrderState {
  const { __provider: _provider, ...rest } = inputs;
  const paidAt = receivedAt.toISOString();
  return {
    ...rest,
    orderNo: created.orderNo,
    price: priceFrom(created),
    // CreateOrder leaves the first certificate awaiting submission.
    certStatus: CertStatus.AwaitingSubmission,
    requestId: undefined,
    installmentsCount: created.installmentsCount,
    installmentNo: 1,
    paidAt,
    termEndsAt: termEnd(paidAt, inputs.months),
  };
}

/**
 * The CreateOrder request (spec 4.3). The term goes as `months` (the
 * service reads it before `years`); `years` goes along when the program gave
 * it, and `check` has made sure the two agree.
 */
export function requestFor(inputs: OrderInputs): CreateOrderRequest {
  const request: Record<string, unknown> = {};
  for (const [name, declaration] of INPUT_DECLARATIONS) {
    const value = (inputs as unknown as Record<string, unknown>)[name];
    if (!declaration.sentAs || value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    request[declaration.sentAs.field] = value;
    Object.assign(request, declaration.sentAs.with);
  }
  // The client checks the request against its wire fields before a byte is sent.
  return request as unknown as CreateOrderRequest;
}

/**
 * CreateOrder's answer as a journal entry kept it. Entries written by an
 * earlier release carry another shape: only what reads as this release's
 * answer is taken, the order number always.
 */
function answerFromJournal(entry: JournalEntry & { orderNo: string }): CreateOrderResult {
  const order = entry.order ?? {};
  const money = (key: string) => (typeof order[key] === "string" ? (order[key] as string) : undefined);
  const count = (key: string) => (typeof order[key] === "number" ? (order[key] as number) : undefined);
  return {
    orderNo: entry.orderNo,
    totalAmount: money("totalAmount"),
    discountAmount: money("discountAmount"),
    payableAmount: money("payableAmount"),
    unitPrice: money("unitPrice"),
    sanPrice: money("sanPrice"),
    wildcardPrice: money("wildcardPrice"),
    extraSanCount: count("extraSanCount"),
    extraWcCount: count("extraWcCount"),
    installmentsCount: count("installmentsCount"),
  };
}

/**
 * True only when the API itself says the order is cancelled/refunded/revoked,
 * or gone (its 404) for the account that bought it (the app id and service
 * endpoint the journal recorded). A 404 under another account or endpoint,
 * or for an entry that recorded neither, is not evidence: the service
 * answers 404 for another account's orders too. Anything else (an HTML error page, a network failure) is not
 * evidence either and is thrown: `create` then stops instead of buying a
 * second certificate.
 */
async function isDead(ctx: ProviderContext, orderNo: string, recorded: AccountRecord, inputs: OrderInputs, journal: PurchaseJournal): Promise<boolean> {
  const api = ctx.api();
  try {
    const stored = await api.getRecord({ orderNo });
    return stored.certStatus === CertStatus.Revoked || stored.certStatus === CertStatus.RefundInProgress;
  } catch (error) {
    if (await apiSaysNoSuchOrder(api, orderNo, error)) {
      const account = await accountOf(ctx, recorded, `resuming order ${orderNo} (the API answered 404)`);
      if (account.same) return true;
      if (account.other) throw otherAccountError({ orderNo, journalKey: inputs.journalKey, account, verb: "resumed and nothing was bought" });
      throw new Error(
        `certreseller Order "${resourceName(inputs.journalKey)}": the purchase journal names order ${orderNo} from an earlier run. ${incompleteRecord(account)} (the journal entry is older). ` +
          "Not buying. If another key or base URL bought it: set that one (`pulumi config set --secret certreseller:apiKey ...` / `pulumi config set certreseller:baseUrl ...`) and run `pulumi up`; " +
          `if the order is really gone, remove the journal entry (${removeCommand(journal, entryKeyOf(inputs))}) and run \`pulumi up\` again.`,
        { cause: error },
      );
    }
    throw new Error(
      `certreseller Order: the purchase journal names order ${orderNo} from an earlier run, and its state could not be read ` +
        `(${describeError(error)}${unconfirmedNotFound(error)}). Not buying: run \`pulumi up\` again once the API answers.`,
      { cause: error },
    );
  }
}

/**
 * What an entry's purchase was: its main name (and the others it covered)
 * and product, as the journal recorded them, never as the Order now reads.
 */
function recordedPurchase(entry: JournalEntry): string {
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
function maybeBoughtMessage(inputs: OrderInputs, entry: JournalEntry, journal: PurchaseJournal, cause: string): string {
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
function entryKeyOf(inputs: OrderInputs): string {
  return journalEntryKey(inputs);
}

/** How to remove an entry: the command, pointed at this journal (it reads only the environment), and the file or object it deletes. */
function removeCommand(journal: PurchaseJournal, key: string): string {
  return `\`${journal.command(`rm ${entryId(journal, key)}`)}\` deletes ${journal.fileFor(key)}`;
}

/**
 * The journaled order was bought for other purchase inputs than this
 * Order now declares: stop before buying and give the choice.
 */
function otherPurchaseMessage(inputs: OrderInputs, entry: JournalEntry & { orderNo: string }, journal: PurchaseJournal, what: string): string {
  const buyer = typeof entry.order?.accountId === "string" ? entry.order.accountId : entry.accountId;
  return [
    `certreseller Order "${resourceName(inputs.journalKey)}": the purchase journal holds order ${entry.orderNo} bought at ${entry.orderedAt} for ` +
      `${recordedPurchase(entry)}${buyer ? ` (account app id ${buyer})` : ""} by a create that did not finish, but this Order now declares ${what}. ` +
      "Not buying (that order is paid) and not resuming (it was bought for other inputs). Choose:",
    `  - keep it: set \`adoptOrderNo: "${entry.orderNo}"\` on this Order with the inputs it was bought with, and run \`pulumi up\` again;`,
    `  - or cancel order ${entry.orderNo} with the reseller (refundable within 7 days of payment), then remove the journal entry ` +
      `(${removeCommand(journal, entry.key)}) and run \`pulumi up\` again to buy for the new inputs.`,
  ].join("\n");
}

/**
 * What CreateOrder's failure means for the money: `refused` when the API's
 * own answer (or the client, before sending) proves nothing was bought;
 * `bought` when a SUCCESS answer (code 200) carried an order number but
 * could not be read in full, or reached us under an HTTP error status (the
 * order exists and is paid); `named` when a failure answer names an order
 * (e.g. a 400 "already ordered: CERT…"), which proves nothing by itself:
 * that order may be another resource's, and is checked before it is kept;
 * `unknown` otherwise — an HTTP error page included, a 429 page from
 * something in front of the API too: most rate limiters refuse before
 * forwarding, but not all, and only the API's envelope is evidence.
 */
function outcomeOf(
  error: unknown,
): { kind: "refused" } | { kind: "bought"; orderNo: string; success: boolean } | { kind: "named"; orderNo: string; refused: boolean } | { kind: "unknown" } {
  if (isPartnerApiError(error) && error.orderNo && error.mayHaveReachedServer) {
    if (error.code === 200) return { kind: "bought", orderNo: error.orderNo, success: isPartnerApiError(error, "malformed_response") };
    return { kind: "named", orderNo: error.orderNo, refused: apiSays(error, ...REFUSED) };
  }
  if (apiSays(error, ...REFUSED) || (isPartnerApiError(error) && !error.mayHaveReachedServer)) {
    return { kind: "refused" };
  }
  return { kind: "unknown" };
}

/**
 * A failure answer named an order: it is this purchase only if the API shows
 * it to this key covering exactly this Order's names (and product, once
 * issued), as adoption requires. `mismatch` when the API's own answers say
 * it is not (its 404, other names); `unknown` when it could not be read.
 */
async function checkNamedOrder(api: PartnerApi, inputs: OrderInputs, orderNo: string): Promise<{ kind: "ours" } | { kind: "mismatch" | "unknown"; why: string }> {
  try {
    await adoptOrder(api, inputs, orderNo);
    return { kind: "ours" };
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    const why = (error as Error).message;
    if (error instanceof AdoptionError && (cause === undefined || apiSays(cause, "not_found"))) return { kind: "mismatch", why };
    return { kind: "unknown", why };
  }
}

/** The failure for the "MAY have been charged" message, with the order number when an unreliable answer named one. */
function lostAnswer(error: unknown): string {
  const named = isPartnerApiError(error) && error.orderNo ? `; the answer named order ${error.orderNo}, look for that one first` : "";
  return `${describeError(error)}${named}`;
}

/**
 * The entry of this resource journaled under another backend fingerprint
 * (same organisation and URN), if there is one. Two or more stop the create:
 * which one is this stack's cannot be told. A journal that cannot be listed
 * is a warning: the lookup is then impossible, the purchase is not.
 */
async function foreignEntry(ctx: ProviderContext, inputs: OrderInputs, journal: PurchaseJournal): Promise<JournalEntry | undefined> {
  const key = entryKeyOf(inputs);
  const others = await journal.related(key);
  if (others === undefined) {
    ctx.log(inputs.journalKey).warn(
      `the purchase journal ${journal.location} cannot be listed, so an interrupted purchase of this resource journaled under another backend fingerprint ` +
        "would not be found (with S3, grant s3:ListBucket on the journal's prefix)",
    );
    return undefined;
  }
  if (others.length <= 1) return others[0];
  throw new Error(
    `certreseller Order "${resourceName(inputs.journalKey)}": the purchase journal holds ${others.length} entries for this resource under other backend fingerprints ` +
      `(${others.map((e) => `${journal.fileFor(e.key)}: ${e.orderNo ? `order ${e.orderNo}` : `an answer lost at ${e.intentAt}`}`).join("; ")}), ` +
      `and this run would journal it at ${journal.fileFor(key)}. Not buying. Check each order with \`${journal.command("ls")}\`, ` +
      "adopt this resource's (`adoptOrderNo`) and remove the others' entries once settled.",
  );
}

/** What a message about an entry under another backend fingerprint adds: both entries, and why there are two. */
function foreignNote(journal: PurchaseJournal, key: string, entry: JournalEntry): string {
  return (
    `\nThat entry is this resource's (same organisation, project, stack and URN) under another backend fingerprint: ${journal.fileFor(entry.key)} ` +
    `(backend ${parseEntryKey(entry.key).backend}); this run's entry would be ${journal.fileFor(key)} (backend ${parseEntryKey(key).backend}). ` +
    "The same backend written two ways gives two fingerprints (docs/journal.md); so does another backend holding a stack of the same name."
  );
}

/**
 * CreateOrder (never retried) then ApplySign. The purchase journal makes a
 * killed or interrupted create safe to run again; adoption takes over an
 * existing order without buying. `dns` is how the CAA check before buying
 * reaches the DNS (tests pass a scripted one).
 */
export async function create(ctx: ProviderContext, inputs: OrderInputs, dns: DnsDeps = systemDns): Promise<pulumi.dynamic.CreateResult<OrderState>> {
  const log = ctx.log(inputs.journalKey);
  const api = ctx.api();
  const journal = openJournal(ctx.settings);
  const key = entryKeyOf(inputs);
  const finish = async (state: OrderState, justBought = false) => {
    const submitted = await ensureSubmitted(api, state, inputs, { justBought });
    return { id: submitted.orderNo, outs: toPlainJson(submitted) as unknown as OrderState };
  };

  if (inputs.adoptOrderNo) {
    // GetRecord showed the order to this key: its account holds it.
    const state = { ...(await adoptOrder(api, inputs, inputs.adoptOrderNo)), ...(await knownAccount(ctx)) };
    log.info(`adopted order ${state.orderNo} (nothing bought)`);
    const entry = (await journal.read(key)) ?? (await journal.read(inputs.journalKey));
    if (entry && (entry.orderNo === undefined || entry.orderNo === state.orderNo)) await journal.clear(entry.key);
    return finish(state);
  }

  // An entry written by an earlier release sits under the URN alone; one under another spelling of the backend, under another key.
  let entry = (await journal.read(key)) ?? (key !== inputs.journalKey ? await journal.read(inputs.journalKey) : undefined) ?? (await foreignEntry(ctx, inputs, journal));
  const foreign = entry !== undefined && entry.key !== key && entry.key !== inputs.journalKey;
  // The account that bought it: recorded with the order, else with the intent (whose key sent CreateOrder).
  const recordedAccount: AccountRecord =
    typeof entry?.order?.accountId === "string"
      ? { accountId: entry.order.accountId, accountEndpoint: typeof entry.order.accountEndpoint === "string" ? entry.order.accountEndpoint : undefined }
      : { accountId: entry?.accountId, accountEndpoint: entry?.accountEndpoint };
  if (entry?.orderNo && (await isDead(ctx, entry.orderNo, recordedAccount, inputs, journal))) {
    // Left behind by a stack removed without destroy, say: that order is gone, so buying is right.
    log.warn(`the purchase journal named order ${entry.orderNo}, which is cancelled, refunded or gone; forgetting it`);
    await journal.clear(entry.key);
    entry = undefined;
  }
  const purchase = purchaseInputsOf(inputs as unknown as InputRecord);
  const digest = purchaseDigest(inputs as unknown as InputRecord, purchase);
  if (entry?.orderNo) {
    const bought = entry as JournalEntry & { orderNo: string };
    if (entry.purchaseDigest !== undefined && entry.purchaseDigest !== digest) {
      const changed = changedInputs(entry.inputDigests, purchaseInputDigests(inputs as unknown as InputRecord, purchase));
      throw new Error(
        otherPurchaseMessage(inputs, bought, journal, `other purchase inputs (changed: ${changed.length > 0 ? changed.join(", ") : "not recorded"})`) +
          (foreign ? foreignNote(journal, key, entry) : ""),
      );
    }
    // An earlier release's entry holds no digest: names and product, as that release compared them.
    if (JSON.stringify(entry.names) !== JSON.stringify(namesOf(inputs)) || entry.productCode !== inputs.productCode) {
      throw new Error(otherPurchaseMessage(inputs, bought, journal, `${namesOf(inputs).join(", ")} (${inputs.productCode})`) + (foreign ? foreignNote(journal, key, entry) : ""));
    }
    if (foreign) {
      // Same organisation, stack, resource and purchase: this resource's own order, journaled under another spelling of the backend.
      // Moved under this run's key first, so that the engine holding the order tidies it like any other.
      log.warn(`order ${entry.orderNo} was journaled under another backend fingerprint (${journal.fileFor(entry.key)}); same resource and purchase, so it is resumed`);
      await journal.adopt(entry, key);
    }
    log.warn(`resuming order ${entry.orderNo} bought by an interrupted run at ${entry.orderedAt} (not buying again)`);
    noteResumed(entry.orderNo, inputs.journalKey);
    const receivedAt = entry.orderedAt ? new Date(entry.orderedAt) : ctx.now();
    const state = entry.order
      ? stateFromCreate(inputs, answerFromJournal(entry as JournalEntry & { orderNo: string }), receivedAt)
      : await adoptOrder(api, inputs, entry.orderNo);
    // isDead's GetRecord showed the order to this key.
    return finish({ ...state, ...(await knownAccount(ctx, recordedAccount)) });
  }
  if (entry) throw new Error(maybeBoughtMessage(inputs, entry, journal, "the previous run stopped before it was recorded") + (foreign ? foreignNote(journal, key, entry) : ""));
  // Nothing is bought without a price from the catalogue (preview may not have had one).
  inputs = { ...inputs, quotedPrice: await priceBeforeBuying(ctx, inputs) };
  // Only here, on the buy path: a journaled purchase above is resumed or stopped on, whatever the CAA records say now.
  await checkBeforeBuying(ctx, inputs, dns);
  // Who buys is recorded with the order: only a 404 under this account will ever prove it gone.
  const account = await accountOf(ctx, {}, `buying ${inputs.domain} (nothing was bought)`);

  const intent = await journal.recordIntent(
    {
      key,
      ...account.record,
      urn: parseEntryKey(key).urn,
      domain: inputs.domain,
      productCode: inputs.productCode,
      names: namesOf(inputs),
      purchaseDigest: digest,
      inputDigests: purchaseInputDigests(inputs as unknown as InputRecord, purchase),
      quotedPrice: inputs.quotedPrice,
    },
    ctx.now(),
  );
  let created: CreateOrderResult;
  try {
    // NEVER retried (the client does not retry it either): no idempotency key exists, a retry buys twice.
    created = await api.createOrder(requestFor(inputs));
  } catch (error) {
    const outcome = outcomeOf(error);
    if (outcome.kind === "refused") {
      await journal.clear(key);
      const apiError = error as { field?: string; kind?: string; retryAfter?: number };
      const field = apiError.field ? ` (field ${apiError.field})` : "";
      const wait = apiError.kind === "rate_limited" && apiError.retryAfter ? ` Retry after ${apiError.retryAfter} s.` : "";
      throw new Error(`certreseller Order "${resourceName(inputs.journalKey)}": CreateOrder was refused, nothing was bought: ${describeError(error)}${field}.${wait}`, {
        cause: error,
      });
    }
    if (outcome.kind === "named") {
      const named = await checkNamedOrder(api, inputs, outcome.orderNo);
      if (named.kind === "mismatch" && outcome.refused) {
        // The API refused this request in its own words, and the order it names is not this purchase.
        await journal.clear(key);
        throw new Error(
          `certreseller Order "${resourceName(inputs.journalKey)}": CreateOrder was refused, nothing was bought: ${describeError(error)}. ` +
            `The refusal names order ${outcome.orderNo}, which is not this Order's purchase and is NOT taken into state (${named.why}).`,
          { cause: error },
        );
      }
      if (named.kind !== "ours") {
        throw new Error(
          maybeBoughtMessage(inputs, intent, journal, `${lostAnswer(error)}; order ${outcome.orderNo} named in that answer is not taken (${named.why})`),
          { cause: error },
        );
      }
    }
    if (outcome.kind === "unknown") throw new Error(maybeBoughtMessage(inputs, intent, journal, lostAnswer(error)), { cause: error });
    // The answer named the order: it exists (and is paid), whatever else the answer said.
    created = { orderNo: outcome.orderNo };
    if (outcome.kind === "named" || !outcome.success) {
      await journal.recordOrder(key, created.orderNo, toPlainJson({ ...created, ...account.record }) as Record<string, unknown>, ctx.now()).catch(() => undefined);
      throw keptAfterFailedAnswer(inputs, { ...stateFromCreate(inputs, created, ctx.now()), ...account.record }, error);
    }
    log.warn(`order ${outcome.orderNo} is bought, but CreateOrder's answer could not be read in full (${describeError(error)}); its price is not recorded`);
  }
  const receivedAt = ctx.now();
  try {
    await journal.recordOrder(key, created.orderNo, toPlainJson({ ...created, ...account.record }) as Record<string, unknown>, receivedAt);
  } catch (error) {
    // The order is bought: never let a journal problem lose it. Returning it puts it in state.
    log.warn(`order ${created.orderNo} is bought but could not be written to the purchase journal (${(error as Error).message})`);
  }
  const charged = created.payableAmount ?? created.totalAmount;
  log.info(`bought order ${created.orderNo}: ${charged ?? "amount not reported"} charged (quoted ${inputs.quotedPrice ?? "n/a"})`);
  return finish({ ...stateFromCreate(inputs, created, receivedAt), ...account.record }, true);
}

/**
 * CreateOrder failed, but its answer named an order: that order exists and
 * may be paid. It is kept in state as a partial failure (the journal holds
 * it too), and the next `up` resumes it (GetRecord, then ApplySign) instead
 * of buying again.
 */
function keptAfterFailedAnswer(inputs: OrderInputs, state: OrderState, error: unknown): Error {
  return partialFailure({
    id: state.orderNo,
    inputs,
    outputs: toPlainJson(state) as object,
    reasons: [
      `CreateOrder for ${inputs.domain} answered with a failure (${describeError(error)}), but the answer names order ${state.orderNo}: the order exists. ` +
        "It is kept in state: the next `pulumi up` resumes it (reads it, then submits it with ApplySign) and does NOT buy again.",
    ],
    cause: error,
  });
}
