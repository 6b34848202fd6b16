/** What a Certificate keeps in state, and what earlier releases also kept. */
import type { AccountRecord } from "../order/account.js";
import type { CertificateInputs } from "./inputs.js";
import type { VerifiedMaterial } from "./material.js";

/**
 * What a Certificate keeps in state: the verified material that cannot be
 * recomputed (its `privateKeyPem` is secret through additionalSecretOutputs,
 * and empty when the order used a custom CSR) plus what identifies it. The
 * class computes the rest in the program (see {@link DERIVED_OUTPUTS}).
 * The account the API showed the order to is kept too (not a declared
 * output: evidence for refresh, see `order/account.ts`).
 */
export type CertificateState = Pick<VerifiedMaterial, "certificatePem" | "chainPem" | "privateKeyPem" | "notAfter"> &
  Pick<CertificateInputs, "orderNo" | "timeoutMinutes" | "timeoutOrigin"> & {
  /** Stored for a custom-CSR order only (the customer's CSR); earlier releases also stored the service's. */
  csrPem?: string;
  certId: string;
  installmentNo: number;
  domains: string[];
  /** The Order's request id this certificate was issued for (absent when the program gave none). */
  requestId?: string;
  /** How many certificates the order holds (DownloadCertificate's `installments_count`). */
  installmentsCount?: number;
  accountId?: AccountRecord["accountId"];
  accountEndpoint?: AccountRecord["accountEndpoint"];
};

/**
 * Outputs earlier releases stored and the class now computes in the program
 * (and the `pfxPassword` input it no longer sends). A state written by such a
 * release still holds them: diff ignores them, and the next update leaves
 * them out.
 */
export const DERIVED_OUTPUTS = ["fullChainPem", "serialNumber", "fingerprintSha256", "notBefore", "pfxBase64", "pfxPassword"] as const;

/**
 * Stored outputs less what an earlier release also stored and the class now
 * computes (see DERIVED_OUTPUTS): an update of such a state writes the slim form.
 */
export function withoutDerived(olds: CertificateState): CertificateState {
  const kept: Record<string, unknown> = { ...olds };
  for (const k of DERIVED_OUTPUTS) delete kept[k];
  return kept as CertificateState;
}
