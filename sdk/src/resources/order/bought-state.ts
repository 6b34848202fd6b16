/** The state of an order CreateOrder just bought (or the journal recorded as bought), before ApplySign. */
import { CertStatus, type CreateOrderResult } from "../../client/types.js";
import type { OrderInputs } from "./inputs.js";
import { parseServiceTime } from "./service-time.js";
import type { OrderState } from "./state.js";
import { priceFrom } from "../../money/stored-price.js";

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
