/**
 * A real HTTP server on a free 127.0.0.1 port that answers Partner API paths
 * from a script: for what the sandbox does not do on purpose (a catalogue
 * with a domain type outside the specification, a proxy's HTML error page in
 * place of the API).
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted answer: a JSON envelope (sent as HTTP 200) or a raw HTTP answer. */
export type ScriptedAnswer = { envelope: { code: number; message: string; data: unknown } } | { status: number; contentType: string; body: string };

export interface ScriptedApi {
  url: string;
  /** Operation names (the path segment after /partner/) in the order they arrived. */
  calls: string[];
  stop(): Promise<void>;
}

/** Starts the server; an operation without a script answers an HTML 404 page. */
export async function startScriptedApi(script: Record<string, (form: URLSearchParams) => ScriptedAnswer>): Promise<ScriptedApi> {
  const calls: string[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const operation = /^\/partner\/([A-Za-z]+)\//.exec(req.url ?? "")?.[1] ?? req.url ?? "";
      calls.push(operation);
      const answer = script[operation]?.(new URLSearchParams(body)) ?? htmlPage(404, "Not Found");
      if ("envelope" in answer) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer.envelope));
      } else {
        res.writeHead(answer.status, { "content-type": answer.contentType }).end(answer.body);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What a reverse proxy or load balancer sends: an HTML page, not the API's envelope. */
export function htmlPage(status: number, title: string): ScriptedAnswer {
  return { status, contentType: "text/html", body: `<html><head><title>${status} ${title}</title></head><body><h1>${title}</h1><hr>nginx</body></html>` };
}

/** A product-list answer (GetUserProduct) with the given wire items. */
export function productList(items: Record<string, unknown>[]): ScriptedAnswer {
  return {
    envelope: { code: 200, message: "ok", data: { products: { total: items.length, page: 1, limit: 500, total_pages: 1, items } } },
  };
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
  return {
    envelope: {
      code: 200,
      message: "ok",
      data: {
        user: { id: 7, user_id: "U7", username: "scripted", status: 1, status_text: "normal", user_type: "partner", partner_level: 1, bound_phone: null, bound_email: null },
        account: { balance: 1000, credit_line: 0, credit_used: 0, credit_available: 0, trusted_balance: 0, total_available: 1000 },
        api_key: { app_id: appId, last_used_ip: null },
        server_time: serverTime,
      },
    },
  };
}

/** A GetRecord answer (spec 4.6) for `orderNo` in `certStatus`. */
export function recordOf(orderNo: string, certStatus: number, domain = "a.example.com"): ScriptedAnswer {
  return {
    envelope: {
      code: 200,
      message: "ok",
      data: {
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
      },
    },
  };
}

/** An API refusal: the envelope with `code` (sent as HTTP 200, as the service does). */
export function refusal(code: number, message: string, data: Record<string, unknown> = {}): ScriptedAnswer {
  return { envelope: { code, message, data } };
}
