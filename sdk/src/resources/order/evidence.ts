import { isPartnerApiError, type PartnerApiError, type PartnerErrorKind } from "../../client/errors.js";

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
