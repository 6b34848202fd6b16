/**
 * Downloading the targeted certificate, and the state a download gives
 * (verified material and what identifies it).
 */
import type { CertificateDownload } from "../../client/types.js";
import { DEFAULT_TIMEOUT_MINUTES, type CertificateInputs } from "./inputs.js";
import { verifyMaterial } from "./material.js";
import type { CertificateState } from "./state.js";

export { tryDownload } from "../shared/try-download.js";

/** What a message calls the targeted certificate: by id, by installment, or the order's. */
export function describeTarget(inputs: CertificateInputs): string {
  if (inputs.certId) return `certificate ${inputs.certId} of order ${inputs.orderNo}`;
  if (inputs.installmentNo) return `installment ${inputs.installmentNo} of order ${inputs.orderNo}`;
  return `order ${inputs.orderNo}`;
}

/** The stored outputs of a download, and the leaf's serial for the log line (the class reads it from `certificatePem`). */
export function stateFromDownload(inputs: CertificateInputs, download: CertificateDownload): { outs: CertificateState; serialNumber: string } {
  if (inputs.certId && download.certId !== inputs.certId) {
    throw new Error(`order ${inputs.orderNo}: asked for certificate ${inputs.certId} but the service returned ${download.certId}`);
  }
  if (inputs.installmentNo && download.installmentNo !== undefined && download.installmentNo !== inputs.installmentNo) {
    throw new Error(`order ${inputs.orderNo}: asked for installment ${inputs.installmentNo} but the service returned installment ${download.installmentNo}`);
  }
  const c = download.certificate;
  const material = verifyMaterial(
    {
      leafPem: c.certificateLeaf,
      chainPem: c.certificateChain ?? c.crt,
      intermediatePem: c.intermediateCertificate ?? c.caBundle,
      privateKeyPem: c.privateKey ?? c.key,
      csrPem: c.csr,
      fingerprintSha256: download.fingerprintSha256,
      serialNumber: download.serialNumber,
    },
    inputs.orderNo,
  );
  const domains = download.domains && download.domains.length > 0 ? download.domains : material.subjectAltNames;
  // Only what the class cannot recompute: fullChainPem, serialNumber,
  // fingerprintSha256, notBefore and the PKCS#12 pair are derived in the
  // program from these (the engine rewrites every stored byte after each step).
  const outs: CertificateState = {
    orderNo: inputs.orderNo,
    certId: download.certId,
    installmentNo: download.installmentNo ?? inputs.installmentNo ?? 1,
    timeoutMinutes: inputs.timeoutMinutes ?? DEFAULT_TIMEOUT_MINUTES,
    certificatePem: material.certificatePem,
    chainPem: material.chainPem,
    privateKeyPem: material.privateKeyPem,
    // The CSR only when it is the customer's own (no key here): the service's CSR for a key it
    // generated is of no use once the key and certificate are held, and costs ~460 bytes per checkpoint write.
    ...(material.privateKeyPem === "" && material.csrPem !== "" ? { csrPem: material.csrPem } : {}),
    notAfter: material.notAfter,
    ...(download.installmentsCount !== undefined ? { installmentsCount: download.installmentsCount } : {}),
    ...(typeof inputs.requestId === "string" && inputs.requestId !== "" ? { requestId: inputs.requestId } : {}),
    ...(inputs.timeoutOrigin ? { timeoutOrigin: inputs.timeoutOrigin } : {}),
    domains,
  };
  return { outs, serialNumber: material.serialNumber };
}
