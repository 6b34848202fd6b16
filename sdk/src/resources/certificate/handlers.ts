/**
 * Certificate provider (loaded lazily by the provider text; see
 * provider/provider-text.ts). Path `resources/certificate/handlers.js` is
 * stored in state: keep it.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isPartnerApiError } from "../../client/errors.js";
import type { CertificateDownload, CertificateStatus, PartnerApi } from "../../client/types.js";
import { CertStatus } from "../../client/vocabulary.js";
import type { ProviderContext } from "../../provider/context.js";
import type { ResourceHandlers } from "../../provider/handlers.js";
import { certificateFacts } from "../../pem/inspect.js";
import { toPlainJson } from "../../provider/plain-json.js";
import { isUnknown } from "../../provider/unknown.js";
import { clockTime, systemClock, type Clock } from "./clock.js";
import { daysBetween } from "../../rules/lifetime.js";
import { checkCertificateInputs, DEFAULT_TIMEOUT_MINUTES, DERIVED_OUTPUTS, EXPIRY_WARNING_DAYS, type CertificateInputs, type CertificateOutputs } from "./inputs.js";
import { verifyMaterial } from "./material.js";
import { DEFAULT_COOLDOWN_SECONDS, processStatusGate, statusGateKey, statusReader } from "./process-gate.js";
import type { GatedRead, StatusReadGate } from "./status-gate.js";
import { waitForIssuance } from "./wait.js";

export const resourceType = "Certificate";

function gateKey(ctx: ProviderContext, orderNo: string): string {
  return statusGateKey(ctx.settings.baseUrl, orderNo);
}

/**
 * Downloads the targeted certificate, or `undefined` while it is not issued
 * (the service answers 400 then). Download has no rate limit, so trying it
 * first costs no status read when the certificate is already there.
 */
async function tryDownload(api: PartnerApi, inputs: CertificateInputs): Promise<{ download?: CertificateDownload; notYet?: string }> {
  try {
    const download = await api.downloadCertificate({ orderNo: inputs.orderNo, certId: inputs.certId, installmentNo: inputs.installmentNo });
    return download.certStatus === CertStatus.Issued ? { download } : { notYet: `cert_status ${download.certStatus}` };
  } catch (e) {
    if (isPartnerApiError(e, "invalid_request")) return { notYet: e.message };
    throw e;
  }
}

function target(inputs: CertificateInputs): string {
  if (inputs.certId) return `certificate ${inputs.certId} of order ${inputs.orderNo}`;
  if (inputs.installmentNo) return `installment ${inputs.installmentNo} of order ${inputs.orderNo}`;
  return `order ${inputs.orderNo}`;
}

/** The stored outputs of a download, and the leaf's serial for the log line (the class reads it from `certificatePem`). */
function shapeOutputs(inputs: CertificateInputs, download: CertificateDownload): { outs: CertificateOutputs; serialNumber: string } {
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
  const outs: CertificateOutputs = {
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

/**
 * Stored outputs less what an earlier release also stored and the class now
 * computes (see DERIVED_OUTPUTS): an update of such a state writes the slim form.
 */
function withoutDerived(olds: CertificateOutputs): CertificateOutputs {
  const kept: Record<string, unknown> = { ...olds };
  for (const k of DERIVED_OUTPUTS) delete kept[k];
  return kept as CertificateOutputs;
}

/** The stored leaf's serial for a message, read from the certificate; never fails the caller. */
function storedSerial(olds: CertificateOutputs): string {
  try {
    return certificateFacts(olds.certificatePem).serialNumber;
  } catch {
    return "unknown";
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
    throw new Error(`${target(inputs)}: the order holds ${count} certificate${count === 1 ? "" : "s"}; installmentNo must be from 1 to ${count}`);
  }
  if (current.installmentNo !== undefined && wanted > current.installmentNo) {
    throw new Error(
      `${target(inputs)}: not started yet — the order's current certificate is installment ${current.installmentNo} (issued, valid until ${current.endDate ?? current.validTo ?? "its end date"}). ` +
        "The service starts a later installment near the end of the previous one, and it then needs ApplySign: the Order sends it inside its renewal window " +
        "(renewBeforeDays or renewBeforePercentage), and a Certificate given { order } follows it in place. " +
        "Target the installment once it is issued, or omit installmentNo to take the earliest issued certificate.",
    );
  }
}

/** The Order's request id moved on (or is unknown at preview while the Order updates). */
function requestIdChanged(olds: CertificateOutputs, news: Partial<CertificateInputs>): boolean {
  if (news.requestId === undefined || news.requestId === null || news.requestId === "") return false;
  return isUnknown(news.requestId) || news.requestId !== olds.requestId;
}

/**
 * From the Certificate's own state, no API call: a certificate close to its
 * end with no renewal setting given warns at preview.
 */
function expiryWarning(log: ReturnType<ProviderContext["log"]>, olds: CertificateOutputs, news: Partial<CertificateInputs>, now: Date): void {
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

/** Handlers with an injectable clock and gate (tests); {@link handlers} uses the real ones. */
export function createCertificateHandlers(deps: { clock: Clock; gate: StatusReadGate }): ResourceHandlers<CertificateInputs, CertificateOutputs> {
  const { clock, gate } = deps;

  async function obtain(ctx: ProviderContext, inputs: CertificateInputs): Promise<CertificateOutputs> {
    const api = ctx.api();
    const log = ctx.log();
    const startedAt = clock.now();
    const timeoutMs = (inputs.timeoutMinutes ?? DEFAULT_TIMEOUT_MINUTES) * 60_000;
    for (;;) {
      const attempt = await tryDownload(api, inputs);
      if (attempt.download) {
        const { outs, serialNumber } = shapeOutputs(inputs, attempt.download);
        log.info(`${target(inputs)}: certificate ${outs.certId} issued (serial ${serialNumber}, valid until ${outs.notAfter}); downloaded and verified`);
        return outs;
      }
      const status = await waitForIssuance({
        orderNo: inputs.orderNo,
        gateKey: gateKey(ctx, inputs.orderNo),
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
      log.info(`${target(inputs)}: not available yet (${attempt.notYet}); the order's current certificate ${status.certId ?? ""} is issued, checking again after the next status read`);
      const next = gate.nextAllowedAt(gateKey(ctx, inputs.orderNo));
      if (next > startedAt + timeoutMs) {
        const limit = inputs.timeoutOrigin ?? `timeoutMinutes ${inputs.timeoutMinutes ?? DEFAULT_TIMEOUT_MINUTES}`;
        throw new Error(`${target(inputs)}: not issued within ${limit} (the service says: ${attempt.notYet})`);
      }
    }
  }

  /**
   * The next installment after a reissue: tried by number first (download has
   * no rate limit), else the status is read (through the gate) until a
   * certificate other than the stored one is issued, then downloaded by id.
   */
  async function obtainReissued(ctx: ProviderContext, olds: CertificateOutputs, news: CertificateInputs): Promise<CertificateOutputs> {
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
        gateKey: gateKey(ctx, olds.orderNo),
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
    const { outs, serialNumber } = shapeOutputs({ ...news, orderNo: olds.orderNo, installmentNo: undefined, certId: undefined }, download!);
    log.info(
      `order ${olds.orderNo}: installment ${outs.installmentNo}${outs.installmentsCount ? ` of ${outs.installmentsCount}` : ""} issued (certificate ${outs.certId}, serial ${serialNumber}, valid until ${outs.notAfter}); ` +
        `downloaded and verified, replacing certificate ${olds.certId} (valid until ${olds.notAfter})`,
    );
    return outs;
  }

  return {
    async check(_ctx, _olds, news) {
      const { inputs, failures } = checkCertificateInputs(news);
      return { inputs: inputs as CertificateInputs, failures };
    },

    async diff(ctx, _id, olds, news): Promise<pulumi.dynamic.DiffResult> {
      const replaces: string[] = [];
      if (isUnknown(news.orderNo) || news.orderNo !== olds.orderNo) replaces.push("orderNo");
      // Outputs hold the certificate actually downloaded; an unset target follows it.
      if (news.installmentNo !== undefined && (isUnknown(news.installmentNo) || news.installmentNo !== olds.installmentNo)) replaces.push("installmentNo");
      if (news.certId !== undefined && (isUnknown(news.certId) || news.certId !== olds.certId)) replaces.push("certId");
      const timeoutChanged = (news.timeoutMinutes ?? DEFAULT_TIMEOUT_MINUTES) !== olds.timeoutMinutes;
      // Nothing else is compared. In particular an earlier release's stored
      // copies of the derived outputs (pfxBase64, fullChainPem, ...; see
      // DERIVED_OUTPUTS) and its pfxPassword input, which the class no longer
      // sends, are no change: upgrading updates nothing, and the next real
      // update writes the slim outputs.
      // The Order submitted the next installment (a new request id): update in place; the old certificate stays until the new one is verified.
      const reissued = requestIdChanged(olds, news);
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
      return { changes: replaces.length > 0 || timeoutChanged || reissued, replaces, deleteBeforeReplace: false };
    },

    async create(ctx, inputs) {
      const outs = await obtain(ctx, inputs);
      return { id: outs.certId, outs: toPlainJson(outs) as unknown as CertificateOutputs };
    },

    // The certificate itself is kept: only the wait settings (or, on a
    // reissue, the whole certificate) change in place. Either way the outputs
    // written are the slim ones, without what an earlier release also stored.
    async update(ctx, _id, olds, news) {
      if (requestIdChanged(olds, news) && olds.requestId !== undefined) {
        // The reissue: wait for the next installment, download and verify it. Any failure
        // is thrown, and the engine keeps the old outputs: the old certificate stays in use.
        let outs: CertificateOutputs;
        try {
          outs = await obtainReissued(ctx, olds, news);
        } catch (error) {
          throw new Error(
            `${(error as Error).message}. The certificate in use (${olds.certId}, serial ${storedSerial(olds)}, valid until ${olds.notAfter}) is kept in state; the next \`pulumi up\` waits again`,
            { cause: error },
          );
        }
        return { outs: toPlainJson(outs) as unknown as CertificateOutputs };
      }
      const { timeoutOrigin: _old, ...kept } = withoutDerived(olds);
      return {
        outs: toPlainJson({
          ...kept,
          timeoutMinutes: news.timeoutMinutes ?? DEFAULT_TIMEOUT_MINUTES,
          ...(news.timeoutOrigin ? { timeoutOrigin: news.timeoutOrigin } : {}),
          // A certificate created before it followed a request id records it (nothing is re-downloaded).
          ...(typeof news.requestId === "string" && news.requestId !== "" && !isUnknown(news.requestId) ? { requestId: news.requestId } : {}),
        }) as unknown as CertificateOutputs,
      };
    },

    /**
     * Refresh reads the status only when the service would answer; under the
     * cooldown (or a refusal) the stored certificate is kept with a warning,
     * because failing a refresh over a rate limit helps nobody.
     */
    async read(ctx, id, props) {
      const log = ctx.log();
      const key = gateKey(ctx, props.orderNo);
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
    },

    // Nothing to undo: the order (and its refund) belongs to the Order resource.
    async delete() {},
  };
}

export const handlers = createCertificateHandlers({ clock: systemClock, gate: processStatusGate });
