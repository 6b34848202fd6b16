import { isPartnerApiError } from "../../client/errors.js";
import type { CertificateDownload, DownloadCertificateRequest, PartnerApi } from "../../client/types.js";
import { CertStatus } from "../../client/vocabulary.js";

/**
 * Downloads the targeted certificate, or `undefined` while it is not issued
 * (the service answers 400 then). Download has no rate limit, so trying it
 * first costs no status read when the certificate is already there.
 */
export async function tryDownload(
  api: PartnerApi,
  target: { orderNo: string; certId?: string; installmentNo?: number },
): Promise<{ download?: CertificateDownload; notYet?: string }> {
  try {
    const request: DownloadCertificateRequest = { orderNo: target.orderNo, certId: target.certId, installmentNo: target.installmentNo };
    const download = await api.downloadCertificate(request);
    return download.certStatus === CertStatus.Issued ? { download } : { notYet: `cert_status ${download.certStatus}` };
  } catch (e) {
    if (isPartnerApiError(e, "invalid_request")) return { notYet: e.message };
    throw e;
  }
}
