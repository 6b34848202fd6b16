import { addMonths } from "../util/time.js";

export const DAY_MS = 86_400_000;

/**
 * The CA/Browser Forum limits (ballot SC-081v3) the service's CAs follow: the
 * longest validity of a TLS certificate and how long domain validation may be
 * reused, by the certificate's issue date (UTC midnight). Before the first
 * step the Baseline Requirements' 398 days applied to both.
 */
export interface LifetimeLimit {
  /** Applies to certificates issued from this instant (ms since the epoch). */
  fromMs: number;
  maxDays: number;
  reuseDays: number;
}

export const CABF_LIMITS: readonly LifetimeLimit[] = [
  { fromMs: Date.UTC(2029, 2, 15), maxDays: 47, reuseDays: 10 },
  { fromMs: Date.UTC(2027, 2, 15), maxDays: 100, reuseDays: 100 },
  { fromMs: Date.UTC(2026, 2, 15), maxDays: 200, reuseDays: 200 },
  { fromMs: Number.NEGATIVE_INFINITY, maxDays: 398, reuseDays: 398 },
];

/** The limit in force for a certificate issued at `atMs`. */
export function limitOn(atMs: number): LifetimeLimit {
  return CABF_LIMITS.find((l) => atMs >= l.fromMs)!;
}

/** How long domain validation done before `atMs` may be reused for a certificate issued at `atMs`. */
export function reuseMsOn(atMs: number): number {
  return limitOn(atMs).reuseDays * DAY_MS;
}

/**
 * notAfter of a certificate issued at `issueMs`: the shorter of the brand's
 * per-certificate maximum (calendar months) and the CA/B limit on the issue
 * date (whole days), never past `termEndMs` when given.
 */
export function certificateNotAfter(issueMs: number, brandMaxMonths: number, termEndMs?: number): number {
  const byBrand = addMonths(new Date(issueMs), brandMaxMonths).getTime();
  const byCabf = issueMs + limitOn(issueMs).maxDays * DAY_MS;
  return Math.min(byBrand, byCabf, termEndMs ?? Number.POSITIVE_INFINITY);
}

/** The end of an order's term: `months` calendar months after payment, in whole seconds (as X.509 dates are). */
export function termEndMs(paidAtMs: number, months: number): number {
  return Math.floor(addMonths(new Date(paidAtMs), months).getTime() / 1000) * 1000;
}

/**
 * `installments_count` at purchase: the term divided by the lifetime a
 * certificate issued at the purchase instant would get, rounded up —
 * ceil(term / lifetime-at-purchase). A lower bound: later limits are never
 * longer, so the order needs at least this many; it grows when it needs more.
 */
export function installmentsAtPurchase(paidAtMs: number, months: number, brandMaxMonths: number): number {
  const term = termEndMs(paidAtMs, months) - paidAtMs;
  const lifetime = certificateNotAfter(paidAtMs, brandMaxMonths) - paidAtMs;
  return Math.max(1, Math.ceil(term / lifetime));
}

/**
 * The renewal window of a certificate: the next installment may be submitted
 * from `notAfter − window`, where the window is the configured number of days
 * but at most half the certificate's lifetime (a 47-day certificate is not
 * renewable on its first day).
 */
export function renewalOpensAtMs(notBeforeMs: number, notAfterMs: number, windowDays: number): number {
  const windowMs = Math.min(windowDays * DAY_MS, (notAfterMs - notBeforeMs) / 2);
  return notAfterMs - windowMs;
}
