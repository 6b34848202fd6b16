import type * as pulumi from "@pulumi/pulumi";
import type { CertificateDownload } from "../../client/types.js";
import { CertStatus } from "../../client/vocabulary.js";
import type { ProviderContext } from "../../provider/context.js";
import { certificateFacts } from "../../pem/inspect.js";
import { toPlainJson } from "../../provider/plain-json.js";
import { knownAccount } from "../order/account.js";
import { isUnknown } from "../../provider/unknown.js";
import { statusGateKey, statusReader } from "../shared/process-status-gate.js";
import { requestIdChanged } from "./diff.js";
import { stateFromDownload, tryDownload } from "./download.js";
import { DEFAULT_TIMEOUT_MINUTES, type CertificateInputs } from "./inputs.js";
import { withoutDerived, type CertificateState } from "./state.js";
import { waitForIssuance, type StatusDeps } from "./wait.js";

/**
 * The certificate itself is kept: only the wait settings (or, on a
 * reissue, the whole certificate) change in place. Either way the outputs
 * written are the slim ones, without what an earlier release also stored.
 */
export async function update(deps: StatusDeps, ctx: ProviderContext, _id: string, olds: CertificateState, news: CertificateInputs): Promise<pulumi.dynamic.UpdateResult<CertificateState>> {
  if (requestIdChanged(olds, news) && olds.requestId !== undefined) {
    // The reissue: wait for the next installment, download and verify it. Any failure
    // is thrown, and the engine keeps the old outputs: the old certificate stays in use.
    let outs: CertificateState;
    try {
      outs = { ...(await obtainReissued(deps, ctx, olds, news)), ...(await knownAccount(ctx, olds)) };
    } catch (error) {
      throw new Error(
        `${(error as Error).message}. The certificate in use (${olds.certId}, serial ${storedSerial(olds)}, valid until ${olds.notAfter}) is kept in state; the next \`pulumi up\` waits again`,
        { cause: error },
      );
    }
    return { outs: toPlainJson(outs) as unknown as CertificateState };
  }
  const { timeoutOrigin: _old, ...kept } = withoutDerived(olds);
  return {
    outs: toPlainJson({
      ...kept,
      timeoutMinutes: news.timeoutMinutes ?? DEFAULT_TIMEOUT_MINUTES,
      ...(news.timeoutOrigin ? { timeoutOrigin: news.timeoutOrigin } : {}),
      // A certificate created before it followed a request id records it (nothing is re-downloaded).
      ...(typeof news.requestId === "string" && news.requestId !== "" && !isUnknown(news.requestId) ? { requestId: news.requestId } : {}),
    }) as unknown as CertificateState,
  };
}

/**
 * The next installment after a reissue: tried by number first (download has
 * no rate limit), else the status is read (through the gate) until a
 * certificate other than the stored one is issued, then downloaded by id.
 */
async function obtainReissued({ clock, gate }: StatusDeps, ctx: ProviderContext, olds: CertificateState, news: CertificateInputs): Promise<CertificateState> {
  const api = ctx.api();
  const log = ctx.log(news.resourceUrn);
  const nextNo = olds.installmentNo + 1;
  const isNew = (d: CertificateDownload | undefined) => d !== undefined && d.certId !== olds.certId;
  const startedAt = clock.now();
  const timeoutMs = (news.timeoutMinutes ?? DEFAULT_TIMEOUT_MINUTES) * 60_000;
  let download: CertificateDownload | undefined;
  if (olds.installmentsCount === undefined || nextNo <= olds.installmentsCount) {
    const attempt = await tryDownload(api, { orderNo: olds.orderNo, installmentNo: nextNo });
    if (isNew(attempt.download)) download = attempt.download;
  }
  if (!download) {
    const status = await waitForIssuance({
      orderNo: olds.orderNo,
      gateKey: statusGateKey(ctx.settings.baseUrl, olds.orderNo),
      gate,
      clock,
      startedAt,
      timeoutMs,
      timeoutOrigin: news.timeoutOrigin,
      readStatus: statusReader(api, olds.orderNo),
      log: (line) => log.info(line),
      isReady: (s) => s.certStatus === CertStatus.Issued && s.certId !== null && s.certId !== olds.certId,
    });
    const attempt = await tryDownload(api, { orderNo: olds.orderNo, certId: status.certId! });
    if (!isNew(attempt.download)) throw new Error(`order ${olds.orderNo}: certificate ${status.certId} is issued but could not be downloaded (${attempt.notYet ?? "the service returned the old one"})`);
    download = attempt.download;
  }
  // The new installment is whichever was downloaded: no certificate id or number to hold it to.
  const { outs, serialNumber } = stateFromDownload({ ...news, orderNo: olds.orderNo, installmentNo: undefined, certId: undefined }, download!);
  log.info(
    `order ${olds.orderNo}: installment ${outs.installmentNo}${outs.installmentsCount ? ` of ${outs.installmentsCount}` : ""} issued (certificate ${outs.certId}, serial ${serialNumber}, valid until ${outs.notAfter}); ` +
      `downloaded and verified, replacing certificate ${olds.certId} (valid until ${olds.notAfter})`,
  );
  return outs;
}

/** The stored leaf's serial for a message, read from the certificate; never fails the caller. */
function storedSerial(olds: CertificateState): string {
  try {
    return certificateFacts(olds.certificatePem).serialNumber;
  } catch {
    return "unknown";
  }
}
