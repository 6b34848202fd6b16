import { certificateNotAfter, renewalOpensAtMs, reuseMsOn, termEndMs } from "../catalogue/lifetimes.js";
import { findProductById } from "../catalogue/products.js";
import { badRequest, internalError, notFound } from "../errors.js";
import type { AccountRecord, CertificateRecord, OrderRecord, ValidationRecord } from "../store/types.js";
import { newCertId } from "../util/ids.js";
import { formatDateTime } from "../util/time.js";
import { publishedDnsRecords, type RecordChecker, type ServiceContext } from "./context.js";
import type { Body } from "./fields.js";
import { optionalString } from "./fields.js";
import { fileLink, isPublished } from "./records.js";
import { isIP } from "node:net";
import { nonPublicIpReason } from "./names.js";

export function findOrder(ctx: ServiceContext, account: AccountRecord, body: Body): OrderRecord {
  const orderNo = optionalString(body, "order_no", "order_number");
  if (orderNo === undefined || orderNo === "") throw badRequest("order_no", "order_no is required");
  const order = ctx.store.orders.get(orderNo);
  // Another account's order is indistinguishable from a missing one.
  if (order === undefined || order.accountId !== account.id) {
    throw notFound("order_no", `order_no ${JSON.stringify(orderNo)}: no such order for this account`);
  }
  return order;
}

export function currentCert(order: OrderRecord): CertificateRecord {
  return order.certificates[order.certificates.length - 1]!;
}

/**
 * Brings an order up to date with the sandbox clock: starts the next
 * installment when due, evaluates validation of a submitted certificate and
 * issues it once every name is validated. Reads call this, so advancing the
 * clock takes effect on the next read. Real (network) checks run only when
 * `askUpstream` is set — the status read, the one operation that asks the CA;
 * GetRecord and the others read stored state, as the service does.
 */
export async function refreshOrder(ctx: ServiceContext, order: OrderRecord, opts: { askUpstream?: boolean } = {}): Promise<void> {
  startDueInstallment(ctx, order);
  const cert = currentCert(order);
  if (cert.status !== 2) return;
  const validated = await evaluateValidation(ctx, order, cert, opts.askUpstream ?? false);
  // Real checks await the network: the certificate may have been cancelled or failed meanwhile.
  if (validated && cert.status === 2 && currentCert(order) === cert) await issueCertificate(ctx, order, cert);
}

/** The end of the order's term: `months` after payment. No certificate reaches past it. */
export function orderTermEnd(order: OrderRecord): number {
  return termEndMs(order.paidAt, order.months);
}

/** Why nothing further can be submitted for an issued certificate, or when it can; undefined once it can. */
export function nextInstallmentBlock(ctx: ServiceContext, order: OrderRecord, cert: CertificateRecord): string | undefined {
  if (cert.status !== 1 || cert.issued === null) return undefined;
  const end = orderTermEnd(order);
  const where = `installment ${cert.installmentNo} of ${order.installmentsCount} (valid to ${formatDateTime(cert.issued.notAfter)})`;
  if (cert.issued.notAfter >= end || ctx.clock.nowMs() >= end) {
    return `${where} is the order's last certificate: the term ends ${formatDateTime(end)}; nothing more to submit`;
  }
  const opens = renewalOpensAtMs(cert.issued.notBefore, cert.issued.notAfter, ctx.config.renewalWindowDays);
  return `${where} is issued; the next installment can be submitted from ${formatDateTime(opens)}, ${ctx.config.renewalWindowDays} days before it expires`;
}

/**
 * Starts the next installment once the clock is inside the current one's
 * renewal window: a new certificate in cert_status 0 becomes the order's
 * current one (the previous stays downloadable). Not when the current
 * certificate already reaches the term's end, nor past the term, nor for a
 * cancelled or refunded order. `installments_count` grows when the order
 * needs more certificates than counted at purchase.
 */
function startDueInstallment(ctx: ServiceContext, order: OrderRecord): void {
  const cert = currentCert(order);
  if (cert.status !== 1 || cert.issued === null) return;
  if (order.orderStatus === 3 || order.orderStatus === 4 || order.refund !== null) return;
  const now = ctx.clock.nowMs();
  const end = orderTermEnd(order);
  if (cert.issued.notAfter >= end || now >= end) return;
  if (now < renewalOpensAtMs(cert.issued.notBefore, cert.issued.notAfter, ctx.config.renewalWindowDays)) return;
  order.certificates.push({
    certId: newCertId(), installmentNo: cert.installmentNo + 1, status: 0, requestId: null, submittedAt: null,
    methodChangedAt: null, verificationMethod: cert.verificationMethod, records: [],
    caStatus: null, caStatusText: null, issued: null, downloaded: false,
  });
  order.installmentsCount = Math.max(order.installmentsCount, cert.installmentNo + 1);
  order.orderStatus = 1;
  ctx.store.markOrder(order);
}

/**
 * Validation reuse for a later installment: a name whose domain was validated
 * for an earlier installment within the reuse period (the CA/B limit on the
 * submission date) keeps that record, verified, token unchanged; every other
 * name gets the fresh record. The first installment never reuses.
 */
export function reuseEarlierValidation(order: OrderRecord, cert: CertificateRecord, fresh: ValidationRecord[], nowMs: number): ValidationRecord[] {
  if (cert.installmentNo === 1) return fresh;
  const reuseMs = reuseMsOn(nowMs);
  return fresh.map((rec) => {
    let best: { rec: ValidationRecord; at: number } | undefined;
    for (const c of order.certificates) {
      if (c.installmentNo >= cert.installmentNo) continue;
      for (const r of c.records) {
        const at = validatedAt(c, r);
        if (r.domain !== rec.domain || r.type !== rec.type || at === undefined) continue;
        if (best === undefined || at > best.at) best = { rec: r, at };
      }
    }
    return best !== undefined && nowMs - best.at <= reuseMs ? { ...best.rec, verified: true, verifiedAt: best.at } : rec;
  });
}

/** When a record was validated; records stored before `verifiedAt` existed count from their certificate's issuance. */
function validatedAt(cert: CertificateRecord, rec: ValidationRecord): number | undefined {
  if (!rec.verified) return undefined;
  return rec.verifiedAt ?? cert.issued?.issuedAt ?? cert.submittedAt ?? undefined;
}

/** Marks what has been validated; true when every record is. */
async function evaluateValidation(ctx: ServiceContext, order: OrderRecord, cert: CertificateRecord, askUpstream: boolean): Promise<boolean> {
  const { validation, issueAfterSeconds } = ctx.config;
  const timerDone = cert.submittedAt !== null && ctx.clock.nowMs() >= cert.submittedAt + issueAfterSeconds * 1000;
  const checkOne = async (rec: (typeof cert.records)[number]): Promise<boolean> => {
    // E-mail approval has nothing to publish: the approver "clicks" once the auto timer has run.
    if (validation === "auto" || rec.kind === "email") return timerDone;
    if (validation === "published") return isPublished(rec, publishedDnsRecords(ctx), ctx.store.files);
    if (!askUpstream) return false;
    if (ctx.realValidator === undefined) throw internalError("validation mode real has no validator configured");
    const res = await ctx.realValidator.check(toCheck(rec));
    if (!res.verified) cert.caStatusText = `${rec.domain}: ${res.detail}`;
    return res.verified;
  };
  const pending = cert.records.filter((r) => !r.verified);
  // Real checks go over the network: look at every name at once, not one after another.
  const results = await Promise.all(pending.map(checkOne));
  let changed = false;
  const now = ctx.clock.nowMs();
  pending.forEach((rec, i) => {
    if (results[i]) {
      rec.verified = true;
      rec.verifiedAt = now;
      changed = true;
    }
  });
  if (changed) ctx.store.markOrder(order);
  return cert.records.length > 0 && cert.records.every((r) => r.verified);
}

/** A stored record as the real validator looks at it. */
function toCheck(rec: ValidationRecord): Parameters<RecordChecker["check"]>[0] {
  const common = { domain: rec.domain, label: rec.label };
  switch (rec.kind) {
    case "txt":
      return { ...common, method: "dns", recordType: "TXT", value: rec.value! };
    case "cname":
      return { ...common, method: "cname", recordType: "CNAME", value: rec.value! };
    case "file":
      return { ...common, method: "file", recordType: null, link: `http:${fileLink(rec)}`, content: rec.content! };
    case "email":
      return { ...common, method: "email", recordType: null };
  }
}

const inflight = new Map<string, Promise<void>>();

/**
 * Issues the certificate from the CA. Concurrent reads share one issuance;
 * a certificate cancelled meanwhile keeps its new state and the result is dropped.
 */
export function issueCertificate(ctx: ServiceContext, order: OrderRecord, cert: CertificateRecord): Promise<void> {
  const running = inflight.get(cert.certId);
  if (running !== undefined) return running;
  const statusAtStart = cert.status;
  const job = (async () => {
    const product = findProductById(order.productId)!;
    const notBefore = ctx.clock.now();
    const termEnd = orderTermEnd(order);
    try {
      // Validation that completes after the term has ended issues nothing: the order bought no later coverage.
      if (notBefore.getTime() >= termEnd) throw new Error(`the order's term ended ${formatDateTime(termEnd)} before validation completed`);
      // A public CA certifies no special-purpose address; the order was paid all the same.
      for (const name of [order.domain, ...order.sanDomains]) {
        const reason = isIP(name) === 0 ? undefined : nonPublicIpReason(name);
        if (reason !== undefined) throw new Error(`the CA does not certify ${name}: it is ${reason}`);
      }
      const issued = await ctx.ca.issue({
        names: [order.domain, ...order.sanDomains, ...order.wildcardDomains],
        keySpec: order.keySpec,
        hashAlgorithm: order.hashAlgorithm,
        ...(order.customCsr === null ? {} : { csrPem: order.customCsr }),
        notBefore,
        notAfter: new Date(certificateNotAfter(notBefore.getTime(), product.brand.maxMonthsPerCertificate, termEnd)),
        ...(order.company === null ? {} : { organization: order.company.company_name, country: order.company.country_code }),
      });
      if (cert.status !== statusAtStart) return;
      cert.issued = {
        leafPem: issued.leafPem,
        intermediatePem: issued.intermediatePem,
        chainPem: issued.chainPem,
        privateKeySealed: ctx.store.box.seal(issued.privateKeyPem),
        csrPem: issued.csrPem,
        serialNumber: issued.serialNumber,
        fingerprintSha256: issued.fingerprintSha256,
        notBefore: issued.notBefore.getTime(),
        notAfter: issued.notAfter.getTime(),
        issuedAt: ctx.clock.nowMs(),
      };
      for (const r of cert.records) {
        r.verifiedAt ??= ctx.clock.nowMs();
        r.verified = true;
      }
      cert.status = 1;
      cert.caStatus = 1;
      cert.caStatusText = "issued";
      if (order.orderStatus === 1) order.orderStatus = 2;
    } catch (err) {
      if (cert.status !== statusAtStart) return;
      cert.status = 3;
      cert.caStatus = 3;
      cert.caStatusText = `issuance failed: ${(err as Error).message}`;
    } finally {
      ctx.store.markOrder(order);
    }
  })().finally(() => inflight.delete(cert.certId));
  inflight.set(cert.certId, job);
  return job;
}
