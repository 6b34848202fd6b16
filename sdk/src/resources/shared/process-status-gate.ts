import { isPartnerApiError } from "../../client/errors.js";
import type { CertificateStatus, PartnerApi } from "../../client/types.js";
import { systemClock } from "./clock.js";
import { StatusReadGate, type GatedRead } from "./status-gate.js";

/** The documented status cooldown, used when a refusal does not say how long. */
export const DEFAULT_COOLDOWN_SECONDS = 180;

/**
 * The one status-read gate of the provider process. The Order (learning the
 * current certificate's end date for renewal) and the Certificate (waiting
 * for issuance) read the same order's status; sharing the gate means neither
 * sends a read the service would refuse, and a read one made serves the other.
 */
export const processStatusGate = new StatusReadGate(systemClock);

/** The gate key: one per order per service. */
export function statusGateKey(baseUrl: string | undefined, orderNo: string): string {
  return `${baseUrl ?? ""}|${orderNo}`;
}

/** One GetCertificateStatus call as the gate sees it. */
export function statusReader(api: PartnerApi, orderNo: string): () => Promise<GatedRead<CertificateStatus>> {
  return async () => {
    try {
      const status = await api.getCertificateStatus({ orderNo });
      return { kind: "status", status, cooldownSeconds: status.cooldownSeconds ?? DEFAULT_COOLDOWN_SECONDS };
    } catch (e) {
      if (isPartnerApiError(e, "rate_limited")) {
        return { kind: "rate-limited", retryAfterSeconds: e.retryAfter ?? e.cooldownSeconds ?? DEFAULT_COOLDOWN_SECONDS };
      }
      throw e;
    }
  };
}
