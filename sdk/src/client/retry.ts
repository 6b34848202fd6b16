import type { PartnerApiError } from "./errors.js";
import type { RetryOptions } from "./options.js";

/** A fully resolved retry policy. */
export type RetryPolicy = Required<RetryOptions>;

/** Defaults: 4 attempts, 250 ms doubling up to 5 s, 30 s overall. */
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 5_000, maxTotalMs: 30_000 };

/**
 * The least budget worth a retry. A retry left with less cannot get an
 * answer in time: it only adds a request the server has to serve (and, on a
 * busy machine, timers that fire a millisecond early would otherwise start a
 * last attempt with a 1 ms timeout).
 */
export const MIN_RETRY_BUDGET_MS = 50;

/** Resolves and checks the client's retry option (`false` means one attempt only). */
export function resolveRetryPolicy(option: RetryOptions | false | undefined): RetryPolicy {
  if (option === false) return { ...DEFAULT_RETRY, maxAttempts: 1 };
  const policy = { ...DEFAULT_RETRY, ...definedOnly(option ?? {}) };
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) throw new TypeError("PartnerClient: retry.maxAttempts must be an integer >= 1");
  for (const key of ["baseDelayMs", "maxDelayMs", "maxTotalMs"] as const) {
    if (!Number.isFinite(policy[key]) || policy[key] < 0) throw new TypeError(`PartnerClient: retry.${key} must be a finite number >= 0`);
  }
  return policy;
}

/** What the retry loop knows about a failed attempt. */
export interface FailedAttempt {
  error: PartnerApiError;
  /** 1-based number of the attempt that failed. */
  attempt: number;
  /** Time since the call started. */
  elapsedMs: number;
  /** True for CreateOrder, ApplySign, ChangeVertificationMethod, CancelOrder. */
  changesState: boolean;
}

/**
 * How long to wait before the next attempt, or `undefined` to surface the
 * error now.
 *
 * Backoff is exponential with full jitter; a server's `retry_after` is a
 * floor. A wait that would leave less than {@link MIN_RETRY_BUDGET_MS} of the
 * call's total budget is not started:
 * the error is surfaced at once (a status read told to come back in 180 s is
 * the resource layer's to schedule, not ours to sleep through).
 */
export function nextRetryDelay(policy: RetryPolicy, failed: FailedAttempt, random: () => number = Math.random): number | undefined {
  const { error, attempt, elapsedMs, changesState } = failed;
  // MONEY SAFETY RULE — enforced here and only here: an operation that moves
  // money or changes state (CreateOrder, ApplySign, ChangeVertificationMethod,
  // CancelOrder) is never retried once its request may have reached the
  // server. The API has no idempotency key, so a second CreateOrder buys a
  // second certificate. Only a failure that provably happened before the
  // request left (e.g. connection refused) may be retried.
  if (changesState && error.mayHaveReachedServer) return undefined;
  if (!isTransient(error)) return undefined;
  if (attempt >= policy.maxAttempts) return undefined;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const backoff = Math.round(random() * ceiling);
  const delay = error.retryAfter === undefined ? backoff : Math.max(Math.ceil(error.retryAfter * 1000), backoff);
  if (elapsedMs + delay + MIN_RETRY_BUDGET_MS > policy.maxTotalMs) return undefined;
  return delay;
}

/** Failures worth another attempt: network, timeout, API code 5xx, an HTTP 5xx error page, 429. */
export function isTransient(error: PartnerApiError): boolean {
  switch (error.kind) {
    case "network":
    case "timeout":
    case "rate_limited":
      return true;
    case "server": {
      const status = error.code !== undefined && error.code >= 500 ? error.code : error.httpStatus;
      return status !== undefined && status >= 500 && status <= 599;
    }
    case "http_error":
      // A gateway's 502/503/504 page is the usual transient failure; its 404 or 400 is not.
      return error.httpStatus !== undefined && error.httpStatus >= 500 && error.httpStatus <= 599;
    default:
      return false;
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
