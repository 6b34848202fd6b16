import { isUnknown } from "../../provider/unknown.js";
import type { VerifiedMaterial } from "./material.js";

/** Default wait for issuance: DV validation usually completes within a few status cooldowns. */
export const DEFAULT_TIMEOUT_MINUTES = 60;
/** A week: longer waits belong in a later `up`, not in one blocked process. */
export const MAX_TIMEOUT_MINUTES = 7 * 24 * 60;

export interface CertificateInputs {
  orderNo: string;
  /** Target installment of a multi-installment order (1-based). */
  installmentNo?: number;
  /** Target certificate id (UUID); wins over `installmentNo`. */
  certId?: string;
  timeoutMinutes?: number;
  /**
   * Set by the class when the wait comes from `customTimeouts` (e.g.
   * `customTimeouts.create "1m"`): the timeout error names it.
   */
  timeoutOrigin?: string;
  /**
   * The Order's sign request id (`{ order }` passes it): a new one means the
   * Order submitted the next installment, and the update downloads it.
   */
  requestId?: string;
  /** The Order's renewal settings (`{ order }` passes them): for `renewsAt` and the expiry warning. */
  renewBeforeDays?: number;
  renewBeforePercentage?: number;
  /** The resource's URN, set by the class: ties preview warnings to the resource. Not compared. */
  resourceUrn?: string;
}

/**
 * What a Certificate keeps in state: the verified material that cannot be
 * recomputed (its `privateKeyPem` is secret through additionalSecretOutputs,
 * and empty when the order used a custom CSR) plus what identifies it. The
 * class computes the rest in the program (see {@link DERIVED_OUTPUTS}).
 */
export type CertificateOutputs = Pick<VerifiedMaterial, "certificatePem" | "chainPem" | "privateKeyPem" | "notAfter"> & {
  /** Stored for a custom-CSR order only (the customer's CSR); earlier releases also stored the service's. */
  csrPem?: string;
  orderNo: string;
  certId: string;
  installmentNo: number;
  timeoutMinutes: number;
  timeoutOrigin?: string;
  domains: string[];
  /** The Order's request id this certificate was issued for (absent when the program gave none). */
  requestId?: string;
  /** How many certificates the order holds (DownloadCertificate's `installments_count`). */
  installmentsCount?: number;
};

/**
 * Outputs earlier releases stored and the class now computes in the program
 * (and the `pfxPassword` input it no longer sends). A state written by such a
 * release still holds them: diff ignores them, and the next update leaves
 * them out.
 */
export const DERIVED_OUTPUTS = ["fullChainPem", "serialNumber", "fingerprintSha256", "notBefore", "pfxBase64", "pfxPassword"] as const;

/** Days before `notAfter` from which a Certificate without renewal settings warns at preview. */
export const EXPIRY_WARNING_DAYS = 30;

export function checkCertificateInputs(news: Partial<CertificateInputs>): {
  inputs: Partial<CertificateInputs>;
  failures: { property: string; reason: string }[];
} {
  const failures: { property: string; reason: string }[] = [];
  const inputs: Partial<CertificateInputs> = { ...news };
  if (!isUnknown(news.orderNo)) {
    if (typeof news.orderNo !== "string" || news.orderNo.trim() === "") {
      failures.push({ property: "orderNo", reason: "orderNo is required: the order number (e.g. order.orderNo)" });
    } else {
      inputs.orderNo = news.orderNo.trim();
    }
  }
  if (news.installmentNo !== undefined && !isUnknown(news.installmentNo)) {
    if (typeof news.installmentNo !== "number" || !Number.isInteger(news.installmentNo) || news.installmentNo < 1) {
      failures.push({ property: "installmentNo", reason: `installmentNo must be a whole number from 1 (the first certificate of the order); got ${JSON.stringify(news.installmentNo)}` });
    }
  }
  if (news.certId !== undefined && !isUnknown(news.certId) && (typeof news.certId !== "string" || news.certId.trim() === "")) {
    failures.push({ property: "certId", reason: "certId must be a non-empty string (the certificate's UUID)" });
  }
  if (news.timeoutMinutes === undefined) {
    inputs.timeoutMinutes = DEFAULT_TIMEOUT_MINUTES;
  } else if (!isUnknown(news.timeoutMinutes)) {
    const t = news.timeoutMinutes;
    if (typeof t !== "number" || !Number.isFinite(t) || t <= 0 || t > MAX_TIMEOUT_MINUTES) {
      failures.push({ property: "timeoutMinutes", reason: `timeoutMinutes must be a number of minutes above 0 and at most ${MAX_TIMEOUT_MINUTES} (7 days); got ${JSON.stringify(t)}` });
    }
  }
  return { inputs, failures };
}
