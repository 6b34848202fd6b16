import { describe, expect, it } from "vitest";
import type { PartnerClientOptions } from "../../src/client/index.js";
import * as wire from "./support/fixtures.js";
import { ok, useScriptedClients } from "../support/partner-api/index.js";

// Every operation against a real HTTP server: the request as it appears on
// the wire (path, encoding, key placement) and the camelCase result.

const KEY = "ak_0123456789abcdefghijklmn:" + "s".repeat(64);
const scripted = useScriptedClients(KEY, { retry: false });
const client = (options?: Partial<PartnerClientOptions>) => scripted.client(options);

function only() {
  expect(scripted.server.requests).toHaveLength(1);
  return scripted.server.requests[0]!;
}

describe("form encoding (default), key in the body", () => {
  it("GetUserData: POST /partner/GetUserData/ with apikey only; camelCase result, money as strings", async () => {
    scripted.server.answer(ok(wire.userData));
    const me = await client().getUserData();
    const req = only();
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/partner/GetUserData/");
    expect(req.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(req.headers["x-api-key"]).toBeUndefined();
    expect(req.form).toEqual([["apikey", KEY]]);
    expect(me).toEqual({
      user: {
        id: 1001, userId: "U1001", username: "acme-ops", status: 1, statusText: "normal", userType: "partner", partnerLevel: 1,
        boundPhone: null, boundEmail: "ops@acme.test",
      },
      account: { balance: "5000.00", creditLine: "2000.00", creditUsed: "0.00", creditAvailable: "2000.00", trustedBalance: "0.00", totalAvailable: "7000.00" },
      apiKey: { appId: "ak_0123456789abcdefghijklmn", lastUsedIp: "127.0.0.1" },
      serverTime: "2026-11-22 09:00:00",
    });
  });

  it("listProducts: filters in snake_case; page flattened; unknown fields dropped; max_domains accepted for max_single_domains", async () => {
    const { max_single_domains: _, ...onlyMaxDomains } = wire.product;
    scripted.server.answer(ok(wire.productPage([wire.product, { ...onlyMaxDomains, max_domains: 100, product_code: "p2", unknown_future_field: 1 }], 2, 3, 7)));
    const page = await client().listProducts({ domainType: "multiple-single", brandCode: "sandbox", verificationType: "dv", productName: "Multi", productCode: "x", page: 2, limit: 2 });
    const req = only();
    expect(req.path).toBe("/partner/GetUserProduct/");
    expect(req.form).toEqual([
      ["domain_type", "multiple-single"], ["brand_code", "sandbox"], ["verification_type", "dv"], ["product_name", "Multi"],
      ["product_code", "x"], ["page", "2"], ["limit", "2"], ["apikey", KEY],
    ]);
    expect(page).toMatchObject({ total: 7, page: 2, limit: 500, totalPages: 3, user: { username: "acme-ops" } });
    expect(page.items[0]).toMatchObject({
      productCode: "sandbox-dv-multi", verificationTypeCode: "dv", domainTypeCode: "multiple-single", basePrice: "100.00",
      sanPrice: "20.00", wildcardPrice: null, maxSingleDomains: 100, maxWildcards: 0, hasCustomPrice: false,
      validYears: [{ years: 1, months: 12, price: "100.00", priceSource: "user", sanPrice: "20.00", wildcardPrice: null }],
      signatureAlgorithms: [{ code: "rsa", encryptionStrengths: [{ name: "RSA 2048", code: "rsa-2048" }] }],
    });
    expect(page.items[1]).toMatchObject({ productCode: "p2", maxSingleDomains: 100 });
    expect(page.items[1]).not.toHaveProperty("unknown_future_field");
    expect(page.items[1]).not.toHaveProperty("unknownFutureField");
  });

  it("listAllProducts walks every page and stops at total_pages", async () => {
    scripted.server.answer(
      (r) => ok(wire.productPage([{ ...wire.product, product_code: `p-${new URLSearchParams(r.body).get("page")}` }], Number(new URLSearchParams(r.body).get("page")), 3, 3)),
    );
    const all = await client().listAllProducts({ brandCode: "sandbox" });
    expect(all.map((p) => p.productCode)).toEqual(["p-1", "p-2", "p-3"]);
    expect(scripted.server.requests.map((r) => new URLSearchParams(r.body).get("page"))).toEqual(["1", "2", "3"]);
    expect(scripted.server.requests.every((r) => new URLSearchParams(r.body).get("limit") === "500")).toBe(true);
  });

  it("listAllProducts stops on an empty page even if more pages are announced", async () => {
    scripted.server.answer(ok(wire.productPage([], 1, 5, 10)));
    expect(await client().listAllProducts()).toEqual([]);
    expect(scripted.server.requests).toHaveLength(1);
  });

  it("createOrder: arrays as repeated keys, company_info in brackets, only given fields, escaping", async () => {
    scripted.server.answer(ok(wire.createOrder));
    const order = await client().createOrder({
      productCode: "sandbox-ov-multi", domain: "example.com", sanDomains: ["www.example.com", "api.example.com"],
      wildcardDomains: [], months: 24, signatureAlgorithm: "ecc", keySpec: "p-256", hashAlgorithm: "sha384",
      verificationMethod: "email-hostmaster", paymentMethod: "credit", couponType: "code", couponCode: "WELCOME",
      companyInfo: { companyName: "Acme & Co", countryCode: "DE", contactFirst: "Muster", contactLast: "Erika", email: "ops@acme.test", city: "Berlin" },
    });
    const req = only();
    expect(req.path).toBe("/partner/CreateOrder/");
    expect(req.body).toContain("san_domains=www.example.com&san_domains=api.example.com");
    expect(req.body).toContain("company_info%5Bcompany_name%5D=Acme+%26+Co");
    expect(req.form).toEqual([
      ["product_code", "sandbox-ov-multi"], ["domain", "example.com"],
      ["company_info[company_name]", "Acme & Co"], ["company_info[country_code]", "DE"], ["company_info[contact_first]", "Muster"],
      ["company_info[contact_last]", "Erika"], ["company_info[email]", "ops@acme.test"], ["company_info[city_pinyin]", "Berlin"],
      ["san_domains", "www.example.com"], ["san_domains", "api.example.com"],
      ["months", "24"], ["signature_algorithm", "ecc"], ["key_spec", "p-256"], ["hash_algorithm", "sha384"],
      ["verification_method", "email-hostmaster"], ["payment_method", "credit"], ["coupon_type", "code"], ["coupon_code", "WELCOME"],
      ["apikey", KEY],
    ]);
    expect(order).toEqual({
      orderNo: "CERT202611220930001234", totalAmount: "120.00", discountAmount: "0.00", payableAmount: "120.00", unitPrice: "100.00",
      sanPrice: "20.00", wildcardPrice: "0.00", extraSanCount: 1, extraWcCount: 0, installmentsCount: 2, totalDomains: 2, years: 1, months: 12,
      paymentMethod: "balance", deductAmount: "120.00", isCustomCsr: false,
    });
  });

  it("createOrder by product id", async () => {
    scripted.server.answer(ok(wire.createOrder));
    await client().createOrder({ productId: 7, domain: "example.com" });
    expect(only().form).toEqual([["product_id", "7"], ["domain", "example.com"], ["apikey", KEY]]);
  });

  it("applySign, getRecord, changeVerificationMethod, cancelOrder, getCertificateStatus, downloadCertificate", async () => {
    const c = client();
    const orderNo = "CERT202611220930001234";

    scripted.server.answer(ok(wire.applySign));
    const applied = await c.applySign({ orderNo });
    expect(applied).toEqual({
      orderNo, certStatus: 2, requestId: "SIG-202611221200000000-ABC123", verificationMethod: "dns", httpRecords: [], emailRecords: [],
      dnsRecords: [
        { domain: "example.com", type: "main", recordType: "TXT", label: "_dnsauth", value: "tok-1" },
        { domain: "www.example.com", type: "san", recordType: "TXT", label: "_dnsauth", value: "tok-2" },
      ],
    });

    scripted.server.answer(ok(wire.getRecord));
    expect(await c.getRecord({ orderNo })).toMatchObject({ orderNo, allDomainsCount: 2, dnsRecords: applied.dnsRecords, fetchedAt: "2026-11-22T09:31:00+08:00" });

    scripted.server.answer(ok(wire.changeMethod));
    const changed = await c.changeVerificationMethod({ orderNo, method: "file" });
    expect(changed).toMatchObject({ verificationMethod: "file", dnsRecords: [], emailRecords: [] });
    expect(changed.httpRecords[0]).toEqual({
      domain: "example.com", type: "main", recordType: "FILE", label: "3F2A.txt",
      path: "http://example.com/.well-known/pki-validation/3F2A.txt", content: "tok\nsandbox\nCERT1", link: "//example.com/.well-known/pki-validation/3F2A.txt",
    });

    scripted.server.answer(ok(wire.cancelOrder));
    expect(await c.cancelOrder({ orderNo, reason: "no longer needed" })).toEqual({
      orderNo, refundId: 77, refundAmount: "120.00", refundTo: "balance", refundOrderNo: "REFUND202611221000001234", refundMode: "direct", refundStatus: 3,
      upstreamCancel: { success: true, provider: "sandbox-ca", message: "cancelled upstream", upstreamCode: "0", skipped: false },
    });

    scripted.server.answer(ok(wire.certificateStatus));
    expect(await c.getCertificateStatus({ orderNo })).toMatchObject({
      certId: "5b0d5c3e-1111-4b5e-9a3e-6c1f2f7e9a10", certStatus: 1, allDcvVerified: true, caStatus: null,
      domainStatuses: [{ domain: "example.com", method: "dns", verified: true }], checkedAt: "2026-11-22T09:55:00+00:00", cooldownSeconds: 180,
    });

    scripted.server.answer(ok(wire.download));
    const dl = await c.downloadCertificate({ orderNo, installmentNo: 1 });
    expect(dl).toMatchObject({ certId: "5b0d5c3e-1111-4b5e-9a3e-6c1f2f7e9a10", sansDomains: ["www.example.com"], validTo: "2027-11-22", serialNumber: "0A1B2C" });
    expect(dl.certificate.privateKey).toContain("BEGIN PRIVATE KEY");
    expect(dl.certificate.certificateChain).toBe(wire.download.certificate.certificate_chain);

    expect(scripted.server.requests.map((r) => [r.path, r.form.filter(([k]) => k !== "apikey")])).toEqual([
      ["/partner/ApplySign/", [["order_no", orderNo]]],
      ["/partner/GetRecord/", [["order_no", orderNo]]],
      ["/partner/ChangeVertificationMethod/", [["order_no", orderNo], ["method", "file"], ["email_suffix", ""]]],
      ["/partner/CancelOrder/", [["order_no", orderNo], ["reason", "no longer needed"]]],
      ["/partner/GetCertificateStatus/", [["order_no", orderNo]]],
      ["/partner/DownloadCertificate/", [["order_no", orderNo], ["installment_no", "1"]]],
    ]);
  });

  it("changeVerificationMethod to an e-mail method: the spec code as method, email_suffix empty", async () => {
    scripted.server.answer(ok({ ...wire.changeMethod, verification_method: "email", http_records: [], email_records: [{ email: "webmaster@example.com" }] }));
    const changed = await client().changeVerificationMethod({ orderNo: "CERT1", method: "email-webmaster" });
    expect(only().form).toEqual([["order_no", "CERT1"], ["method", "email-webmaster"], ["email_suffix", ""], ["apikey", KEY]]);
    expect(changed).toMatchObject({ verificationMethod: "email", emailRecords: [{ email: "webmaster@example.com" }] });
  });

  it("downloadCertificate by cert id; an empty private key (custom CSR) reads as null", async () => {
    scripted.server.answer(ok({ ...wire.download, certificate: { ...wire.download.certificate, private_key: "", key: "" }, has_private_key: false }));
    const dl = await client().downloadCertificate({ orderNo: "CERT1", certId: "5b0d5c3e-1111-4b5e-9a3e-6c1f2f7e9a10" });
    expect(only().form).toEqual([["order_no", "CERT1"], ["cert_id", "5b0d5c3e-1111-4b5e-9a3e-6c1f2f7e9a10"], ["apikey", KEY]]);
    expect(dl.certificate.privateKey).toBeNull();
    expect(dl.hasPrivateKey).toBe(false);
  });
});

describe("JSON encoding and header key placement", () => {
  it("JSON body with apikey field; arrays and company_info native", async () => {
    scripted.server.answer(ok(wire.createOrder));
    await client({ encoding: "json" }).createOrder({
      productCode: "p", domain: "example.com", sanDomains: ["a.example.com"], companyId: 12,
    });
    const req = only();
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.json).toEqual({ product_code: "p", domain: "example.com", san_domains: ["a.example.com"], company_id: 12, apikey: KEY });
  });

  it("X-API-Key header: the key is not in the body (form)", async () => {
    scripted.server.answer(ok(wire.getRecord));
    await client({ keyPlacement: "header" }).getRecord({ orderNo: "CERT1" });
    const req = only();
    expect(req.headers["x-api-key"]).toBe(KEY);
    expect(req.body).toBe("order_no=CERT1");
  });

  it("X-API-Key header with JSON: no apikey field", async () => {
    scripted.server.answer(ok(wire.userData));
    await client({ keyPlacement: "header", encoding: "json" }).getUserData();
    const req = only();
    expect(req.headers["x-api-key"]).toBe(KEY);
    expect(req.json).toEqual({});
  });

  it("Bearer: the key is in Authorization only", async () => {
    scripted.server.answer(ok(wire.getRecord));
    await client({ keyPlacement: "bearer" }).getRecord({ orderNo: "CERT1" });
    const req = only();
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers["x-api-key"]).toBeUndefined();
    expect(req.body).toBe("order_no=CERT1");
  });

  it("a base URL with a path prefix keeps it", async () => {
    scripted.server.answer(ok(wire.userData));
    await client({ baseUrl: `${scripted.server.url}/api` }).getUserData();
    expect(only().path).toBe("/api/partner/GetUserData/");
  });
});

describe("tolerance of a real service's variations", () => {
  it("money as decimal strings, integers as digit strings, booleans as 0/1, PHP's [] for an empty object", async () => {
    const product = { ...wire.product, base_price: "100", san_price: "19.9", has_custom_price: 1, max_wildcards: "0" };
    scripted.server.answer(ok({ ...wire.productPage([product]), query: [] }));
    const page = await client().listProducts();
    expect(page.query).toEqual({});
    expect(page.items[0]).toMatchObject({ basePrice: "100.00", sanPrice: "19.90", hasCustomPrice: true, maxWildcards: 0 });
  });

  it("documented nulls: bound_phone, app_id, last_used_ip, ca_status, serial_number, dates", async () => {
    scripted.server.answer(ok({ ...wire.userData, api_key: { app_id: null, last_used_ip: null } }));
    expect((await client().getUserData()).apiKey).toEqual({ appId: null, lastUsedIp: null });
    scripted.server.answer(ok({ ...wire.certificateStatus, cert_status: 2, serial_number: null, start_date: null, end_date: null, cert_id: null }));
    expect(await client().getCertificateStatus({ orderNo: "CERT1" })).toMatchObject({ serialNumber: null, startDate: null, certId: null });
  });

  it("CancelOrder in audit mode: no refund order number", async () => {
    const { refund_order_no: _, ...audit } = wire.cancelOrder;
    scripted.server.answer(ok({ ...audit, refund_status: 0, refund_mode: "audit", upstream_cancel: { ...wire.cancelOrder.upstream_cancel, success: false, message: "upstream refused" } }));
    const result = await client().cancelOrder({ orderNo: "CERT1" });
    expect(result).toMatchObject({ refundStatus: 0, refundMode: "audit", upstreamCancel: { success: false } });
    expect(result.refundOrderNo).toBeUndefined();
  });

  it("warnings go to logger.warn prefixed with the operation, never to debug, and a missing logger is fine", async () => {
    const lines: string[] = [];
    scripted.server.answer(ok({ order_no: "CERT9" }));
    await client({ logger: { debug: (m) => lines.push(`debug ${m}`), warn: (m) => lines.push(`warn ${m}`) } }).createOrder({ productCode: "p", domain: "example.com" });
    expect(lines.filter((l) => l.startsWith("warn "))).toHaveLength(15);
    expect(lines.filter((l) => l.startsWith("warn ")).every((l) => l.startsWith("warn CreateOrder: data."))).toBe(true);
    expect((await client().createOrder({ productCode: "p", domain: "example.com" })).orderNo).toBe("CERT9");
  });
});

describe("connections", () => {
  it("are kept alive and reused across calls", async () => {
    scripted.server.answer(ok(wire.getRecord));
    const c = client();
    for (let i = 0; i < 10; i++) await c.getRecord({ orderNo: "CERT1" });
    // undici may open a second connection while the first is released; never one per call.
    expect(new Set(scripted.server.requests.map((r) => r.socket)).size).toBeLessThanOrEqual(2);
  });

  it("a closed client refuses calls without sending", async () => {
    const c = client();
    await c.close();
    await expect(c.getUserData()).rejects.toMatchObject({ kind: "aborted", mayHaveReachedServer: false });
    expect(scripted.server.requests).toHaveLength(0);
  });
});
