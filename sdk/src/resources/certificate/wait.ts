import { CertStatus } from "../../client/vocabulary.js";
import { clockTime, type Clock } from "../shared/clock.js";
import type { GatedRead, StatusReadGate } from "../shared/status-gate.js";

/**
 * What the Certificate reads the order's status through: a time source and
 * the process's status-read gate (tests substitute both; `handlers.ts` gives
 * the real ones).
 */
export interface StatusDeps {
  readonly clock: Clock;
  readonly gate: StatusReadGate;
}

/** The parts of GetCertificateStatus the wait needs. */
export interface IssuanceStatus {
  certStatus: number;
  certId?: string | null;
  domainStatuses: { domain: string; method?: string | null; verified: boolean }[];
  caStatusText?: string | null;
}

export interface WaitForIssuanceOptions<S extends IssuanceStatus> {
  orderNo: string;
  /** Gate key: one per order per service (see StatusReadGate). */
  gateKey: string;
  gate: StatusReadGate;
  clock: Clock;
  timeoutMs: number;
  /**
   * Where the timeout came from when not `timeoutMinutes` (e.g.
   * `customTimeouts.create "1m"`), so the failure names what the user wrote.
   */
  timeoutOrigin?: string;
  /** When the wait began (default: now); the deadline is `startedAt + timeoutMs`. */
  startedAt?: number;
  readStatus: () => Promise<GatedRead<S>>;
  /** Progress lines (which domains are unverified, when the next check is). */
  log: (line: string) => void;
  /**
   * Whether the certificate this resource targets is issued. Defaults to
   * `cert_status == 1`; an installment target can demand more (e.g. its own cert id).
   */
  isReady?: (status: S) => boolean;
}

/** Issuance ended in a state that will not turn into a certificate by waiting. */
export class IssuanceFailedError extends Error {
  override name = "IssuanceFailedError";
  constructor(
    message: string,
    readonly certStatus: number,
  ) {
    super(message);
  }
}

/** No status read the service allows falls before the deadline. */
export class IssuanceTimeoutError extends Error {
  override name = "IssuanceTimeoutError";
}

const TERMINAL: Record<number, string> = {
  [CertStatus.IssuanceFailed]: "issuance failed",
  [CertStatus.Revoking]: "the certificate is being revoked",
  [CertStatus.Revoked]: "the certificate was revoked/refunded",
  [CertStatus.RefundInProgress]: "a refund is in progress",
};

/**
 * Waits until the order's certificate is issued, reading the status no more
 * often than the service allows (the gate enforces the cooldown and any
 * `retry_after`), and returns the status that showed it issued.
 *
 * The first read goes out at once unless this process read the order less
 * than a cooldown ago. Before each wait a progress line names the domains
 * still unverified and the time of the next check.
 */
export async function waitForIssuance<S extends IssuanceStatus>(opts: WaitForIssuanceOptions<S>): Promise<S> {
  const { orderNo, gate, clock } = opts;
  const isReady = opts.isReady ?? ((s: S) => s.certStatus === CertStatus.Issued);
  const started = opts.startedAt ?? clock.now();
  const deadline = started + opts.timeoutMs;
  let freshAfter = clock.now();
  let last: S | undefined;

  for (;;) {
    const result = await gate.read<S>(opts.gateKey, opts.readStatus, { freshAfter, deadline });
    if (result === undefined) throw timeout(opts, started, last, gate.nextAllowedAt(opts.gateKey));
    if ("rateLimitedUntil" in result) {
      opts.log(`order ${orderNo}: status read refused by the service's rate limit (read elsewhere); next check at ${clockTime(result.rateLimitedUntil)}`);
      continue;
    }
    freshAfter = result.at;
    const status = result.status;
    last = status;
    if (isReady(status)) return status;
    const terminal = TERMINAL[status.certStatus];
    if (terminal) {
      const detail = status.caStatusText ? ` (CA says: ${status.caStatusText})` : "";
      throw new IssuanceFailedError(
        `order ${orderNo}: ${terminal}, cert_status ${status.certStatus}${detail}; ` +
          (status.certStatus === CertStatus.IssuanceFailed
            ? "re-submit the order (the Order resource's ApplySign runs again when it is replaced or updated) or contact the reseller"
            : "this order will not produce a certificate; replace the Order to buy a new one"),
        status.certStatus,
      );
    }
    if (status.certStatus === CertStatus.AwaitingSubmission) {
      throw new IssuanceFailedError(
        `order ${orderNo}: not submitted for issuance yet (cert_status 0); the Order resource submits it with ApplySign — make the Certificate depend on the Order (use order.orderNo) and run up again`,
        0,
      );
    }
    const next = gate.nextAllowedAt(opts.gateKey);
    if (next > deadline) throw timeout(opts, started, status, next);
    opts.log(progressLine(orderNo, status, next, clock.now()));
  }
}

function unverified(status: IssuanceStatus | undefined): string[] {
  return (status?.domainStatuses ?? []).filter((d) => !d.verified).map((d) => d.domain);
}

/** The progress line printed between status reads. */
export function progressLine(orderNo: string, status: IssuanceStatus, nextAt: number, now: number): string {
  const pending = unverified(status);
  const total = status.domainStatuses.length;
  const what =
    pending.length > 0
      ? `waiting for domain validation: ${pending.length} of ${total} unverified (${pending.join(", ")})`
      : total > 0
        ? `all ${total} domains verified, waiting for the CA to issue`
        : `waiting for issuance (cert_status ${status.certStatus})`;
  const inSeconds = Math.max(0, Math.round((nextAt - now) / 1000));
  return `order ${orderNo}: ${what}; next check at ${clockTime(nextAt)} (in ${inSeconds} s)`;
}

/**
 * The wait ends as soon as the next read the service allows falls after the
 * deadline: idling until the deadline could not see the certificate issued,
 * so the message says that rather than looking like a premature failure.
 */
function timeout<S extends IssuanceStatus>(opts: WaitForIssuanceOptions<S>, started: number, last: S | undefined, next: number): IssuanceTimeoutError {
  const minutes = Math.round((opts.timeoutMs / 60_000) * 100) / 100;
  const setting = opts.timeoutOrigin ? opts.timeoutOrigin.split(" ")[0] : "timeoutMinutes";
  const pending = unverified(last);
  const state = last
    ? pending.length > 0
      ? `still unverified: ${pending.join(", ")}`
      : `last cert_status ${last.certStatus}`
    : "no status could be read";
  return new IssuanceTimeoutError(
    `order ${opts.orderNo}: not issued within ${opts.timeoutOrigin ? `${opts.timeoutOrigin} (${minutes} min)` : `timeoutMinutes ${minutes}`} (started ${clockTime(started)}; ${state}). ` +
      `The service allows the next status read at ${clockTime(next)}, after this wait's deadline (${clockTime(started + opts.timeoutMs)}), so no read could see the certificate issued in time: the wait stops now instead of idling until the deadline. ` +
      `Publish the validation records, then run up again or raise ${setting} above the service's status-read cooldown.`,
  );
}
