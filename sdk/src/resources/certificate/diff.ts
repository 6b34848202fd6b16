import type * as pulumi from "@pulumi/pulumi";
import type { ProviderContext } from "../../provider/context.js";
import { isUnknown } from "../../provider/unknown.js";
import { daysBetween } from "../../rules/lifetime.js";
import { sameValue } from "../../schema/property.js";
import { changedInputs } from "../shared/inputs.js";
import { CERTIFICATE_PROPERTIES } from "./declaration.js";
import type { CertificateInputs } from "./inputs.js";
import type { CertificateState } from "./state.js";

/** Days before `notAfter` from which a Certificate without renewal settings warns at preview. */
export const EXPIRY_WARNING_DAYS = 30;

/**
 * What each change does is declared (`declaration.ts`): a new `orderNo`, or
 * a given `installmentNo` / `certId` other than the certificate held,
 * replaces (create-before-delete); a new request id (the Order's reissue)
 * and a new `timeoutMinutes` update in place. `olds` are the OLD OUTPUTS.
 */
export async function diff(ctx: ProviderContext, _id: string, olds: CertificateState, news: CertificateInputs): Promise<pulumi.dynamic.DiffResult> {
  const { replaces, updates } = changedInputs(CERTIFICATE_PROPERTIES, { ...olds }, { ...news });
  // Nothing else is compared. In particular an earlier release's stored
  // copies of the derived outputs (pfxBase64, fullChainPem, ...; see
  // DERIVED_OUTPUTS) and its pfxPassword input, which the class no longer
  // sends, are no change: upgrading updates nothing, and the next real
  // update writes the slim outputs.
  // The Order submitted the next installment (a new request id): update in place; the old certificate stays until the new one is verified.
  const reissued = updates.includes("requestId");
  const log = ctx.log(news.resourceUrn);
  if (reissued && olds.requestId !== undefined && replaces.length === 0) {
    log.warn(
      `order ${olds.orderNo} was reissued (request id ${olds.requestId} → ${isUnknown(news.requestId) ? "a new one" : news.requestId}): certificate ${olds.certId} ` +
        `(installment ${olds.installmentNo}${olds.installmentsCount ? ` of ${olds.installmentsCount}` : ""}, valid until ${olds.notAfter}) is replaced in place by the next installment once it is issued and verified; it stays in state and in use until then`,
    );
  }
  expiryWarning(log, olds, news, ctx.now());
  // Replacement is create-before-delete: the old material stays in state
  // (and deployed) until the new certificate is issued and downloaded.
  return { changes: replaces.length + updates.length > 0, replaces, deleteBeforeReplace: false };
}

/** The Order's request id moved on (or is unknown at preview while the Order updates). */
export function requestIdChanged(olds: CertificateState, news: Partial<CertificateInputs>): boolean {
  return isUnknown(news.requestId) || !sameValue(CERTIFICATE_PROPERTIES.requestId, olds.requestId, news.requestId, { ...olds }, { ...news });
}

/**
 * From the Certificate's own state, no API call: a certificate close to its
 * end with no renewal setting given warns at preview.
 */
function expiryWarning(log: ReturnType<ProviderContext["log"]>, olds: CertificateState, news: Partial<CertificateInputs>, now: Date): void {
  const notAfter = Date.parse(olds.notAfter ?? "");
  if (Number.isNaN(notAfter)) return;
  const configured = [news.renewBeforeDays, news.renewBeforePercentage].some((v) => v !== undefined && v !== null);
  const days = daysBetween(now.getTime(), notAfter);
  if (configured || days > EXPIRY_WARNING_DAYS) return;
  log.warn(
    `certificate ${olds.certId} of order ${olds.orderNo} (${(olds.domains ?? []).join(", ")}) ${days < 0 ? `EXPIRED on ${olds.notAfter}` : `expires ${olds.notAfter} (in ${days} days)`} ` +
      "and no renewal is configured: set renewBeforeDays or renewBeforePercentage on the Order and pass { order } to the Certificate",
  );
}
