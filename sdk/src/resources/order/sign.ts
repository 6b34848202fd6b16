import { isPartnerApiError } from "../../client/errors.js";
import type { CreateOrderResult, PartnerApi } from "../../client/types.js";
import { CertStatus } from "../../client/types.js";
import { partialFailure, toPlainJson } from "../../provider/index.js";
import type { OrderInputs, OrderState } from "./types.js";

/** `YYYY-MM-DD HH:MM:SS` (service time, UTC in the sandbox) or ISO → Date. */
export function parseServiceTime(text: string): Date | undefined {
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text) ? `${text.replace(" ", "T")}Z` : text;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

/** Payment date + term: when the purchased term ends (renewal clock). */
export function termEnd(paidAt: string | null | undefined, months: number): string | undefined {
  const paid = paidAt ? parseServiceTime(paidAt) : undefined;
  if (!paid) return undefined;
  const end = new Date(paid);
  end.setUTCMonth(end.getUTCMonth() + months);
  return end.toISOString();
}

/** The state of a freshly bought order, before ApplySign. */
export function stateFromCreate(inputs: OrderInputs, created: CreateOrderResult): OrderState {
  const { __provider: _provider, ...rest } = inputs;
  return {
    ...rest,
    orderNo: created.orderNo,
    price: {
      basePrice: created.price.basePrice,
      sanCount: created.price.sanCount,
      sanPrice: created.price.sanPrice,
      wildcardCount: created.price.wildcardCount,
      wildcardPrice: created.price.wildcardPrice,
      discount: created.price.discount,
      total: created.price.total,
    },
    certStatus: created.certStatus,
    orderStatus: created.orderStatus,
    requestId: undefined,
    records: [],
    installmentsCount: created.installmentsCount,
    paidAt: created.paidAt ?? undefined,
    termEndsAt: termEnd(created.paidAt, inputs.months),
    verificationMethod: created.verificationMethod ?? inputs.verificationMethod,
  };
}

/**
 * Makes sure the order is submitted for issuance. Asks GetRecord first (no
 * rate limit, no side effect): an ApplySign whose answer was lost may have
 * gone through, and a second one would be refused or, worse, resubmit.
 * `justBought` skips that read for an order this very call bought: no
 * ApplySign can have been sent for it yet, and the read would cost one extra
 * API call per certificate. Any failure becomes a partial-failure error so the
 * engine keeps the order and the next `up` comes back here through `update`.
 */
export async function ensureSubmitted(
  api: PartnerApi,
  state: OrderState,
  inputs: { __provider?: string },
  { justBought = false }: { justBought?: boolean } = {},
): Promise<OrderState> {
  const keep = (reason: string, cause: unknown): never => {
    throw partialFailure({
      id: state.orderNo,
      inputs,
      outputs: toPlainJson(state) as object,
      reasons: [
        `order ${state.orderNo} is bought${state.price ? ` (${state.price.total} charged)` : ""} but ${reason}. ` +
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
        certStatus: stored.certStatus ?? current.certStatus,
        requestId: stored.requestId ?? undefined,
        records: stored.records,
        verificationMethod: stored.verificationMethod ?? current.verificationMethod,
        emailSuffix: stored.emailSuffix ?? current.emailSuffix,
      };
      const submittable = current.certStatus === CertStatus.AwaitingSubmission || current.certStatus === CertStatus.IssuanceFailed;
      if (!submittable) return current;
    } catch (error) {
      keep(`reading its state failed (${describe(error)})`, error);
    }
  }
  try {
    const signed = await api.applySign({ orderNo: state.orderNo });
    return {
      ...current,
      certStatus: signed.certStatus,
      requestId: signed.requestId ?? undefined,
      records: signed.records,
      verificationMethod: signed.verificationMethod ?? current.verificationMethod,
    };
  } catch (error) {
    return keep(`ApplySign failed (${describe(error)})`, error);
  }
}

export function describe(error: unknown): string {
  if (isPartnerApiError(error)) return `${error.operation} ${error.kind}${error.code ? ` ${error.code}` : ""}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
