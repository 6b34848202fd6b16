import type { IncomingMessage, ServerResponse } from "node:http";
import type { CertificateAuthority } from "../ca/index.js";
import type { FaultRegistry } from "../faults/faults.js";
import { refund } from "../service/cancel-order.js";
import { CERT_STATUS_LABELS, ORDER_STATUS_LABELS } from "../service/certificate-ops.js";
import type { RuntimeConfig, ServiceContext } from "../service/context.js";
import { renderPrice } from "../service/create-order.js";
import { currentCert, issueCertificate, refreshOrder } from "../service/lifecycle.js";
import { makeRecords } from "../service/records.js";
import type { AccountRecord, OrderRecord } from "../store/types.js";
import { newSignRequestId } from "../util/ids.js";
import { formatMoney, parseMoney } from "../util/money.js";
import { formatDateTime } from "../util/time.js";
import { readRaw } from "./body.js";
import { sendJson } from "./envelope.js";
import type { RequestLog } from "./request-log.js";

export interface ManagementDeps {
  ctx: ServiceContext;
  faults: FaultRegistry;
  log: RequestLog;
  ca: CertificateAuthority;
}

class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readRaw(req);
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new HttpError(400, `body is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new HttpError(400, "body must be a JSON object");
  return parsed as Record<string, unknown>;
}

function money(body: Record<string, unknown>, field: string, dflt: number): number {
  if (body[field] === undefined) return dflt;
  const cents = parseMoney(body[field]);
  if (cents === undefined) throw new HttpError(400, `${field} must be a non-negative amount with at most two decimals`);
  return cents;
}

function str(body: Record<string, unknown>, field: string): string {
  const v = body[field];
  if (typeof v !== "string" || v.trim() === "") throw new HttpError(400, `${field} is required (a non-empty string)`);
  return v.trim();
}

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

function renderOrder(ctx: ServiceContext, o: OrderRecord): Record<string, unknown> {
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
    price: renderPrice(o.price),
    amount: formatMoney(o.price.total),
    paidAt: formatDateTime(o.paidAt),
    refund: o.refund === null ? null : {
      mode: o.refund.mode, status: o.refund.status, to: o.refund.to, amount: formatMoney(o.refund.amount),
      refundOrderNo: o.refund.refundOrderNo,
    },
    certificates: o.certificates.map((c) => ({
      certId: c.certId, installmentNo: c.installmentNo, status: c.status, method: c.verificationMethod,
      requestId: c.requestId, serialNumber: c.issued?.serialNumber ?? null,
      records: c.records.map((r) => ({ domain: r.domain, method: r.method, verified: r.verified })),
    })),
  };
}

const CONFIG_KEYS: Array<keyof RuntimeConfig> = [
  "validation", "issueAfterSeconds", "statusCooldownSeconds", "methodCooldownSeconds", "refundWindowDays", "mirrorStatus", "upstreamCancelFails",
];

/** Validates a partial runtime configuration; throws naming the bad key. */
export function parseConfigPatch(body: Record<string, unknown>, realAvailable: boolean): Partial<RuntimeConfig> {
  const out: Partial<RuntimeConfig> = {};
  for (const [k, v] of Object.entries(body)) {
    if (!(CONFIG_KEYS as string[]).includes(k)) throw new HttpError(400, `${k} is not a runtime setting; settings: ${CONFIG_KEYS.join(", ")}`);
    if (k === "validation") {
      if (v !== "auto" && v !== "published" && v !== "real") throw new HttpError(400, "validation must be auto, published or real");
      if (v === "real" && !realAvailable) throw new HttpError(400, "validation real needs the real validator, which this sandbox was started without");
      out.validation = v;
    } else if (k === "mirrorStatus" || k === "upstreamCancelFails") {
      if (typeof v !== "boolean") throw new HttpError(400, `${k} must be a boolean`);
      out[k] = v;
    } else {
      if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw new HttpError(400, `${k} must be a non-negative number`);
      (out as Record<string, unknown>)[k] = v;
    }
  }
  return out;
}

/** Serves the management API under `/management` (JSON in and out, plain HTTP statuses). */
export async function handleManagement(deps: ManagementDeps, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  try {
    await route(deps, req, res, path);
  } catch (err) {
    if (err instanceof HttpError) return sendJson(res, err.status, { error: err.message });
    if (err instanceof TypeError) return sendJson(res, 400, { error: err.message });
    sendJson(res, 500, { error: (err as Error).message });
  }
}

async function route(deps: ManagementDeps, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const { ctx, faults, log, ca } = deps;
  const { store, clock } = ctx;
  const method = req.method ?? "GET";
  // Answer only once the change is on disk (no-op in memory).
  const ok = async (body: unknown, status = 200): Promise<void> => {
    await store.flush();
    sendJson(res, status, body);
  };
  const seg = path.split("/").filter(Boolean).map(decodeURIComponent);
  const is = (m: string, ...parts: Array<string | null>): boolean =>
    m === method && parts.length === seg.length && parts.every((p, i) => p === null || p === seg[i]);

  if (is("GET", "health")) return ok({ ok: true });

  if (is("GET", "accounts")) return ok([...store.accounts.values()].map((a) => renderAccount(ctx, a)));
  if (is("POST", "accounts")) {
    const body = await jsonBody(req);
    const username = str(body, "username");
    if (store.findAccountByUsername(username) !== undefined) throw new HttpError(409, `username ${username} already exists`);
    const a = store.createAccount({
      username, balance: money(body, "balance", 0), creditLimit: money(body, "creditLine", 0), now: clock.nowMs(),
      ...(typeof body.email === "string" ? { email: body.email } : {}),
    });
    return ok(renderAccount(ctx, a), 201);
  }
  if (seg[0] === "accounts" && seg.length >= 2) {
    const a = store.findAccountByUsername(seg[1]!);
    if (a === undefined) throw new HttpError(404, `no account ${seg[1]}`);
    if (is("GET", "accounts", null)) return ok(renderAccount(ctx, a));
    if (is("POST", "accounts", null, "topup")) {
      const body = await jsonBody(req);
      a.balance += money(body, "amount", 0);
      a.creditLimit = money(body, "creditLine", a.creditLimit);
      store.markMeta();
      return ok(renderAccount(ctx, a));
    }
    if (is("PATCH", "accounts", null)) {
      const body = await jsonBody(req);
      if (body.status !== undefined) {
        if (![0, 1, 2, 3].includes(body.status as number)) throw new HttpError(400, "status must be 0 (banned), 1, 2 or 3");
        a.status = body.status as AccountRecord["status"];
      }
      if (body.keyStatus !== undefined) {
        if (body.keyStatus !== 0 && body.keyStatus !== 1) throw new HttpError(400, "keyStatus must be 0 (disabled) or 1");
        a.keyStatus = body.keyStatus;
      }
      if (body.keyExpiresAt !== undefined) {
        if (body.keyExpiresAt !== null && (typeof body.keyExpiresAt !== "string" || Number.isNaN(Date.parse(body.keyExpiresAt)))) {
          throw new HttpError(400, "keyExpiresAt must be an ISO date-time or null");
        }
        a.keyExpiresAt = body.keyExpiresAt as string | null;
      }
      store.markMeta();
      return ok(renderAccount(ctx, a));
    }
  }

  if (seg[0] === "dns-records" && seg.length === 1) {
    if (method === "GET") return ok(store.dnsRecords);
    const body = await jsonBody(req);
    if (method === "DELETE" && Object.keys(body).length === 0) {
      store.dnsRecords = [];
      store.markMeta();
      return ok({ deleted: "all" });
    }
    const fqdn = str(body, "fqdn").toLowerCase().replace(/\.$/, "");
    const type = str(body, "type").toUpperCase();
    if (type !== "TXT" && type !== "CNAME") throw new HttpError(400, "type must be TXT or CNAME");
    const value = str(body, "value");
    const same = (r: { fqdn: string; type: string; value: string }): boolean => r.fqdn === fqdn && r.type === type && r.value === value;
    if (method === "POST") {
      if (!store.dnsRecords.some(same)) store.dnsRecords.push({ fqdn, type, value });
      store.markMeta();
      return ok({ fqdn, type, value }, 201);
    }
    if (method === "DELETE") {
      const before = store.dnsRecords.length;
      store.dnsRecords = store.dnsRecords.filter((r) => !same(r));
      store.markMeta();
      return ok({ deleted: before - store.dnsRecords.length });
    }
  }

  if (seg[0] === "files" && seg.length === 1) {
    if (method === "GET") return ok(store.files);
    const body = await jsonBody(req);
    if (method === "DELETE" && Object.keys(body).length === 0) {
      store.files = [];
      store.markMeta();
      return ok({ deleted: "all" });
    }
    const url = str(body, "url");
    if (method === "POST") {
      if (typeof body.content !== "string") throw new HttpError(400, "content is required (a string)");
      store.files = store.files.filter((f) => f.url !== url);
      store.files.push({ url, content: body.content });
      store.markMeta();
      return ok({ url, content: body.content }, 201);
    }
    if (method === "DELETE") {
      const before = store.files.length;
      store.files = store.files.filter((f) => f.url !== url);
      store.markMeta();
      return ok({ deleted: before - store.files.length });
    }
  }

  if (is("GET", "clock")) return ok({ now: clock.now().toISOString(), offsetSeconds: clock.offsetMs / 1000 });
  if (is("POST", "clock", "advance")) {
    const body = await jsonBody(req);
    if (typeof body.seconds !== "number" || !Number.isFinite(body.seconds) || body.seconds < 0) {
      throw new HttpError(400, "seconds must be a non-negative number");
    }
    const now = clock.advance(body.seconds);
    store.clockOffsetMs = clock.offsetMs;
    store.markMeta();
    return ok({ now: now.toISOString(), offsetSeconds: clock.offsetMs / 1000 });
  }

  if (is("GET", "orders")) {
    for (const o of store.orders.values()) await refreshOrder(ctx, o);
    return ok([...store.orders.values()].map((o) => renderOrder(ctx, o)));
  }
  if (seg[0] === "orders" && seg.length >= 2) {
    const order = store.orders.get(seg[1]!);
    if (order === undefined) throw new HttpError(404, `no order ${seg[1]}`);
    if (is("GET", "orders", null)) {
      await refreshOrder(ctx, order);
      return ok(renderOrder(ctx, order));
    }
    const cert = currentCert(order);
    if (is("POST", "orders", null, "issue")) {
      if (![0, 2, 3].includes(cert.status)) throw new HttpError(409, `cannot force issue from cert_status ${cert.status}`);
      if (cert.requestId === null) {
        cert.requestId = newSignRequestId(clock.now());
        cert.submittedAt = clock.nowMs();
        cert.records = makeRecords(order, cert.verificationMethod, cert.emailSuffix);
      }
      await issueCertificate(ctx, order, cert);
      return ok(renderOrder(ctx, order));
    }
    if (is("POST", "orders", null, "fail")) {
      if (![0, 2].includes(cert.status)) throw new HttpError(409, `cannot force failure from cert_status ${cert.status}`);
      cert.status = 3;
      cert.caStatus = 3;
      cert.caStatusText = "issuance failed (forced by the management API)";
      store.markOrder(order);
      return ok(renderOrder(ctx, order));
    }
    if (is("POST", "orders", null, "revoke")) {
      if (cert.status !== 1) throw new HttpError(409, `cannot revoke from cert_status ${cert.status}; only an issued certificate`);
      cert.status = 5;
      cert.caStatusText = "revoked (forced by the management API)";
      store.markOrder(order);
      return ok(renderOrder(ctx, order));
    }
    if (is("POST", "orders", null, "approve-refund")) {
      if (order.refund === null || order.refund.status !== 0) throw new HttpError(409, "the order has no pending refund request");
      refund(ctx, store.accounts.get(order.accountId)!, order);
      store.markOrder(order);
      return ok(renderOrder(ctx, order));
    }
  }

  if (is("GET", "faults")) return ok(faults.get());
  if (is("PUT", "faults")) {
    faults.merge(await jsonBody(req));
    return ok(faults.get());
  }
  if (is("DELETE", "faults")) {
    faults.clear();
    return ok({});
  }

  if (is("GET", "requests")) return ok(log.list());
  if (is("DELETE", "requests")) {
    log.clear();
    return ok([]);
  }

  if (is("GET", "config")) return ok(ctx.config);
  if (is("PUT", "config")) {
    Object.assign(ctx.config, parseConfigPatch(await jsonBody(req), ctx.realValidator !== undefined));
    return ok(ctx.config);
  }

  if (is("GET", "ca", "root.pem")) return sendPem(res, ca.rootPem);
  if (is("GET", "ca", "chain.pem")) return sendPem(res, `${ca.intermediatePem.trim()}\n${ca.rootPem.trim()}\n`);

  throw new HttpError(404, `no management route ${method} /management${path}`);
}

function sendPem(res: ServerResponse, pem: string): void {
  res.writeHead(200, { "content-type": "application/x-pem-file", "content-length": Buffer.byteLength(pem) });
  res.end(pem);
}
