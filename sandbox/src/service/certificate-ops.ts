import { findProductById } from "../catalogue/products.js";
import { badRequest, notFound, tooManyRequests } from "../errors.js";
import type { CertificateRecord } from "../store/types.js";
import { formatDate, formatDateTime, formatIsoWithOffset } from "../util/time.js";
import type { OperationRequest, ServiceContext } from "./context.js";
import { optionalInt, optionalString } from "./fields.js";
import { currentCert, findOrder, refreshOrder } from "./lifecycle.js";

export const ORDER_STATUS_LABELS = ["unpaid", "processing", "completed", "cancelled", "refunded"] as const;
export const CERT_STATUS_LABELS = [
  "awaiting submission", "issued", "issuing", "issuance failed", "revoking", "revoked/refunded", "refund in progress",
] as const;

/**
 * GetCertificateStatus (reference: order status): one read per order per
 * account per cooldown; a submitted certificate is "asked upstream".
 */
export async function getCertificateStatus(ctx: ServiceContext, { account, body }: OperationRequest): Promise<Record<string, unknown>> {
  const order = findOrder(ctx, account, body);
  const now = ctx.clock.nowMs();
  const cooldown = ctx.config.statusCooldownSeconds;
  const key = `${account.id}:${order.orderNo}`;
  const last = ctx.store.statusReads.get(key);
  if (last !== undefined && now < last + cooldown * 1000) {
    const retryAfter = Math.ceil((last + cooldown * 1000 - now) / 1000);
    throw tooManyRequests(`status of ${order.orderNo} was read less than ${cooldown} s ago; retry in ${retryAfter} s`, { retry_after: retryAfter, cooldown_seconds: cooldown });
  }
  ctx.store.statusReads.set(key, now);
  const askedUpstream = currentCert(order).status === 2;
  await refreshOrder(ctx, order, { askUpstream: true });
  ctx.store.markOrder(order);
  const cert = currentCert(order);
  return {
    order_no: order.orderNo,
    order_status: order.orderStatus,
    order_status_label: ORDER_STATUS_LABELS[order.orderStatus],
    cert_id: cert.certId,
    cert_status: cert.status,
    cert_status_label: CERT_STATUS_LABELS[cert.status],
    ca_status: cert.caStatus,
    ca_status_text: cert.caStatusText,
    all_dcv_verified: cert.records.length > 0 && cert.records.every((r) => r.verified),
    domain_statuses: cert.records.map((r) => ({ domain: r.domain, method: r.method, verified: r.verified })),
    serial_number: cert.issued?.serialNumber ?? null,
    start_date: cert.issued === null ? null : formatDateTime(cert.issued.notBefore),
    end_date: cert.issued === null ? null : formatDateTime(cert.issued.notAfter),
    request_id: cert.requestId,
    cert_downloaded: cert.downloaded,
    source: askedUpstream ? "ca" : "local",
    checked_at: formatIsoWithOffset(now),
    cooldown_seconds: cooldown,
  };
}

function chooseCertificate(certs: CertificateRecord[], certId: string | undefined, installmentNo: number | undefined, count: number): CertificateRecord {
  if (certId !== undefined) {
    const c = certs.find((x) => x.certId === certId);
    if (c === undefined) throw notFound("cert_id", `cert_id ${JSON.stringify(certId)}: no such certificate in this order`);
    return c;
  }
  if (installmentNo !== undefined) {
    if (installmentNo < 1 || installmentNo > count) {
      throw badRequest("installment_no", `installment_no must be from 1 to ${count}, got ${installmentNo}`);
    }
    const c = certs.find((x) => x.installmentNo === installmentNo);
    if (c === undefined) throw badRequest("installment_no", `installment ${installmentNo} has not been started yet; cert_status 0`);
    return c;
  }
  return certs.find((x) => x.status === 1) ?? certs[certs.length - 1]!;
}

/** DownloadCertificate: the material of an issued certificate (default the earliest issued). */
export async function downloadCertificate(ctx: ServiceContext, { account, body }: OperationRequest): Promise<Record<string, unknown>> {
  const order = findOrder(ctx, account, body);
  await refreshOrder(ctx, order);
  const cert = chooseCertificate(
    order.certificates, optionalString(body, "cert_id", "certificate_id"), optionalInt(body, "installment_no"), order.installmentsCount,
  );
  if (cert.status !== 1 || cert.issued === null) {
    throw badRequest("order_no", `certificate ${cert.certId} is not issued (cert_status ${cert.status}); download is possible only in cert_status 1`);
  }
  const product = findProductById(order.productId)!;
  const i = cert.issued;
  const privateKey = ctx.store.box.open(i.privateKeySealed);
  const now = ctx.clock.nowMs();
  cert.downloaded = true;
  ctx.store.markOrder(order);
  return {
    order_no: order.orderNo,
    order_status: order.orderStatus,
    cert_id: cert.certId,
    cert_status: cert.status,
    installment_no: cert.installmentNo,
    installments_count: order.installmentsCount,
    product_name: product.name,
    brand_name: product.brand.name,
    main_domain: order.domain,
    sans_domains: order.sanDomains,
    wildcard_domains: order.wildcardDomains,
    domains: [order.domain, ...order.sanDomains, ...order.wildcardDomains],
    years: Math.ceil(order.months / 12),
    signature_algorithm: order.signatureAlgorithm,
    hash_algorithm: order.hashAlgorithm,
    key_spec: order.keySpec,
    verification_method: cert.verificationMethod,
    serial_number: i.serialNumber,
    fingerprint_sha256: i.fingerprintSha256,
    issued_at: formatDateTime(i.issuedAt),
    start_date: formatDateTime(i.notBefore),
    end_date: formatDateTime(i.notAfter),
    valid_from: formatDate(i.notBefore),
    valid_to: formatDate(i.notAfter),
    certificate: {
      certificate_chain: i.chainPem,
      certificate_leaf: i.leafPem,
      intermediate_certificate: i.intermediatePem,
      private_key: privateKey,
      csr: i.csrPem,
      crt: i.chainPem,
      key: privateKey,
      ca_bundle: i.intermediatePem,
    },
    has_certificate: true,
    has_private_key: privateKey !== "",
    downloaded_at: formatDateTime(now),
  };
}
