import { isPartnerApiError } from "../../client/errors.js";
import type { ApplySignResult, CreateOrderResult, Open, PartnerApi, VerificationMethod } from "../../client/types.js";
import { CertStatus } from "../../client/types.js";
import { partialFailure, toPlainJson } from "../../provider/index.js";
import { methodsMatch } from "./inputs.js";
import { storedPrice } from "./stored-price.js";
import type { OrderInputs, OrderPriceState, OrderState } from "./types.js";

/**
 * `YYYY-MM-DD HH:MM:SS` (service time, UTC in the sandbox) or ISO → Date.
 *
 * @example
 * parseServiceTime("2026-11-22 09:30:00")?.toISOString() === "2026-11-22T09:30:00.000Z"
 */
export function parseServiceTime(text: string): Date | undefined {
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)
    ? `${text.replace(" ", "T")}Z`
    : /^\d{4}-\d{2}-\d{2}$/.test(text)
      ? `${text}T00:00:00Z`
      : text;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : new Date(ms);
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
 * The Order's `price` from CreateOrder's answer; undefined when the answer
 * carried none of it.
 *
 * @example
 * priceFrom({ orderNo: "CERT1", unitPrice: "100.00", payableAmount: "90.00" }) // { basePrice: "100.00", total: "90.00" }
 */
export function priceFrom(created: CreateOrderResult): OrderPriceState | undefined {
  const price: OrderPriceState = {
    basePrice: created.unitPrice,
    sanCount: created.extraSanCount,
    sanPrice: created.sanPrice,
    wildcardCount: created.extraWcCount,
    wildcardPrice: created.wildcardPrice,
    discount: created.discountAmount,
    total: created.payableAmount ?? created.totalAmount,
  };
  const present = Object.fromEntries(Object.entries(price).filter(([, v]) => v !== undefined)) as OrderPriceState;
  return Object.keys(present).length > 0 ? storedPrice(present) : undefined;
}

/**
 * The method to keep after an answer: the service may say plain `email` for
 * an `email-…` method the program asked for, which is kept as asked.
 *
 * @example
 * reportedMethod("email", "email-admin") === "email-admin"
 */
export function reportedMethod(reported: Open<VerificationMethod> | undefined, wanted: Open<VerificationMethod> | undefined) {
  if (reported === undefined) return wanted;
  return wanted !== undefined && methodsMatch(reported, wanted) ? wanted : reported;
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

/** What ApplySign's answer changes in the state. */
function signed(state: OrderState, answer: ApplySignResult): OrderState {
  return {
    ...state,
    certStatus: answer.certStatus ?? CertStatus.Issuing,
    requestId: answer.requestId ?? undefined,
    verificationMethod: reportedMethod(answer.verificationMethod, state.verificationMethod),
  };
}

/**
 * True when the state shows the order's current installment was submitted or
 * issued: ApplySign answered (`requestId`), a certificate was learned or
 * reissued (`certNotAfter`, `certNotAfterAtLeast`, `certId`, an installment
 * after the first), or the order was last seen issued or in validation. A
 * certificate cannot go back to cert_status 0, so a 0 the service shows then
 * is a LATER certificate: the next installment, which only the renewal plan
 * submits (`reissue`, which also advances `installmentNo`).
 *
 * @example
 * submittedBefore({ ...bought, requestId: "SIG-1" }) === true
 */
export function submittedBefore(state: OrderState): boolean {
  return (
    state.requestId !== undefined ||
    state.certNotAfter !== undefined ||
    state.certNotAfterAtLeast !== undefined ||
    state.certId !== undefined ||
    (state.installmentNo ?? 1) > 1 ||
    state.certStatus === CertStatus.Issued ||
    state.certStatus === CertStatus.Issuing
  );
}

/**
 * Makes sure the order is submitted for issuance. Asks GetRecord first (no
 * rate limit, no side effect): an ApplySign whose answer was lost may have
 * gone through, and a second one would be refused or, worse, resubmit.
 * `justBought` skips that read for an order this very call bought: no
 * ApplySign can have been sent for it yet, and the read would cost one extra
 * API call per certificate. Any failure becomes a partial-failure error so the
 * engine keeps the order and the next `up` comes back here through `update`.
 *
 * Only the first submission of a bought or adopted order, or a retry of a
 * failed one (cert_status 3), goes through here: a cert_status 0 on an order
 * the state shows submitted or issued is the next installment, left to the
 * renewal plan (an unrelated update never submits it).
 */
export async function ensureSubmitted(
  api: PartnerApi,
  state: OrderState,
  inputs: { __provider?: string },
  { justBought = false, log }: { justBought?: boolean; log?: { warn(line: string): void } } = {},
): Promise<OrderState> {
  const keep = (reason: string, cause: unknown): never => {
    const charged = state.price?.total !== undefined ? ` (${state.price.total} charged)` : "";
    throw partialFailure({
      id: state.orderNo,
      inputs,
      outputs: toPlainJson(state) as object,
      reasons: [
        `order ${state.orderNo} is bought${charged} but ${reason}. ` +
          "It is kept in state: the next `pulumi up` resumes it with ApplySign and does NOT buy again.",
      ],
      cause,
    });
  };
  let current = state;
  if (!justBought) {
    try {
      const stored = await api.getRecord({ orderNo: state.orderNo });
      current = {
        ...current,
        certStatus: stored.certStatus,
        verificationMethod: reportedMethod(stored.verificationMethod, current.verificationMethod),
      };
      if (current.certStatus === CertStatus.AwaitingSubmission && submittedBefore(state)) {
        log?.warn(
          `order ${state.orderNo}: the service has started its next installment (cert_status 0); not submitted by this update: ` +
            "the renewal window (renewBeforeDays/renewBeforePercentage) reissues it and records it. Nothing was submitted or bought",
        );
        return current;
      }
      const submittable = current.certStatus === CertStatus.AwaitingSubmission || current.certStatus === CertStatus.IssuanceFailed;
      if (!submittable) return current;
    } catch (error) {
      keep(`reading its state failed (${describe(error)})`, error);
    }
  }
  try {
    return signed(current, await api.applySign({ orderNo: state.orderNo }));
  } catch (error) {
    return keep(`ApplySign failed (${describe(error)})`, error);
  }
}

/**
 * One line for an error in messages: operation, kind, API code and text.
 *
 * @example
 * describe(err) // "CreateOrder invalid_request 400: CreateOrder: request refused (API code 400, HTTP 200): insufficient balance"
 */
export function describe(error: unknown): string {
  if (isPartnerApiError(error)) return `${error.operation} ${error.kind}${error.code ? ` ${error.code}` : ""}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
