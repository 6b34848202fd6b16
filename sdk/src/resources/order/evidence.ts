import { isPartnerApiError, type PartnerApiError, type PartnerErrorKind } from "../../client/errors.js";
import type { PartnerApi } from "../../client/types.js";

/** The API code (the envelope's `code`) that each refusal kind stands for. */
const CODE_OF: Partial<Record<PartnerErrorKind, number>> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
};

/**
 * True only when the Partner API itself answered with its envelope and the
 * code of one of `kinds`. Decisions that release or forget a paid order
 * ("gone", "refused, nothing bought", "will not cancel") need that evidence:
 * an HTML error page from a proxy, a load balancer's 404 or a gateway's 400
 * says nothing about the order, and acting on it would drop a paid order
 * from state (and buy it again on the next `up`) or forget that a purchase
 * may have happened.
 *
 * @example
 * if (apiSays(error, "not_found")) log.warn("order gone"); else throw error;
 */
export function apiSays(error: unknown, ...kinds: PartnerErrorKind[]): error is PartnerApiError {
  return isPartnerApiError(error, ...kinds) && error.code !== undefined && error.code === CODE_OF[error.kind];
}

/**
 * True only when the Partner API itself says `orderNo` does not exist for
 * this key (its 404). An envelope is JSON anyone can write: a gateway's
 * `{"code":404,"message":"Not Found"}` under an HTTP 404 looks the same as
 * the API's own. So the 404 counts when
 *
 * - it came under HTTP 200 (the API carries its codes in the body; nothing
 *   in between answers a 200 that says "not found"), or
 * - a second operation on the same order (GetCertificateStatus) answers the
 *   API's 404 too: one misrouted path does not fake two operations.
 *
 * A 429 or any other answer to the second read proves nothing. Callers still
 * check the account (a 404 also means "another account's order").
 *
 * @example
 * if (await apiSaysNoSuchOrder(api, "CERT1", error)) { ...the order is gone for this key... }
 */
export async function apiSaysNoSuchOrder(api: PartnerApi, orderNo: string, error: unknown): Promise<boolean> {
  if (!apiSays(error, "not_found")) return false;
  if (error.httpStatus === 200) return true;
  try {
    await (error.operation === "GetCertificateStatus" ? api.getRecord({ orderNo }) : api.getCertificateStatus({ orderNo }));
    return false;
  } catch (second) {
    return apiSays(second, "not_found");
  }
}

/** What a failure message adds when a 404 was seen but not confirmed by {@link apiSaysNoSuchOrder}; "" otherwise. */
export function unconfirmedNotFound(error: unknown): string {
  return apiSays(error, "not_found") && error.httpStatus !== 200
    ? "; a 404 under an HTTP 404 that a second operation did not confirm could come from something in front of the API, so it does not prove the order gone"
    : "";
}
