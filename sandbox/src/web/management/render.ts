import { CERT_STATUS_LABELS, ORDER_STATUS_LABELS } from "../../service/certificate-ops.js";
import type { ServiceContext } from "../../service/context.js";
import { currentCert, orderTermEnd } from "../../service/lifecycle.js";
import { renewalOpensAtMs } from "../../catalogue/lifetimes.js";
import { renderPrice } from "../../service/pricing.js";
import type { AccountRecord, OrderRecord } from "../../store/types.js";
import { formatMoney } from "../../util/money.js";
import { formatDateTime } from "../../util/time.js";

/** An account as the management API (and `startSandbox`) reports it, key included: this is the operator's view. */
export function renderAccount(ctx: ServiceContext, a: AccountRecord): Record<string, unknown> {
  return {
    apiKey: ctx.store.apiKeyOf(a),
    appId: a.appId,
    username: a.username,
    status: a.status,
    keyStatus: a.keyStatus,
    balance: formatMoney(a.balance),
    creditLine: formatMoney(a.creditLimit),
    creditUsed: formatMoney(a.creditUsed),
  };
}

/** An order with its account, states, money and certificates — what tests count purchases by. */
export function renderOrder(ctx: ServiceContext, o: OrderRecord): Record<string, unknown> {
  const account = ctx.store.accounts.get(o.accountId)!;
  const cert = currentCert(o);
  return {
    orderNo: o.orderNo,
    username: account.username,
    appId: account.appId,
    productCode: o.productCode,
    domains: [o.domain, ...o.sanDomains, ...o.wildcardDomains],
    months: o.months,
    installmentsCount: o.installmentsCount,
    orderStatus: o.orderStatus,
    orderStatusLabel: ORDER_STATUS_LABELS[o.orderStatus],
    certStatus: cert.status,
    certStatusLabel: CERT_STATUS_LABELS[cert.status],
    paymentMethod: o.paymentMethod,
    companyId: o.companyId,
    company: o.company,
    price: renderPrice(o.price),
    amount: formatMoney(o.price.total),
    paidAt: formatDateTime(o.paidAt),
    termEndsAt: new Date(orderTermEnd(o)).toISOString(),
    refund: o.refund === null ? null : {
      mode: o.refund.mode, status: o.refund.status, to: o.refund.to, amount: formatMoney(o.refund.amount),
      refundOrderNo: o.refund.refundOrderNo,
    },
    certificates: o.certificates.map((c) => ({
      certId: c.certId, installmentNo: c.installmentNo, status: c.status, method: c.verificationMethod,
      requestId: c.requestId, serialNumber: c.issued?.serialNumber ?? null,
      notBefore: c.issued === null ? null : new Date(c.issued.notBefore).toISOString(),
      notAfter: c.issued === null ? null : new Date(c.issued.notAfter).toISOString(),
      // When the next installment can be submitted (the renewal window opens), for an issued certificate.
      renewalOpensAt: c.issued === null ? null
        : new Date(renewalOpensAtMs(c.issued.notBefore, c.issued.notAfter, ctx.config.renewalWindowDays)).toISOString(),
      records: c.records.map((r) => ({
        domain: r.domain, method: r.method, verified: r.verified,
        verifiedAt: r.verifiedAt === undefined ? null : new Date(r.verifiedAt).toISOString(),
      })),
    })),
  };
}
