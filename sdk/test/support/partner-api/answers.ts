/**
 * Answers for the scripted Partner API (./scripted-server.ts): the API's
 * envelope (success or refusal, under HTTP 200 as the service sends it),
 * wire shapes of the specification, and what a proxy in front of the API
 * sends instead.
 */
import type { ScriptedAnswer } from "./scripted-server.js";

/** A success envelope. */
export function ok(data: unknown, extra: Record<string, unknown> = {}): ScriptedAnswer {
  return { body: { code: 200, message: "ok", data, ...extra } };
}

/** An error envelope (the API's refusal), with HTTP 200 (the API's default) or a mirrored status. */
export function apiError(code: number, message: string, data: unknown = null, mirror = false): ScriptedAnswer {
  return { status: mirror ? code : 200, body: { code, message, data } };
}

/** What a reverse proxy or load balancer sends: an HTML page, not the API's envelope. */
export function htmlPage(status: number, title: string): ScriptedAnswer {
  return {
    status,
    headers: { "content-type": "text/html" },
    body: `<html><head><title>${status} ${title}</title></head><body><h1>${title}</h1><hr>nginx</body></html>`,
  };
}

/** A product-list answer (GetUserProduct) with the given wire items. */
export function productList(items: Record<string, unknown>[]): ScriptedAnswer {
  return ok({ products: { total: items.length, page: 1, limit: 500, total_pages: 1, items } });
}

/** A wire product item (GetUserProduct) of the given domain type. */
export function wireProduct(productCode: string, domainTypeCode: string): Record<string, unknown> {
  return {
    product_name: productCode,
    product_code: productCode,
    verification_type_code: "dv",
    domain_type_code: domainTypeCode,
    signature_algorithms: [{ name: "RSA", code: "rsa", encryption_strengths: [{ name: "2048", code: "rsa-2048" }] }],
    hash_algorithms: [{ name: "SHA-256", code: "sha256" }],
    valid_years: [{ years: 1, months: 12, price: 80, san_price: 10, wildcard_price: 0 }],
    base_price: 80,
    san_price: 10,
    wildcard_price: 0,
    max_single_domains: 5,
    max_wildcards: 0,
  };
}

/** A GetUserData answer (spec 2.1) for the key with `appId`, the service's clock at `serverTime` (`YYYY-MM-DD HH:MM:SS`). */
export function userData(appId: string, serverTime = new Date().toISOString().slice(0, 19).replace("T", " ")): ScriptedAnswer {
  return ok({
    user: { id: 7, user_id: "U7", username: "scripted", status: 1, status_text: "normal", user_type: "partner", partner_level: 1, bound_phone: null, bound_email: null },
    account: { balance: 1000, credit_line: 0, credit_used: 0, credit_available: 0, trusted_balance: 0, total_available: 1000 },
    api_key: { app_id: appId, last_used_ip: null },
    server_time: serverTime,
  });
}

/** A GetRecord answer (spec 4.6) for `orderNo` in `certStatus`. */
export function recordOf(orderNo: string, certStatus: number, domain = "a.example.com"): ScriptedAnswer {
  return ok({
    order_no: orderNo,
    cert_status: certStatus,
    verification_method: "dns",
    main_domain: domain,
    sans_domains: [],
    wildcard_domains: [],
    all_domains: [domain],
    all_domains_count: 1,
    dns_records: [],
    http_records: [],
    email_records: [],
    fetched_at: "2026-11-22T10:00:00+00:00",
  });
}
