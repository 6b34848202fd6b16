/**
 * The buy path of an Order's create: the price and the checks before
 * buying, the journal's intent, CreateOrder (never retried), and what its
 * answer — or its failure — proves about the money.
 */
import { isPartnerApiError } from "../../client/errors.js";
import { CertStatus, type CreateOrderRequest, type CreateOrderResult, type PartnerApi } from "../../client/types.js";
import { describeError } from "../../client/describe-error.js";
import { parseEntryKey, purchaseDigest, purchaseInputDigests, type PurchaseJournal } from "../../journal/index.js";
import { priceBeforeBuying } from "../../money/purchase-price.js";
import { partialFailure, resourceName, toPlainJson, type ProviderContext } from "../../provider/index.js";
import type { DnsDeps } from "../shared/dns-checks.js";
import { accountOf } from "./account.js";
import { AdoptionError, adoptOrder } from "./adopt.js";
import { stateFromCreate } from "./bought-state.js";
import { apiSays } from "./evidence.js";
import { INPUT_DECLARATIONS, type InputRecord, type OrderInputs } from "./inputs.js";
import { purchaseInputsOf } from "./journal-entry.js";
import type { OrderInputValues } from "./properties.generated.js";
import { checkBeforeBuying } from "./purchase-checks.js";
import { recordNames } from "../shared/record-names.js";
import { checkOrder } from "./purchase-rules.js";
import { maybeBoughtMessage, namesOf } from "./purchase-messages.js";
import type { OrderState } from "./state.js";

/** The API's own answers that prove CreateOrder was refused, so nothing was charged. */
const REFUSED = ["invalid_request", "unauthorized", "forbidden", "not_found", "method_not_allowed", "rate_limited"] as const;

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
 * What CreateOrder's failure means for the money: `refused` when the API's
 * own answer (or the client, before sending) proves nothing was bought;
 * `bought` when a SUCCESS answer (code 200) carried an order number but
 * could not be read in full, or reached us under an HTTP error status (the
 * order exists and is paid); `named` when a failure answer names an order
 * (e.g. a 400 "already ordered: CERT…"): with the API's own refusal
 * (`refused`) nothing was bought and the order is never taken; otherwise it
 * may be this purchase, and is checked before it is kept;
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
 * A failure answer that is not a refusal named an order: it is this purchase only if the API shows
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
 * Buys the Order: priced from the catalogue, checked (CAA, funds), the
 * intent journaled, then ONE CreateOrder. Gives the bought order's state and
 * the inputs it was bought with (the price added); a failure that may have
 * charged stops with what to check, and an order named by a failed answer
 * is kept in state as a partial failure.
 */
export async function buy(ctx: ProviderContext, unpriced: OrderInputs, journal: PurchaseJournal, key: string, dns: DnsDeps): Promise<{ state: OrderState; inputs: OrderInputs }> {
  const log = ctx.log(unpriced.journalKey);
  const api = ctx.api();
  const purchase = purchaseInputsOf(unpriced as unknown as InputRecord);
  const digest = purchaseDigest(unpriced as unknown as InputRecord, purchase);
  // Nothing is bought without a price from the catalogue (preview may not have had one).
  const inputs: OrderInputs = { ...unpriced, quotedPrice: await priceBeforeBuying(ctx, unpriced, (product) => checkOrder(unpriced as unknown as OrderInputValues, new Set(), product)) };
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
    if (outcome.kind === "named" && outcome.refused) {
      // The API refused this request in its own words: nothing was bought by it, so the order it names ("already
      // ordered: CERT…") is another purchase — a replaced or renamed resource's, another stack's, or one made
      // outside Pulumi. Taking it would leave two resources holding one order, and the first destroy would
      // cancel the other's certificate: it is never taken. Unless that order could be this very request, replayed
      // by something in front of the API (never submitted, these names), the intent goes.
      const replay = await couldBeReplayOf(api, inputs, outcome.orderNo);
      if (replay) throw new Error(maybeBoughtMessage(inputs, intent, journal, `${lostAnswer(error)}; ${replay}`), { cause: error });
      await journal.clear(key);
      throw new Error(refusalNamingOrder(inputs, outcome.orderNo, error), { cause: error });
    }
    if (outcome.kind === "named") {
      const named = await checkNamedOrder(api, inputs, outcome.orderNo);
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
  return { state: { ...stateFromCreate(inputs, created, receivedAt), ...account.record }, inputs };
}

/**
 * Why the order a refusal names may be this very request's purchase (a POST
 * replayed by a proxy, refused as a duplicate while the first copy bought):
 * GetRecord shows it to this key, never submitted (cert status 0: only this
 * create's ApplySign would have submitted it), for exactly these names.
 * Undefined when the API shows otherwise; a read that fails cannot tell, and
 * keeps the intent too.
 */
async function couldBeReplayOf(api: PartnerApi, inputs: OrderInputs, orderNo: string): Promise<string | undefined> {
  let stored;
  try {
    stored = await api.getRecord({ orderNo });
  } catch (error) {
    if (apiSays(error, "not_found")) return undefined;
    return `order ${orderNo} named in that refusal could not be read (${describeError(error)}), so whether it is this purchase, replayed, cannot be told`;
  }
  if (stored.certStatus !== CertStatus.AwaitingSubmission || JSON.stringify(recordNames(stored)) !== JSON.stringify(namesOf(inputs))) return undefined;
  return `order ${orderNo} named in that refusal covers these names and was never submitted: it may be this very request, replayed by something in front of the API`;
}

/**
 * CreateOrder was refused in the API's own words, and the refusal names an
 * existing order: nothing was bought, that order is not taken, and the user
 * is told how to take it deliberately if it is this Order's.
 */
function refusalNamingOrder(inputs: OrderInputs, orderNo: string, error: unknown): string {
  return [
    `certreseller Order "${resourceName(inputs.journalKey)}": CreateOrder was refused, nothing was bought: ${describeError(error)}. ` +
      `The refusal names order ${orderNo}, which is NOT taken into state: by the API's own answer this request bought nothing, so that order ` +
      "is another purchase (another resource's, e.g. one this Order replaces or was renamed from, another stack's, or one bought outside Pulumi), " +
      "and two resources holding one order means the first destroy cancels the other's certificate.",
    `  - if order ${orderNo} should be this Order's (and no other resource holds it): set \`adoptOrderNo: "${orderNo}"\` and run \`pulumi up\` again (nothing is bought);`,
    "  - otherwise: change what the service refused (see its message above), or settle the other order first.",
  ].join("\n");
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
