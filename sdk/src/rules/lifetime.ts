/**
 * Certificate lifetimes and renewal windows.
 *
 * Public CA rules (CA/Browser Forum ballot SC-081v3, which the service's CAs
 * follow): a publicly trusted TLS certificate issued from 2026-03-15 lives at
 * most 200 days, from 2027-03-15 at most 100 days, from 2029-03-15 at most
 * 47 days (398 days before). An order's term is therefore longer than one
 * certificate: the order holds several "installments", and renewal is
 * measured on the current certificate, not on the term.
 */

/** One day in milliseconds: the unit of every window and lifetime here. */
export const DAY_MS = 86_400_000;

/** The CA/B limits: from each date (UTC midnight), the longest lifetime in days. */
export const CAB_LIFETIME_STEPS: readonly { from: string; maxDays: number }[] = [
  { from: "2026-03-15", maxDays: 200 },
  { from: "2027-03-15", maxDays: 100 },
  { from: "2029-03-15", maxDays: 47 },
];

/**
 * The longest lifetime (days) of a publicly trusted TLS certificate issued at `issuedAt`.
 *
 * @example
 * caBrowserMaxDays(new Date("2026-11-23")) === 200
 * caBrowserMaxDays(new Date("2027-03-15")) === 100
 */
export function caBrowserMaxDays(issuedAt: Date): number {
  let max = 398;
  for (const step of CAB_LIFETIME_STEPS) if (issuedAt.getTime() >= Date.parse(`${step.from}T00:00:00Z`)) max = step.maxDays;
  return max;
}

/** When renewal starts, as the Order's inputs say: days before expiry and/or a share of the lifetime. */
export interface RenewalSettings {
  /** Days before the certificate's notAfter. */
  renewBeforeDays?: number;
  /** Percent of the lifetime left when renewal starts (cert-manager's `renewBeforePercentage`), 1-99. */
  renewBeforePercentage?: number;
}

/** True when a renewal setting is given. */
export function renewalConfigured(settings: RenewalSettings): boolean {
  return typeof settings.renewBeforeDays === "number" || typeof settings.renewBeforePercentage === "number";
}

/** The certificate a window is measured on. */
export interface CertificateLife {
  /** ISO time; needed for the percentage (the lifetime); without it only days apply. */
  notBefore?: string;
  notAfter: string;
  /**
   * ISO time the order's term ends. The last certificate of an order cannot
   * be reissued past it, so the window is measured on the earlier of the two.
   */
  termEndsAt?: string;
}

/**
 * When the renewal window opens (ms since the epoch), or undefined without a
 * setting or a readable date. With both settings the earlier moment wins
 * (each is a promise to renew at least that early). The anchor is the
 * earlier of the certificate's notAfter and the term's end.
 *
 * @example
 * // 200-day certificate, renew with 30 days or a third of the lifetime left: a third (66.7 days) is earlier.
 * windowOpensAt({ notBefore: "2026-11-23T00:00:00Z", notAfter: "2027-06-11T00:00:00Z" }, { renewBeforeDays: 30, renewBeforePercentage: 33 })
 */
export function windowOpensAt(life: CertificateLife, settings: RenewalSettings): number | undefined {
  const notAfter = Date.parse(life.notAfter);
  if (Number.isNaN(notAfter)) return undefined;
  const termEnd = life.termEndsAt ? Date.parse(life.termEndsAt) : Number.NaN;
  const anchor = Number.isNaN(termEnd) ? notAfter : Math.min(notAfter, termEnd);
  const candidates: number[] = [];
  if (typeof settings.renewBeforeDays === "number") candidates.push(anchor - settings.renewBeforeDays * DAY_MS);
  if (typeof settings.renewBeforePercentage === "number" && life.notBefore) {
    const notBefore = Date.parse(life.notBefore);
    if (!Number.isNaN(notBefore) && notBefore < notAfter) {
      // cert-manager: renewal time = notAfter - lifetime * percentage / 100.
      candidates.push(anchor - Math.round(((notAfter - notBefore) * settings.renewBeforePercentage) / 100));
    }
  }
  return candidates.length > 0 ? Math.min(...candidates) : undefined;
}

/** Whole days from `from` to `to` (negative when past), rounded down. */
export function daysBetween(from: number, to: number): number {
  return Math.floor((to - from) / DAY_MS);
}

/**
 * A lower bound for the notAfter of a certificate submitted at `submittedAt`
 * whose predecessor lived `previousLifetimeMs`: the service issues for
 * min(brand maximum, CA/B limit on the issue date), capped at the term's
 * end; the brand maximum is at least the predecessor's lifetime. Lets a
 * preview know that a window cannot be open yet without asking the service.
 *
 * @example
 * nextNotAfterAtLeast(Date.parse("2027-06-01T00:00:00Z"), 200 * 86_400_000, "2027-11-23T00:00:00Z") // 2027-09-09: 100 days (CA/B from 2027-03-15)
 */
export function nextNotAfterAtLeast(submittedAt: number, previousLifetimeMs: number, termEndsAt?: string): number {
  const cab = caBrowserMaxDays(new Date(submittedAt)) * DAY_MS;
  let life = Math.min(previousLifetimeMs, cab);
  const termEnd = termEndsAt ? Date.parse(termEndsAt) : Number.NaN;
  if (!Number.isNaN(termEnd)) life = Math.min(life, Math.max(0, termEnd - submittedAt));
  return submittedAt + life;
}
