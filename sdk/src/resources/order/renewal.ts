/**
 * Renewal measured on the certificate. An order's term holds several
 * certificates ("installments"; a publicly trusted certificate lives at most
 * 200 days from 2026-03-15, 100 from 2027-03-15, 47 from 2029-03-15), so the
 * renewal window opens before the CURRENT certificate's `notAfter`:
 * - another installment left: reissue in place (ApplySign submits the next
 *   certificate of the paid order; nothing is bought);
 * - none left (the end of the term): a new purchase (the Order is replaced).
 *
 * How the Order knows the current certificate's end date without spending
 * the status budget (one GetCertificateStatus per order per 180 s): the
 * state keeps what was learned (`certNotAfter`, or after a reissue a lower
 * bound `certNotAfterAtLeast`). A preview asks the service only when renewal
 * is configured AND the stored knowledge says the window may be open or
 * knows nothing; then at most once per order per provider process (the
 * process-wide status gate keeps the answer, and never waits for a cooldown
 * at preview). `read` (refresh) and `update` store what they learn.
 */
import { isPartnerApiError } from "../../client/errors.js";
import type { CertificateStatus, PartnerApi } from "../../client/types.js";
import { CertStatus } from "../../client/types.js";
import { describeError } from "../../client/describe-error.js";
import { containsUnknown, type ProviderContext } from "../../provider/index.js";
import { caBrowserMaxDays, DAY_MS, nextNotAfterAtLeast, renewalConfigured, windowOpensAt, type RenewalSettings } from "../../rules/lifetime.js";
import { processStatusGate, statusGateKey, statusReader } from "../shared/process-status-gate.js";
import type { OrderInputs } from "./inputs.js";
import { reportedMethod } from "./reported-method.js";
import { parseServiceTime } from "./service-time.js";
import { submittedBefore } from "./sign.js";
import type { OrderState } from "./state.js";

/** What a status read says about the order's current certificate. */
export interface CertKnowledge {
  certId?: string;
  notBefore?: string;
  notAfter?: string;
  /** The service shows a certificate awaiting submission other than the one this Order knew: the next installment. */
  nextWaiting?: boolean;
  requestId?: string;
  certStatus?: number;
  /** With `nextWaiting`: the certificate still in use (its dates, from its download). */
  previous?: { certId?: string; notBefore?: string; notAfter?: string };
}

export type RenewalPlan =
  | {
      kind: "none";
      opensAt?: number;
      unknown?: boolean;
      /** Said when the window is open but nothing may be done on the provider's own guess (the term's end unknown). */
      warning?: string;
    }
  | { kind: "reissue"; next: number; count: number; reason: string; opensAt?: number }
  | { kind: "renew"; reason: string; opensAt?: number };

/** The renewal settings of the inputs, unknown values left out. */
export function settingsOf(news: { renewBeforeDays?: unknown; renewBeforePercentage?: unknown }): RenewalSettings {
  const known = (v: unknown) => (typeof v === "number" && !containsUnknown(v) ? v : undefined);
  return { renewBeforeDays: known(news.renewBeforeDays), renewBeforePercentage: known(news.renewBeforePercentage) };
}

function describeSettings(settings: RenewalSettings): string {
  return [
    settings.renewBeforeDays !== undefined ? `renewBeforeDays=${settings.renewBeforeDays}` : undefined,
    settings.renewBeforePercentage !== undefined ? `renewBeforePercentage=${settings.renewBeforePercentage}` : undefined,
  ]
    .filter(Boolean)
    .join(", ");
}

const day = (ms: number | string | undefined) => (ms === undefined ? "?" : new Date(ms).toISOString().slice(0, 10));

/**
 * Whether a preview must ask the service: renewal configured, and the state
 * either knows nothing about the current certificate or says the window may
 * be open. Outside a known window: no call.
 */
export function needsStatusRead(state: OrderState, settings: RenewalSettings, now: Date): boolean {
  if (!renewalConfigured(settings)) return false;
  const notAfter = state.certNotAfter ?? state.certNotAfterAtLeast;
  if (!notAfter) return true;
  const opensAt = windowOpensAt({ notBefore: state.certNotBefore, notAfter, termEndsAt: state.termEndsAt }, settings);
  return opensAt === undefined || now.getTime() >= opensAt;
}

/** A service date (`YYYY-MM-DD HH:MM:SS` in UTC, `YYYY-MM-DD`, or ISO) as ISO; undefined when absent or unreadable. */
function iso(text: string | null | undefined): string | undefined {
  return text ? parseServiceTime(text)?.toISOString() : undefined;
}

/** What a status answer teaches about the current certificate. */
export function knowledgeFrom(state: OrderState, status: CertificateStatus): CertKnowledge {
  // The same signal ensureSubmitted uses to leave a later certificate to the renewal plan (a refresh
  // may have stored the waiting certificate's cert_status 0 over the issued one's).
  const knownBefore = submittedBefore(state);
  const other = status.certId !== null && status.certId !== state.certId;
  return {
    certId: status.certId ?? undefined,
    certStatus: status.certStatus,
    requestId: status.requestId ?? undefined,
    ...(status.certStatus === CertStatus.Issued ? { notBefore: iso(status.startDate), notAfter: iso(status.endDate) } : {}),
    nextWaiting: status.certStatus === CertStatus.AwaitingSubmission && knownBefore && (state.certId === undefined || other),
  };
}

/**
 * Reads the current certificate's status for renewal: through the process's
 * status gate, never waiting (an answer this process already has is reused;
 * under the cooldown, nothing is sent). Undefined with the reason when no
 * answer could be had.
 */
export async function learnCurrentCertificate(ctx: ProviderContext, state: OrderState): Promise<{ knowledge?: CertKnowledge; why?: string }> {
  let api: PartnerApi;
  try {
    api = ctx.api();
  } catch (error) {
    return { why: (error as Error).message };
  }
  const key = statusGateKey(ctx.settings.baseUrl, state.orderNo);
  try {
    const result = await processStatusGate.read(key, statusReader(api, state.orderNo), { freshAfter: 0, deadline: Date.now() });
    const latest = result && "status" in result ? result : processStatusGate.latest<CertificateStatus>(key);
    if (!latest) return { why: "the status was read less than the service's cooldown ago elsewhere (one read per order per 180 s)" };
    const knowledge = knowledgeFrom(state, latest.status);
    if (knowledge.nextWaiting && !state.certNotAfter) {
      // The status now describes the waiting certificate; the one in use is named by its installment
      // number (DownloadCertificate has no rate limit; only its dates are kept, the material is dropped).
      try {
        const current = await api.downloadCertificate({ orderNo: state.orderNo, installmentNo: state.installmentNo ?? 1 });
              knowledge.previous = { certId: current.certId, notBefore: iso(current.startDate ?? current.validFrom), notAfter: iso(current.endDate ?? current.validTo) };
      } catch {
        // Only the message loses the dates; the plan does not need them.
      }
    }
    return { knowledge };
  } catch (error) {
    return { why: isPartnerApiError(error) ? describeError(error) : (error as Error).message };
  }
}

/** The state with what a status read taught (the exact dates replace a lower bound) and `renewsAt` recomputed. */
export function withKnowledge(state: OrderState, knowledge: CertKnowledge | undefined, settings: RenewalSettings): OrderState {
  let next = { ...state };
  const inUse = knowledge?.notAfter ? knowledge : knowledge?.previous?.notAfter ? knowledge.previous : undefined;
  if (inUse) {
    next = { ...next, certId: inUse.certId ?? next.certId, certNotBefore: inUse.notBefore, certNotAfter: inUse.notAfter };
    delete next.certNotAfterAtLeast;
  }
  const opensAt = windowOpensAt(
    { notBefore: next.certNotBefore, notAfter: next.certNotAfter ?? next.certNotAfterAtLeast ?? "", termEndsAt: next.termEndsAt },
    settings,
  );
  if (opensAt === undefined) delete next.renewsAt;
  else next.renewsAt = new Date(opensAt).toISOString();
  return next;
}

/**
 * What renewal asks for now. `knowledge` is a fresh status read, if one was
 * made; otherwise the stored state decides. Without any knowledge of the
 * certificate, the term's end still bounds the last certificate. A purchase
 * (`renew`) is planned only when the term's end is known: without it (an
 * adopted order) the plan is a reissue when the service shows the next
 * installment waiting, else `none` with a warning.
 */
export function planRenewal(state: OrderState, settings: RenewalSettings, now: Date, knowledge?: CertKnowledge, quotedPrice?: string): RenewalPlan {
  if (!renewalConfigured(settings)) return { kind: "none" };
  const k = state.installmentNo ?? 1;
  const inUse = knowledge?.notAfter ? knowledge : knowledge?.previous?.notAfter ? knowledge.previous : undefined;
  const notBefore = inUse ? inUse.notBefore : state.certNotBefore;
  const notAfter = inUse?.notAfter ?? state.certNotAfter;
  // CreateOrder's count is a lower bound (a later certificate may live a shorter CA/B limit, and the
  // order then needs more). The certificate tells: one that ends before the term leaves another to
  // issue; the last one ends with the term (a day's slack: the service's payment time is a little
  // earlier than the provider's).
  const termEnd = state.termEndsAt ? Date.parse(state.termEndsAt) : Number.NaN;
  const termKnown = !Number.isNaN(termEnd);
  const endsBeforeTerm = notAfter && termKnown ? Date.parse(notAfter) < termEnd - DAY_MS : undefined;
  // The service's own word wins: a later certificate awaiting submission is an installment left.
  const left = knowledge?.nextWaiting === true || (endsBeforeTerm ?? k < (state.installmentsCount ?? 1));
  const n = Math.max(state.installmentsCount ?? 1, left ? k + 1 : k);
  const certId = inUse?.certId ?? state.certId;
  const opensAt = notAfter ? windowOpensAt({ notBefore, notAfter, termEndsAt: state.termEndsAt }, settings) : undefined;
  const how = describeSettings(settings);
  const buy =
    `a new order will be bought (quoted ${quotedPrice ?? "price unknown"}); ` +
    "the old one is deleted once the new one is in place (cancelled if still inside its refund window, else released)";
  const reissue = (why: string): RenewalPlan => ({
    kind: "reissue",
    next: k + 1,
    count: n,
    opensAt,
    reason:
      `reissue due: ${why}; reissue installment ${k + 1} of ${n} in place: ApplySign submits the next certificate of the paid order ` +
      `${state.orderNo} (nothing is bought), the Validation re-reads the new records, and the Certificate (given { order }) keeps the old certificate until the new one is issued and verified`,
  });
  const window = opensAt !== undefined ? `the renewal window (${how}) opened ${day(opensAt)}` : `renewal is configured (${how})`;
  const inUseText = `certificate ${certId ?? "(id not known)"} of order ${state.orderNo} (installment ${k} of ${n}) expires ${notAfter ? day(notAfter) : "(date not known)"}`;
  if (knowledge?.nextWaiting && left && (opensAt === undefined || now.getTime() >= opensAt)) {
    return reissue(`${inUseText}; ${window}; the service has started installment ${k + 1} (awaiting submission)`);
  }
  if (notAfter && opensAt !== undefined) {
    if (now.getTime() < opensAt) return { kind: "none", opensAt };
    if (left) return reissue(`${inUseText}; ${window}`);
    // Without the term's end (an adopted order: the API reports the term only when buying), "no
    // installment left" is a guess, and a guess never buys: the user decides.
    if (!termKnown) return { kind: "none", opensAt, warning: termUnknownWarning(state, { certId, notAfter, window, statusRead: knowledge !== undefined }) };
    const termNote = state.termEndsAt ? ` and the term ends ${day(state.termEndsAt)}` : "";
    return {
      kind: "renew",
      opensAt,
      reason: `renewal due: order ${state.orderNo}'s last certificate (installment ${k} of ${n}) expires ${day(notAfter)}${termNote}; ${window}, no installment is left: ${buy}`,
    };
  }
  // Nothing known about the certificate: the term's end bounds the last one.
  if (!left && state.termEndsAt && settings.renewBeforeDays !== undefined) {
    const termOpens = windowOpensAt({ notAfter: state.termEndsAt }, settings);
    if (termOpens !== undefined && now.getTime() >= termOpens) {
      return {
        kind: "renew",
        opensAt: termOpens,
        reason: `renewal due: order ${state.orderNo}'s term ends ${day(state.termEndsAt)}, within renewBeforeDays=${settings.renewBeforeDays}; ${buy}`,
      };
    }
  }
  return { kind: "none", unknown: true };
}

/**
 * The renewal window is open but the order's term end is unknown and the
 * service shows no later certificate waiting: what is known, and what the
 * user can do. Nothing is bought on the provider's own guess.
 */
function termUnknownWarning(
  state: OrderState,
  known: { certId?: string; notAfter: string; window: string; statusRead: boolean },
): string {
  const why = state.adopted ? "the order was adopted, and the API reports an order's term only in CreateOrder's answer" : "the state does not record it";
  const service = known.statusRead
    ? "the service shows no later certificate awaiting submission"
    : "the service's status could not be read now, so whether it has started the next installment is not known";
  const urn = state.journalKey ? ` '${state.journalKey}'` : " <this Order's URN>";
  return (
    `renewal not done: certificate ${known.certId ?? "(id not known)"} of order ${state.orderNo} expires ${day(known.notAfter)} (notAfter ${known.notAfter}); ${known.window}; ` +
    `but the end of the order's term is unknown (${why}), and ${service}. Nothing is bought and nothing is submitted on a guess. ` +
    "If the order holds another installment, the service starts it inside its own renewal window and a later `pulumi up` reissues it in place " +
    "(ApplySign, nothing bought). If this certificate is the order's last, buy its successor deliberately: remove `adoptOrderNo` from this Order if it is set " +
    `and run \`pulumi up --replace${urn}\` (set the \`retainOnDelete\` resource option first to keep order ${state.orderNo} instead of having it cancelled or released)`
  );
}

/**
 * The renewal plan for a diff or an update: from the stored knowledge, and a
 * status read only when renewal is configured and that knowledge says the
 * window may be open or knows nothing (at most once per order per process).
 */
export async function renewalPlanFor(
  ctx: ProviderContext,
  olds: OrderState,
  news: OrderInputs,
): Promise<RenewalPlan & { knowledge?: CertKnowledge }> {
  const settings = settingsOf(news);
  const now = ctx.now();
  let knowledge: CertKnowledge | undefined;
  if (needsStatusRead(olds, settings, now)) {
    const learned = await learnCurrentCertificate(ctx, olds);
    knowledge = learned.knowledge;
    if (!knowledge) {
      ctx.log(news.journalKey).warn(`order ${olds.orderNo}: renewal evaluated from stored knowledge only; the current certificate's status could not be read (${learned.why})`);
    }
  }
  return { ...planRenewal(olds, settings, now, knowledge, news.quotedPrice), knowledge };
}

/**
 * Submits the next installment of the paid order (ApplySign, allowed in
 * cert states 0 and 3; nothing is bought). A refusal (the service has not
 * opened the next installment yet) changes nothing and warns: the next `up`
 * tries again. Any other failure is thrown: the engine keeps the old state.
 */
export async function reissue(ctx: ProviderContext, api: PartnerApi, state: OrderState, plan: Extract<RenewalPlan, { kind: "reissue" }>, knowledge?: CertKnowledge): Promise<OrderState> {
  const log = ctx.log(state.journalKey);
  let stored;
  try {
    stored = await api.getRecord({ orderNo: state.orderNo });
  } catch (error) {
    throw new Error(`certreseller Order: reading order ${state.orderNo} before the reissue failed (${describeError(error)}); nothing was submitted or bought`, { cause: error });
  }
  const submittedAt = ctx.now().getTime();
  const previousLife =
    state.certNotAfter && state.certNotBefore ? Date.parse(state.certNotAfter) - Date.parse(state.certNotBefore) : caBrowserMaxDays(new Date(submittedAt)) * DAY_MS;
  const advanced = (requestId: string | undefined, certStatus: number): OrderState => {
    const next: OrderState = {
      ...state,
      installmentNo: plan.next,
      installmentsCount: Math.max(state.installmentsCount ?? 1, plan.count),
      requestId: requestId ?? state.requestId,
      certStatus,
      certNotBefore: new Date(submittedAt).toISOString(),
      certNotAfterAtLeast: new Date(nextNotAfterAtLeast(submittedAt, previousLife, state.termEndsAt)).toISOString(),
      verificationMethod: reportedMethod(stored.verificationMethod, state.verificationMethod),
    };
    delete next.certNotAfter;
    delete next.certId;
    return next;
  };
  if (stored.certStatus === CertStatus.Issuing) {
    // The window is open, so the previous certificate was issued: a certificate in validation is the next one,
    // submitted already (an earlier answer was lost, or another tool sent it). Record it, send nothing.
    log.warn(`order ${state.orderNo}: installment ${plan.next} of ${plan.count} is already submitted (cert_status 2); recorded without a new ApplySign`);
    return advanced(knowledge?.certStatus === CertStatus.Issuing ? knowledge.requestId : undefined, CertStatus.Issuing);
  }
  try {
    const answer = await api.applySign({ orderNo: state.orderNo });
    const next = advanced(answer.requestId ?? undefined, answer.certStatus ?? CertStatus.Issuing);
    next.verificationMethod = reportedMethod(answer.verificationMethod, next.verificationMethod);
    log.info(
      `order ${state.orderNo}: installment ${plan.next} of ${plan.count} submitted for issuance (ApplySign, request id ${next.requestId ?? "not reported"}); nothing was bought. ` +
        "The Validation re-reads the new records and the Certificate waits for the new certificate; the old one stays in use until then",
    );
    return next;
  } catch (error) {
    if (isPartnerApiError(error, "invalid_request")) {
      log.warn(
        `order ${state.orderNo}: the service did not accept the reissue of installment ${plan.next} of ${plan.count} yet (${describeError(error)}); ` +
          "nothing changed and nothing was bought; the next `pulumi up` tries again",
      );
      return state;
    }
    throw new Error(`certreseller Order: submitting installment ${plan.next} of order ${state.orderNo} failed (${describeError(error)}); nothing was bought, the next up tries again`, {
      cause: error,
    });
  }
}
