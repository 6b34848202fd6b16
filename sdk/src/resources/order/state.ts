/**
 * What an Order keeps in state: its type, the price as stored, and the
 * outputs earlier releases kept that this one drops.
 */
import type { CertStatus, Open, OpenInt, VerificationMethod } from "../../client/types.js";
import type { OrderInputs } from "./inputs.js";
import type { OrderPriceState } from "../../money/stored-price.js";

export type { OrderPriceState } from "../../money/stored-price.js";

/** Everything an Order keeps in state: the inputs (diff sees only these old outputs) and what the API said. */
export interface OrderState extends Omit<OrderInputs, "verificationMethod" | "__provider"> {
  orderNo: string;
  /**
   * The method in effect, as ApplySign or the method change reported it
   * (`email` may stand for an `email-…` method); the program's choice when
   * the answer named none.
   */
  verificationMethod?: Open<VerificationMethod>;
  /** Absent for adopted orders: the API does not report the price of an existing order. */
  price?: OrderPriceState;
  /** From ApplySign (0 until the order is submitted). */
  certStatus?: OpenInt<CertStatus>;
  /** From ApplySign; absent until it answered (a partially created order) or when only GetRecord saw the submission. */
  requestId?: string;
  installmentsCount?: number;
  /** ISO time the provider received CreateOrder's answer (the service reports no payment time). */
  paidAt?: string;
  /**
   * ISO time the purchased term ends (`paidAt` + months): no certificate reaches past it, and
   * renewal buys only at its end. Absent for adopted orders (the API reports the term only when
   * buying): renewal then never buys on its own.
   */
  termEndsAt?: string;
  /**
   * The installment (1-based) the order is on: 1 at purchase, one more after
   * each reissue this resource submitted. Absent in state of an earlier release (then 1).
   */
  installmentNo?: number;
  /** The current certificate's id, as the last status read reported it. */
  certId?: string;
  /** The current certificate's validity, as the last status read reported it (ISO); absent until learned. */
  certNotBefore?: string;
  certNotAfter?: string;
  /**
   * A lower bound for the current certificate's notAfter while it is not
   * known (set when a reissue is submitted: the next certificate lives at
   * least min(the previous one's lifetime, the CA/B limit), capped at the term).
   */
  certNotAfterAtLeast?: string;
  /** When the renewal window (reissue, or a new purchase at the end of the term) opens (ISO); absent without renewal settings or knowledge. */
  renewsAt?: string;
  /** True when the order was adopted (`adoptOrderNo` or the journal), not bought by this resource. */
  adopted?: boolean;
  /** When this resource's create resumed or adopted the order (its resumed mark's time): see delete.ts. */
  resumedAt?: string;
  /**
   * The app id (GetUserData's `api_key.app_id`, spec 2.1: the key's public
   * identifier, never its secret) of the key that bought or adopted the
   * order. Only the API's 404 under this account at `accountEndpoint` proves
   * the order gone; absent in state written by an earlier release (then a
   * 404 keeps it).
   */
  accountId?: string;
  /**
   * The service endpoint (normalised base URL, see `serviceEndpoint`) the
   * account above answered at: app ids are unique within one deployment
   * only. Absent in state written by an earlier release (then a 404 keeps
   * the order, see docs/evidence.md).
   */
  accountEndpoint?: string;
  /**
   * For an order without `paidAt` (adopted): the service's time (GetRecord's
   * `fetched_at`, ISO) at which it first showed the order to this resource.
   * The order was paid no later than that, which bounds the refund window:
   * past it by the service's clock, a refused cancel releases the order.
   */
  paidNoLaterThan?: string;
}

/**
 * Outputs an earlier release stored and this one no longer keeps: `records`
 * (the `Validation` resource reads and shapes them; storing them twice
 * doubled the state), `orderStatus` (no answer the Order reads carries it)
 * and `emailSuffix` (the method code names the mailbox). Dropped from state
 * on the next update or refresh.
 */
export const RETIRED_OUTPUTS = ["records", "orderStatus", "emailSuffix"] as const;

/**
 * The state without the retired outputs.
 *
 * @example
 * withoutRetired({ ...olds, records: [] }) // no `records`
 */
export function withoutRetired<T extends object>(state: T): T {
  const copy = { ...state } as Record<string, unknown>;
  for (const key of RETIRED_OUTPUTS) delete copy[key];
  return copy as T;
}
