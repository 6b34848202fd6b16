import type * as pulumi from "@pulumi/pulumi";
import { CertStatus } from "../../client/vocabulary.js";
import type { ProviderContext } from "../../provider/context.js";
import { clockTime } from "../shared/clock.js";
import { DEFAULT_COOLDOWN_SECONDS, statusGateKey, statusReader } from "../shared/process-status-gate.js";
import type { CertificateState } from "./state.js";
import type { StatusDeps } from "./wait.js";

/**
 * Refresh reads the status only when the service would answer; under the
 * cooldown (or a refusal) the stored certificate is kept with a warning,
 * because failing a refresh over a rate limit helps nobody.
 */
export async function read({ clock, gate }: StatusDeps, ctx: ProviderContext, id: string, props: CertificateState): Promise<pulumi.dynamic.ReadResult<CertificateState>> {
  const log = ctx.log();
  const key = statusGateKey(ctx.settings.baseUrl, props.orderNo);
  const result = await gate.read(key, statusReader(ctx.api(), props.orderNo), { freshAfter: 0, deadline: clock.now() });
  if (result === undefined || "rateLimitedUntil" in result) {
    const until = result && "rateLimitedUntil" in result ? result.rateLimitedUntil : gate.nextAllowedAt(key);
    log.warn(`order ${props.orderNo}: status not re-read (one read per ${DEFAULT_COOLDOWN_SECONDS} s per order; next allowed at ${clockTime(until)}); keeping the stored certificate ${id}`);
    return { id, props };
  }
  const status = result.status;
  if (status.certId === props.certId && status.certStatus !== CertStatus.Issued) {
    log.warn(`order ${props.orderNo}: certificate ${id} is no longer valid at the service (cert_status ${status.certStatus}${status.certStatusLabel ? `, ${status.certStatusLabel}` : ""}); the stored material is kept — replace the Order to get a new certificate`);
  }
  return { id, props };
}
