import type * as pulumi from "@pulumi/pulumi";
import type { CertificateStatus, PartnerApi } from "../../client/types.js";
import type { ProviderContext } from "../../provider/context.js";
import { toPlainJson } from "../../provider/plain-json.js";
import { knownAccount } from "../order/account.js";
import { statusGateKey, statusReader } from "../shared/process-status-gate.js";
import { describeTarget, stateFromDownload, tryDownload } from "./download.js";
import { DEFAULT_TIMEOUT_MINUTES, type CertificateInputs } from "./inputs.js";
import { checkPropagation, type PropagationDeps } from "./propagation.js";
import type { CertificateState } from "./state.js";
import { waitForIssuance, type StatusDeps } from "./wait.js";

/** What create needs besides its arguments: the status gate and clock, and how the propagation check reaches the DNS. */
export type CreateDeps = StatusDeps & PropagationDeps;

/**
 * Waits until the targeted certificate is issued (first, for DNS methods,
 * until its validation records are visible: the propagation check), then
 * downloads and verifies it; the id is its certificate id.
 */
export async function create(deps: CreateDeps, ctx: ProviderContext, inputs: CertificateInputs): Promise<pulumi.dynamic.CreateResult<CertificateState>> {
  // The API showed the order to this key at this endpoint: recorded, so a later 404 can be judged as the Order judges it.
  const outs = { ...(await obtain(deps, ctx, inputs)), ...(await knownAccount(ctx)) };
  return { id: outs.certId, outs: toPlainJson(outs) as unknown as CertificateState };
}

/** Downloads the target, waiting for its issuance through the status gate between attempts. */
async function obtain(deps: CreateDeps, ctx: ProviderContext, inputs: CertificateInputs): Promise<CertificateState> {
  const { clock, gate } = deps;
  const api = ctx.api();
  const log = ctx.log();
  const startedAt = clock.now();
  const timeoutMs = (inputs.timeoutMinutes ?? DEFAULT_TIMEOUT_MINUTES) * 60_000;
  let propagationChecked = false;
  for (;;) {
    const attempt = await tryDownload(api, inputs);
    if (attempt.download) {
      const { outs, serialNumber } = stateFromDownload(inputs, attempt.download);
      log.info(`${describeTarget(inputs)}: certificate ${outs.certId} issued (serial ${serialNumber}, valid until ${outs.notAfter}); downloaded and verified`);
      return outs;
    }
    if (!propagationChecked) {
      // Once, before the first status read: an issued certificate needs no records, and a record missing now would only time the wait out.
      propagationChecked = true;
      await checkPropagation(deps, ctx, inputs);
    }
    const status = await waitForIssuance({
      orderNo: inputs.orderNo,
      gateKey: statusGateKey(ctx.settings.baseUrl, inputs.orderNo),
      gate,
      clock,
      startedAt,
      timeoutMs,
      timeoutOrigin: inputs.timeoutOrigin,
      readStatus: statusReader(api, inputs.orderNo),
      log: (line) => log.info(line),
    });
    if (!inputs.certId && !inputs.installmentNo) continue; // issued: the default download now succeeds
    if (inputs.installmentNo && !inputs.certId) await failIfInstallmentCannotCome(api, inputs, status);
    // The status describes the order's current certificate; the target may be another one.
    log.info(`${describeTarget(inputs)}: not available yet (${attempt.notYet}); the order's current certificate ${status.certId ?? ""} is issued, checking again after the next status read`);
    const next = gate.nextAllowedAt(statusGateKey(ctx.settings.baseUrl, inputs.orderNo));
    if (next > startedAt + timeoutMs) {
      const limit = inputs.timeoutOrigin ?? `timeoutMinutes ${inputs.timeoutMinutes ?? DEFAULT_TIMEOUT_MINUTES}`;
      throw new Error(`${describeTarget(inputs)}: not issued within ${limit} (the service says: ${attempt.notYet})`);
    }
  }
}

/**
 * The order's current certificate is issued but the targeted installment is
 * not. Waiting only helps if that installment is already under way; one
 * download of the current certificate says whether it can be (it names its
 * installment and the order's count), so a wrong or far-future target fails
 * now instead of at the timeout.
 */
async function failIfInstallmentCannotCome(api: PartnerApi, inputs: CertificateInputs, status: CertificateStatus): Promise<void> {
  const wanted = inputs.installmentNo!;
  if (!status.certId) return;
  const current = (await tryDownload(api, { orderNo: inputs.orderNo, certId: status.certId })).download;
  if (!current) return;
  const count = current.installmentsCount;
  if (count !== undefined && wanted > count) {
    throw new Error(`${describeTarget(inputs)}: the order holds ${count} certificate${count === 1 ? "" : "s"}; installmentNo must be from 1 to ${count}`);
  }
  if (current.installmentNo !== undefined && wanted > current.installmentNo) {
    throw new Error(
      `${describeTarget(inputs)}: not started yet — the order's current certificate is installment ${current.installmentNo} (issued, valid until ${current.endDate ?? current.validTo ?? "its end date"}). ` +
        "The service starts a later installment near the end of the previous one, and it then needs ApplySign: the Order sends it inside its renewal window " +
        "(renewBeforeDays or renewBeforePercentage), and a Certificate given { order } follows it in place. " +
        "Target the installment once it is issued, or omit installmentNo to take the earliest issued certificate.",
    );
  }
}
