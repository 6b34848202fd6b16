import { isPartnerApiError } from "../../client/errors.js";
import { CertStatus, type PartnerApi, type RecordSet } from "../../client/types.js";
import { describeError } from "../../client/describe-error.js";
import type { PurchaseJournal } from "../../journal/index.js";
import { findProduct, type ProviderContext } from "../../provider/index.js";
import { canonicalName, orderedNames } from "../../rules/index.js";
import { knownAccount } from "./account.js";
import { apiSays } from "./evidence.js";
import type { OrderInputs } from "./inputs.js";
import { reportedMethod } from "./reported-method.js";
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

/** The names GetRecord says the order covers (spec 4.6): `all_domains`, else main + SANs + wildcards. */
function namesOf(stored: RecordSet): string[] {
  if (stored.allDomains.length > 0) return sorted(stored.allDomains);
  return sorted([stored.mainDomain, ...stored.sansDomains, ...stored.wildcardDomains].filter((n) => n !== ""));
}

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
  let actual = namesOf(stored);
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
 * The adopt path of an Order's create: the order `adoptOrderNo` names,
 * verified as {@link adoptOrder} does and recorded with the account that
 * holds it (GetRecord showed it to this key). Nothing is bought; a journal
 * entry of this resource for no order, or for this one, is settled.
 */
export async function adoptDeclared(ctx: ProviderContext, inputs: OrderInputs, orderNo: string, journal: PurchaseJournal, key: string): Promise<OrderState> {
  const state = { ...(await adoptOrder(ctx.api(), inputs, orderNo)), ...(await knownAccount(ctx)) };
  ctx.log(inputs.journalKey).info(`adopted order ${state.orderNo} (nothing bought)`);
  const entry = (await journal.read(key)) ?? (await journal.read(inputs.journalKey));
  if (entry && (entry.orderNo === undefined || entry.orderNo === state.orderNo)) await journal.clear(entry.key);
  return state;
}
