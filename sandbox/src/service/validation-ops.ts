import { findProductById } from "../catalogue/products.js";
import { badRequest, tooManyRequests } from "../errors.js";
import type { CertificateRecord, OrderRecord } from "../store/types.js";
import { newSignRequestId } from "../util/ids.js";
import { formatIsoWithOffset } from "../util/time.js";
import type { OperationRequest, ServiceContext } from "./context.js";
import { pick } from "./fields.js";
import { formatDateTime } from "../util/time.js";
import { currentCert, findOrder, nextInstallmentBlock, orderTermEnd, refreshOrder, reuseEarlierValidation } from "./lifecycle.js";
import { makeRecords, readMethod, renderRecords } from "./records.js";

/** A CSR belongs in CreateOrder's custom_csr; ApplySign refuses one (reference, ApplySign). */
const CSR_FIELDS = ["csr", "custom_csr"];

/** Spec 4.4 / 4.5 data: the same seven fields for ApplySign and the method change. */
function submission(order: OrderRecord, cert: CertificateRecord): Record<string, unknown> {
  return {
    order_no: order.orderNo,
    cert_status: cert.status,
    verification_method: cert.verificationMethod,
    ...renderRecords(cert.records, { hint: false }),
    request_id: cert.requestId,
  };
}

/**
 * ApplySign: submits the current certificate (state 0 or 3) for validation,
 * with fresh records — for a later installment, names validated within the
 * reuse period keep their verified record. An issued certificate whose
 * renewal window has not opened, or that ends the term, is refused.
 */
export async function applySign(ctx: ServiceContext, { account, body }: OperationRequest): Promise<Record<string, unknown>> {
  const order = findOrder(ctx, account, body);
  const csr = pick(body, ...CSR_FIELDS);
  if (csr !== undefined) {
    throw badRequest(csr.name, `${csr.name} must not be sent to ApplySign; a custom CSR belongs in CreateOrder's custom_csr`);
  }
  await refreshOrder(ctx, order);
  const cert = currentCert(order);
  if (order.orderStatus === 3 || order.orderStatus === 4 || order.refund !== null) {
    throw badRequest("order_no", `order ${order.orderNo} is cancelled or being refunded; ApplySign is not allowed`);
  }
  if (cert.status !== 0 && cert.status !== 3) {
    const block = nextInstallmentBlock(ctx, order, cert);
    throw badRequest("order_no", `ApplySign is allowed only in cert_status 0 or 3; certificate ${cert.certId} is in cert_status ${cert.status}${block === undefined ? "" : `: ${block}`}`);
  }
  const now = ctx.clock.nowMs();
  const termEnd = orderTermEnd(order);
  if (now >= termEnd) {
    throw badRequest("order_no", `the term of order ${order.orderNo} ended ${formatDateTime(termEnd)}; nothing more can be submitted`);
  }
  cert.status = 2;
  cert.requestId = newSignRequestId(new Date(now));
  cert.submittedAt = now;
  cert.records = reuseEarlierValidation(order, cert, makeRecords(order, cert.verificationMethod), now);
  cert.caStatus = 2;
  cert.caStatusText = "awaiting domain validation";
  ctx.store.markOrder(order);
  return submission(order, cert);
}

/** GetRecord (spec 4.6): the stored records of the current certificate (none before ApplySign), with hints. */
export async function getRecord(ctx: ServiceContext, { account, body }: OperationRequest): Promise<Record<string, unknown>> {
  const order = findOrder(ctx, account, body);
  await refreshOrder(ctx, order);
  const cert = currentCert(order);
  const all = [order.domain, ...order.sanDomains, ...order.wildcardDomains];
  return {
    order_no: order.orderNo,
    cert_status: cert.status,
    verification_method: cert.verificationMethod,
    main_domain: order.domain,
    sans_domains: order.sanDomains,
    wildcard_domains: order.wildcardDomains,
    all_domains: all,
    all_domains_count: all.length,
    ...renderRecords(cert.requestId === null ? [] : cert.records, { hint: true }),
    fetched_at: formatIsoWithOffset(ctx.clock.nowMs()),
  };
}

/** ChangeVertificationMethod (sic, spec 4.5): only while validating, to a supported method, once per cooldown. */
export async function changeVerificationMethod(ctx: ServiceContext, { account, body }: OperationRequest): Promise<Record<string, unknown>> {
  const order = findOrder(ctx, account, body);
  const product = findProductById(order.productId)!;
  const method = readMethod(body, "method", product);
  if (method === undefined) throw badRequest("method", "method is required");
  if (method === "file" && (order.domain.startsWith("*.") || order.wildcardDomains.length > 0)) {
    throw badRequest("method", "method file cannot validate wildcard names; use dns, cname or an e-mail method");
  }

  await refreshOrder(ctx, order);
  const cert = currentCert(order);
  if (cert.status !== 2) {
    throw badRequest("order_no", `ChangeVertificationMethod is allowed only in cert_status 2; certificate ${cert.certId} is in cert_status ${cert.status}`);
  }
  const now = ctx.clock.nowMs();
  const cooldownMs = ctx.config.methodCooldownSeconds * 1000;
  if (cert.methodChangedAt !== null && now < cert.methodChangedAt + cooldownMs) {
    const retryAfter = Math.ceil((cert.methodChangedAt + cooldownMs - now) / 1000);
    throw tooManyRequests(`the verification method of this certificate changed less than ${ctx.config.methodCooldownSeconds} s ago; retry in ${retryAfter} s`, { retry_after: retryAfter });
  }
  cert.verificationMethod = method;
  cert.methodChangedAt = now;
  // New method, new tokens: validation starts over.
  cert.submittedAt = now;
  cert.records = makeRecords(order, method);
  ctx.store.markOrder(order);
  return submission(order, cert);
}
