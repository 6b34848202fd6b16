import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/index.js";
import { call, COMPANY, DV_MULTI, mgmt, ok, rawCall, withSandbox } from "../support/sandbox.js";
import {
  CANCEL_AUDIT, CANCEL_DIRECT, CREATE_ORDER, DOWNLOAD, expectShape, GET_RECORD, PRODUCT_ITEM, shapeErrors, STATUS, SUBMISSION, USER_DATA,
} from "./support/shape.js";

// Every answer carries exactly the fields the specification (or, for the
// operations it does not show, the reference) lists: no more, no fewer, with
// the listed types — money as JSON numbers.
let sb: RunningSandbox;
beforeAll(async () => {
  sb = await withSandbox({ clockStart: "2026-06-01T00:00:00Z", issueAfterSeconds: 3600, methodCooldownSeconds: 0 });
});
afterAll(() => sb.stop());

const newOrder = async (extra: Record<string, unknown> = {}): Promise<string> => (await ok(sb, "CreateOrder", { ...DV_MULTI, ...extra })).order_no;

describe("the shape check itself", () => {
  it("reports missing, extra and mistyped fields, and money sent as a string", () => {
    expect(shapeErrors({ a: "1", extra: true, n: { m: "12.00" } }, { a: "integer", b: "string", n: { m: "number" } })).toEqual([
      "data.extra: not in the specification's field set",
      'data.a: expected integer, got string "1"',
      "data.b: missing",
      'data.n.m: expected number, got string "12.00"',
    ]);
  });
});

describe("envelope", () => {
  it("is exactly { code, message, data } on success and failure; the request id is a header only", async () => {
    const res = await rawCall(sb, "GetUserData");
    const env = (await res.json()) as any;
    expect(Object.keys(env).sort()).toEqual(["code", "data", "message"]);
    expect(env.code).toBe(200);
    expect(typeof env.message).toBe("string");
    expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{16}$/);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    for (const failing of [
      await call(sb, "GetUserData", {}, { key: null }),
      await call(sb, "GetRecord", { order_no: "CERT1" }),
      await call(sb, "GetUserData", {}, { method: "GET" }),
      await call(sb, "NoSuchOperation"),
    ]) {
      expect(Object.keys(failing).sort()).toEqual(["code", "data", "message"]);
      expect(typeof failing.data).toBe("object");
      expect(failing.data).not.toBeNull();
    }
  });
});

describe("GetUserData (spec 2.1)", () => {
  it("has exactly the spec's fields, money as numbers, total_available = balance + credit_available", async () => {
    const d = await ok(sb, "GetUserData");
    expectShape(d, USER_DATA);
    expect(d.account).toEqual({ balance: 5000, credit_line: 2000, credit_used: 0, credit_available: 2000, trusted_balance: 0, total_available: 7000 });
    expect(d.user).toMatchObject({ username: "acme-ops", status: 1, status_text: "normal" });
    expect(d.api_key.app_id).toBe(sb.accounts[0]!.apiKey.split(":")[0]);
    expect(d.server_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });
});

describe("CreateOrder (spec 4.3)", () => {
  it("answers exactly the sixteen fields with the price breakdown as numbers", async () => {
    const d = await ok(sb, "CreateOrder", {
      product_code: "sandbox-dv-flex", domain: "example.com", san_domains: ["www.example.com", "api.example.com"],
      wildcard_domains: ["*.example.com"], months: 24, coupon_code: "SANDBOX10",
    });
    expectShape(d, CREATE_ORDER);
    // flex, 24 months: unit 150*1.9=285, SAN 20*1.9=38 (x2), wildcard 300*1.9=570; 10 % off.
    expect(d).toMatchObject({
      total_amount: 931, discount_amount: 93.1, payable_amount: 837.9, unit_price: 285, san_price: 38, wildcard_price: 570,
      extra_san_count: 2, extra_wc_count: 1, installments_count: 4, total_domains: 4, years: 2, months: 24,
      payment_method: "balance", deduct_amount: 837.9, is_custom_csr: false,
    });
    expect(d.order_no).toMatch(/^CERT\d+$/);
  });
});

describe("ApplySign, GetRecord, ChangeVertificationMethod (spec 4.4-4.6, 2.5)", () => {
  it("GetRecord before ApplySign: the spec's twelve fields, empty record arrays", async () => {
    const no = await newOrder({ product_code: "sandbox-dv-flex", domain: "*.example.com", san_domains: ["www.example.com"], wildcard_domains: ["*.a.example.com"] });
    const d = await ok(sb, "GetRecord", { order_no: no });
    expectShape(d, GET_RECORD);
    expect(d).toMatchObject({
      order_no: no, cert_status: 0, verification_method: "dns", main_domain: "*.example.com", sans_domains: ["www.example.com"],
      wildcard_domains: ["*.a.example.com"], all_domains: ["*.example.com", "www.example.com", "*.a.example.com"], all_domains_count: 3,
      dns_records: [], http_records: [], email_records: [],
    });
    expect(d.fetched_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
  });

  it("dns: TXT records in dns_records, a wildcard validated at its base name, hint only in GetRecord", async () => {
    const no = await newOrder({ product_code: "sandbox-dv-flex", domain: "*.example.com", san_domains: ["www.example.com"], wildcard_domains: ["*.a.example.com"] });
    const d = await ok(sb, "ApplySign", { order_no: no });
    expectShape(d, SUBMISSION);
    expect(d).toMatchObject({ order_no: no, cert_status: 2, verification_method: "dns", http_records: [], email_records: [] });
    expect(d.request_id).toMatch(/^SIG-\d+-[A-Z0-9]+$/);
    expect(d.dns_records.map((r: any) => [r.domain, r.type, r.label, r.record_type])).toEqual([
      ["example.com", "main", "_dnsauth", "TXT"],
      ["www.example.com", "san", "_dnsauth", "TXT"],
      ["a.example.com", "san", "_dnsauth", "TXT"],
    ]);
    const rec = await ok(sb, "GetRecord", { order_no: no });
    expectShape(rec, GET_RECORD);
    expect(rec.dns_records.map(({ hint: _h, ...r }: any) => r)).toEqual(d.dns_records);
    expect(rec.dns_records[0].hint).toContain(`_dnsauth.example.com`);
  });

  it("file: http_records with path the full http:// URL and link its protocol-relative form", async () => {
    const no = await newOrder({ verification_method: "file" });
    const d = await ok(sb, "ApplySign", { order_no: no });
    expectShape(d, SUBMISSION);
    expect(d.dns_records).toEqual([]);
    expect(d.http_records).toHaveLength(2);
    const [main, san] = d.http_records;
    expect(main).toMatchObject({ domain: "example.com", type: "main", record_type: "FILE" });
    expect(san).toMatchObject({ domain: "www.example.com", type: "san", record_type: "FILE" });
    expect(main.label).toMatch(/^[0-9A-F]{32}\.txt$/);
    expect(main.path).toBe(`http://example.com/.well-known/pki-validation/${main.label}`);
    expect(main.link).toBe(`//example.com/.well-known/pki-validation/${main.label}`);
    expect(main.content).toContain(no);
  });

  it("cname: CNAME records in dns_records", async () => {
    const no = await newOrder({ verification_method: "cname" });
    const d = await ok(sb, "ApplySign", { order_no: no });
    expectShape(d, SUBMISSION);
    expect(d.verification_method).toBe("cname");
    expect(d.dns_records.every((r: any) => r.record_type === "CNAME" && /^_[0-9a-f]{32}$/.test(r.label) && r.value.endsWith(".dcv.sandbox.test"))).toBe(true);
  });

  it("e-mail methods: the spec code as verification_method, approver addresses in email_records", async () => {
    const no = await newOrder({ verification_method: "email-hostmaster" });
    const d = await ok(sb, "ApplySign", { order_no: no });
    expectShape(d, SUBMISSION);
    expect(d).toMatchObject({ verification_method: "email-hostmaster", dns_records: [], http_records: [] });
    expect(d.email_records).toEqual([
      { domain: "example.com", type: "main", email: "hostmaster@example.com" },
      { domain: "www.example.com", type: "san", email: "hostmaster@www.example.com" },
    ]);
  });

  it("dcv (where the product supports it): TXT records in dns_records", async () => {
    const no = await newOrder({ product_code: "longlife-dv-multi", verification_method: "dcv" });
    const d = await ok(sb, "ApplySign", { order_no: no });
    expectShape(d, SUBMISSION);
    expect(d.verification_method).toBe("dcv");
    expect(d.dns_records.map((r: any) => r.record_type)).toEqual(["TXT", "TXT"]);
  });

  it("the method change answers the same seven fields; the other methods' arrays come back empty", async () => {
    const no = await newOrder();
    const signed = await ok(sb, "ApplySign", { order_no: no });
    const d = await ok(sb, "ChangeVertificationMethod", { order_no: no, method: "file", email_suffix: "" });
    expectShape(d, SUBMISSION);
    expect(d).toMatchObject({ order_no: no, cert_status: 2, verification_method: "file", dns_records: [], email_records: [], request_id: signed.request_id });
    expect(d.http_records).toHaveLength(2);
    const mail = await ok(sb, "ChangeVertificationMethod", { order_no: no, method: "email", email_suffix: "postmaster" });
    expect(mail).toMatchObject({ verification_method: "email-postmaster", dns_records: [], http_records: [] });
    expect(mail.email_records[0].email).toBe("postmaster@example.com");
  });
});

describe("CancelOrder (spec 4.7, 2.6)", () => {
  it("direct: order_no plus the refund fields, refund_amount a number", async () => {
    const no = await newOrder();
    const d = await ok(sb, "CancelOrder", { order_no: no, reason: "" });
    expectShape(d, CANCEL_DIRECT);
    expect(d).toMatchObject({
      order_no: no, refund_amount: 120, refund_to: "balance", refund_mode: "direct", refund_status: 3,
      upstream_cancel: { success: true, provider: "sandbox-ca", upstream_code: "", skipped: true },
    });
    expect(d.refund_order_no).toMatch(/^REFUND\d+$/);
    const second = await ok(sb, "CancelOrder", { order_no: await newOrder() });
    expect(second.refund_id).toBeGreaterThan(d.refund_id);
  });

  it("audit: no refund_order_no, refund_status 0, the failed upstream cancel", async () => {
    const no = await newOrder({ payment_method: "credit" });
    await ok(sb, "ApplySign", { order_no: no });
    await mgmt(sb, "PUT", "/config", { upstreamCancelFails: true });
    try {
      const d = await ok(sb, "CancelOrder", { order_no: no });
      expectShape(d, CANCEL_AUDIT);
      expect(d).toMatchObject({ refund_mode: "audit", refund_status: 0, refund_to: "credit", upstream_cancel: { success: false, skipped: false } });
    } finally {
      await mgmt(sb, "PUT", "/config", { upstreamCancelFails: false });
    }
  });
});

describe("not-shown operations, per the reference", () => {
  it("product list: user, query, products page; items exactly the reference's fields", async () => {
    const d = await ok(sb, "GetUserProduct");
    expect(Object.keys(d).sort()).toEqual(["products", "query", "user"]);
    expect(Object.keys(d.products).sort()).toEqual(["items", "limit", "page", "total", "total_pages"]);
    expect(d.products.items.length).toBe(d.products.total);
    for (const item of d.products.items) expect(shapeErrors(item, PRODUCT_ITEM, item.product_code)).toEqual([]);
    expect(typeof d.user.balance).toBe("number");
  });

  it("order status and download", async () => {
    const no = await newOrder({ product_code: "sandbox-ov-single", domain: "example.com", san_domains: [], company_info: COMPANY });
    const before = await ok(sb, "GetCertificateStatus", { order_no: no });
    expectShape(before, STATUS);
    expect(before).toMatchObject({ cert_status: 0, serial_number: null, request_id: null, source: "local", cooldown_seconds: 0 });
    await ok(sb, "ApplySign", { order_no: no });
    await mgmt(sb, "POST", "/clock/advance", { seconds: 3601 });
    const issued = await ok(sb, "GetCertificateStatus", { order_no: no });
    expectShape(issued, STATUS);
    expect(issued).toMatchObject({ cert_status: 1, all_dcv_verified: true, domain_statuses: [{ domain: "example.com", method: "dns", verified: true }] });
    const d = await ok(sb, "DownloadCertificate", { order_no: no });
    expectShape(d, DOWNLOAD);
    expect(d.valid_to).toMatch(/^\d{4}-\d\d-\d\d$/);
  });
});

describe("errors", () => {
  it("use the documented codes; 400s name the field; 429 carries retry_after", async () => {
    const bad = await call(sb, "CreateOrder", { product_code: "sandbox-dv-single" });
    expect(bad).toMatchObject({ code: 400, data: { field: "domain" } });
    expect((await call(sb, "GetUserData", {}, { key: "nope" })).code).toBe(401);
    expect((await call(sb, "CreateOrder", { product_code: "nope", domain: "example.com" })).code).toBe(404);
    await mgmt(sb, "PUT", "/config", { methodCooldownSeconds: 300 });
    try {
      const no = await newOrder();
      await ok(sb, "ApplySign", { order_no: no });
      await ok(sb, "ChangeVertificationMethod", { order_no: no, method: "file" });
      const limited = await call(sb, "ChangeVertificationMethod", { order_no: no, method: "dns" });
      expect(limited.code).toBe(429);
      expect(Object.keys(limited.data)).toEqual(["retry_after"]);
      expect(limited.data.retry_after).toBeGreaterThan(0);
    } finally {
      await mgmt(sb, "PUT", "/config", { methodCooldownSeconds: 0 });
    }
  });
});
