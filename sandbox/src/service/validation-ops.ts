import { findProductById } from "../catalogue/products.js";
import type { MethodCode } from "../catalogue/types.js";
import { ApiError, badRequest } from "../errors.js";
import { newSignRequestId } from "../util/ids.js";
import { formatDateTime } from "../util/time.js";
import type { OperationRequest, ServiceContext } from "./context.js";
import { oneOf, optionalString, pick } from "./fields.js";
import { currentCert, findOrder, refreshOrder } from "./lifecycle.js";
import { EMAIL_SUFFIXES, makeRecords, renderRecord } from "./records.js";

const CSR_FIELDS = ["csr", "custom_csr", "csr_pem"];

/** ApplySign: submits the current certificate (state 0 or 3) for validation, with fresh records. */
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
    throw badRequest("order_no", `ApplySign is allowed only in cert_status 0 or 3; certificate ${cert.certId} is in cert_status ${cert.status}`);
  }
  const now = ctx.clock.nowMs();
  cert.status = 2;
  cert.requestId = newSignRequestId(new Date(now));
  cert.submittedAt = now;
  cert.records = makeRecords(order, cert.verificationMethod, cert.emailSuffix);
  cert.caStatus = 2;
  cert.caStatusText = "awaiting domain validation";
  ctx.store.markOrder(order);
  return {
    order_no: order.orderNo,
    cert_status: 2,
    request_id: cert.requestId,
    verification_method: cert.verificationMethod,
    records: cert.records.map(renderRecord),
    submitted_at: formatDateTime(now),
  };
}

/** GetRecord: the stored records of the current certificate (none before ApplySign). */
export async function getRecord(ctx: ServiceContext, { account, body }: OperationRequest): Promise<Record<string, unknown>> {
  const order = findOrder(ctx, account, body);
  await refreshOrder(ctx, order);
  const cert = currentCert(order);
  return {
    order_no: order.orderNo,
    cert_status: cert.status,
    verification_method: cert.verificationMethod,
    email_suffix: cert.verificationMethod === "email" ? cert.emailSuffix : null,
    request_id: cert.requestId,
    records: cert.requestId === null ? [] : cert.records.map(renderRecord),
  };
}

/** ChangeVertificationMethod (sic): only while validating, to a supported method, once per cooldown. */
export async function changeVerificationMethod(ctx: ServiceContext, { account, body }: OperationRequest): Promise<Record<string, unknown>> {
  const order = findOrder(ctx, account, body);
  const product = findProductById(order.productId)!;
  const raw = optionalString(body, "method", "verification_method")?.toLowerCase();
  if (raw === undefined || raw === "") throw badRequest("method", "method is required");
  oneOf("method", raw, ["dns", "cname", "file", "https", "email"] as const);
  const method = oneOf("method", raw, product.methods, ` by product ${product.code}`) as MethodCode;
  if ((method === "file" || method === "https") && (order.domain.startsWith("*.") || order.wildcardDomains.length > 0)) {
    throw badRequest("method", `method ${method} cannot validate wildcard names; use dns, cname or email`);
  }
  const suffixRaw = optionalString(body, "email_suffix")?.toLowerCase();
  const emailSuffix = method === "email" ? oneOf("email_suffix", suffixRaw ?? "admin", EMAIL_SUFFIXES) : null;

  await refreshOrder(ctx, order);
  const cert = currentCert(order);
  if (cert.status !== 2) {
    throw badRequest("order_no", `ChangeVertificationMethod is allowed only in cert_status 2; certificate ${cert.certId} is in cert_status ${cert.status}`);
  }
  const now = ctx.clock.nowMs();
  const cooldownMs = ctx.config.methodCooldownSeconds * 1000;
  if (cert.methodChangedAt !== null && now < cert.methodChangedAt + cooldownMs) {
    const retryAfter = Math.ceil((cert.methodChangedAt + cooldownMs - now) / 1000);
    throw new ApiError(429, `the verification method of this certificate changed less than ${ctx.config.methodCooldownSeconds} s ago; retry in ${retryAfter} s`, {
      data: { retry_after: retryAfter, cooldown_seconds: ctx.config.methodCooldownSeconds },
    });
  }
  cert.verificationMethod = method;
  cert.emailSuffix = emailSuffix;
  cert.methodChangedAt = now;
  // New method, new tokens: validation starts over.
  cert.submittedAt = now;
  cert.records = makeRecords(order, method, emailSuffix);
  ctx.store.markOrder(order);
  return {
    order_no: order.orderNo,
    cert_status: 2,
    verification_method: method,
    email_suffix: emailSuffix,
    request_id: cert.requestId,
    records: cert.records.map(renderRecord),
    changed_at: formatDateTime(now),
    next_change_after: formatDateTime(now + cooldownMs),
  };
}
