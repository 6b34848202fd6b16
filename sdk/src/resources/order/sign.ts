/**
 * Submitting a bought or adopted order for issuance (ApplySign), and telling
 * from the state whether its current installment was submitted already.
 */
import type { ApplySignResult, PartnerApi } from "../../client/types.js";
import { CertStatus } from "../../client/types.js";
import { describeError } from "../../client/describe-error.js";
import { partialFailure, toPlainJson } from "../../provider/index.js";
import { reportedMethod } from "./reported-method.js";
import type { OrderState } from "./state.js";

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
      keep(`reading its state failed (${describeError(error)})`, error);
    }
  }
  try {
    return signed(current, await api.applySign({ orderNo: state.orderNo }));
  } catch (error) {
    return keep(`ApplySign failed (${describeError(error)})`, error);
  }
}
