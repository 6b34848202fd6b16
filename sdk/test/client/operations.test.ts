import { describe, expect, it } from "vitest";
import type { PartnerClient, PartnerClientOptions } from "../../src/client/index.js";
import * as wire from "./support/fixtures.js";
import { useScriptedClients } from "./support/scripted-clients.js";
import { ok } from "./support/scripted-server.js";

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
        id: 1001, username: "acme-ops", email: "ops@acme.test", status: 1, boundPhone: null, boundEmail: "ops@acme.test",
        balance: "5000.00", creditLimit: "2000.00", creditUsed: "0.00", creditAvailable: "2000.00", totalAvailable: "7000.00",
        currency: "CNY", createdAt: "2026-01-02 10:00:00",
      },
      apiKey: { appId: "ak_0123456789abcdefghijklmn", status: 1, lastUsedIp: "127.0.0.1", lastUsedAt: "2026-11-22 09:00:00", expiresAt: null },
    });
  });

  it("listProducts: filters in snake_case; page flattened; extra fields kept; max_domains accepted for max_single_domains", async () => {
    const { max_single_domains: _, ...onlyMaxDomains } = wire.product;
    scripted.server.answer(ok(wire.productPage([wire.product, { ...onlyMaxDomains, product_code: "p2", unknown_future_field: 1 }], 2, 3, 7)));
    const page = await client().listProducts({ domainType: "multi", brandCode: "sandbox", verificationType: "dv", productName: "Multi", productCode: "x", page: 2, limit: 2 });
    const req = only();
    expect(req.path).toBe("/partner/GetUserProduct/");
    expect(req.form).toEqual([
      ["domain_type", "multi"], ["brand_code", "sandbox"], ["verification_type", "dv"], ["product_name", "Multi"],
      ["product_code", "x"], ["page", "2"], ["limit", "2"], ["apikey", KEY],
    ]);
    expect(page).toMatchObject({ total: 7, page: 2, limit: 500, totalPages: 3, user: { username: "acme-ops" } });
    expect(page.items[0]).toMatchObject({
      productId: 7, productCode: "sandbox-dv-multi", verificationTypeCode: "dv", domainTypeCode: "multi", basePrice: "100.00",
      sanPrice: "20.00", wildcardPrice: null, maxSingleDomains: 100, maxWildcards: 0, hasCustomPrice: false,
      validYears: [{ years: 1, months: 12, price: "100.00", priceSource: "user", sanPrice: "20.00", wildcardPrice: null }],
      signatureAlgorithms: [{ code: "rsa", encryptionStrengths: [{ name: "RSA 2048", code: "rsa-2048" }] }],
      verificationMethods: [{ name: "DNS TXT", code: "dns" }], defaultVerificationMethod: "dns", maxMonthsPerCertificate: 12, requiresCompany: false,
    });
    expect(page.items[1]).toMatchObject({ productCode: "p2", maxSingleDomains: 100 });
    expect(page.items[1]).not.toHaveProperty("unknown_future_field");
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

  it("createOrder: arrays as repeated keys, company_info in brackets, only given fields", async () => {
    scripted.server.answer(ok(wire.createOrder));
    const order = await client().createOrder({
      productCode: "sandbox-ov-multi", domain: "example.com", sanDomains: ["www.example.com", "api.example.com"],
      wildcardDomains: [], months: 24, signatureAlgorithm: "ecc", keySpec: "p-256", hashAlgorithm: "sha384",
      verificationMethod: "email", emailSuffix: "hostmaster", paymentMethod: "credit", couponType: "code", couponCode: "WELCOME",
      companyInfo: {
        companyName: "Acme & Co", registrationNumber: "HRB 1", country: "DE", state: "BE", city: "Berlin", address: "Main St 1",
        postalCode: "10115", contactName: "Ops", contactEmail: "ops@acme.test", contactPhone: "+49 30 1234",
      },
      remark: "ticket #42",
    });
    const req = only();
    expect(req.path).toBe("/partner/CreateOrder/");
    expect(req.body).toContain("san_domains=www.example.com&san_domains=api.example.com");
    expect(req.body).toContain("company_info%5Bcompany_name%5D=Acme+%26+Co");
    expect(req.form).toEqual([
      ["product_code", "sandbox-ov-multi"], ["domain", "example.com"], ["san_domains", "www.example.com"], ["san_domains", "api.example.com"],
      ["months", "24"], ["signature_algorithm", "ecc"], ["key_spec", "p-256"], ["hash_algorithm", "sha384"],
      ["verification_method", "email"], ["email_suffix", "hostmaster"], ["payment_method", "credit"],
      ["company_info[company_name]", "Acme & Co"], ["company_info[registration_number]", "HRB 1"], ["company_info[country]", "DE"],
      ["company_info[state]", "BE"], ["company_info[city]", "Berlin"], ["company_info[address]", "Main St 1"],
      ["company_info[postal_code]", "10115"], ["company_info[contact_name]", "Ops"], ["company_info[contact_email]", "ops@acme.test"],
      ["company_info[contact_phone]", "+49 30 1234"], ["coupon_type", "code"], ["coupon_code", "WELCOME"], ["remark", "ticket #42"],
      ["apikey", KEY],
    ]);
    expect(order).toMatchObject({
      orderNo: "CERT202611220930001234", orderStatus: 1, certStatus: 0, installmentsCount: 2, sanDomains: ["www.example.com"],
      amount: "120.00", balanceAfter: "4880.00", paidAt: "2026-11-22 09:30:00",
      price: { basePrice: "100.00", sanCount: 1, sanPrice: "20.00", sanTotal: "20.00", wildcardCount: 0, discount: "0.00", total: "120.00" },
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
      orderNo, certStatus: 2, requestId: "SIG-202611221200000000-ABC123", verificationMethod: "dns", submittedAt: "2026-11-22 09:31:00",
      records: [
        { domain: "example.com", type: "main", method: "dns", recordType: "TXT", label: "_dnsauth", value: "tok-1" },
        { domain: "www.example.com", type: "san", method: "dns", recordType: "TXT", label: "_dnsauth", value: "tok-2" },
      ],
    });

    scripted.server.answer(ok(wire.getRecord));
    expect(await c.getRecord({ orderNo })).toMatchObject({ orderNo, emailSuffix: null, requestId: "SIG-202611221200000000-ABC123", records: applied.records });

    scripted.server.answer(ok(wire.changeMethod));
    const changed = await c.changeVerificationMethod({ orderNo, method: "file" });
    expect(changed).toMatchObject({ verificationMethod: "file", nextChangeAfter: "2026-11-22 09:45:00" });
    expect(changed.records[0]).toEqual({
      domain: "example.com", type: "main", method: "file", recordType: null, label: "3F2A.txt",
      path: "/.well-known/pki-validation/3F2A.txt", content: "tok\nsandbox\nCERT1", link: "http://example.com/.well-known/pki-validation/3F2A.txt",
    });

    scripted.server.answer(ok(wire.cancelOrder));
    expect(await c.cancelOrder({ orderNo, reason: "no longer needed" })).toEqual({
      orderNo, orderStatus: 4, certStatus: 5, refundStatus: 3, refundMode: "direct", refundTo: "balance", refundAmount: "120.00",
      refundOrderNo: "REFUND202611221000001234", upstreamCancel: { skipped: false, success: true, message: "cancelled upstream" },
      cancelledAt: "2026-11-22 10:00:00",
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
      ["/partner/ChangeVertificationMethod/", [["order_no", orderNo], ["method", "file"]]],
      ["/partner/CancelOrder/", [["order_no", orderNo], ["reason", "no longer needed"]]],
      ["/partner/GetCertificateStatus/", [["order_no", orderNo]]],
      ["/partner/DownloadCertificate/", [["order_no", orderNo], ["installment_no", "1"]]],
    ]);
  });

  it("changeVerificationMethod to email sends email_suffix", async () => {
    scripted.server.answer(ok({ ...wire.changeMethod, verification_method: "email", email_suffix: "webmaster", records: [wire.emailRecord] }));
    const changed = await client().changeVerificationMethod({ orderNo: "CERT1", method: "email", emailSuffix: "webmaster" });
    expect(only().form).toEqual([["order_no", "CERT1"], ["method", "email"], ["email_suffix", "webmaster"], ["apikey", KEY]]);
    expect(changed.records[0]).toMatchObject({ recordType: null, label: null, email: "admin@example.com" });
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
  it("money as numbers, integers as digit strings, booleans as 0/1, PHP's [] for an empty object", async () => {
    const product = { ...wire.product, base_price: 100, san_price: 19.9, has_custom_price: 1, max_wildcards: "0", requires_company: "0" };
    scripted.server.answer(ok({ ...wire.productPage([product]), query: [] }));
    const page = await client().listProducts();
    expect(page.query).toBeNull();
    expect(page.items[0]).toMatchObject({ basePrice: "100.00", sanPrice: "19.90", hasCustomPrice: true, maxWildcards: 0, requiresCompany: false });
  });

  it("documented nulls: bound_phone, app_id, last_used_ip, ca_status, serial_number, dates", async () => {
    scripted.server.answer(ok({ ...wire.userData, api_key: { ...wire.userData.api_key, app_id: null, last_used_ip: null } }));
    expect((await client().getUserData()).apiKey).toMatchObject({ appId: null, lastUsedIp: null });
    scripted.server.answer(ok({ ...wire.certificateStatus, cert_status: 2, serial_number: null, start_date: null, end_date: null, cert_id: null }));
    expect(await client().getCertificateStatus({ orderNo: "CERT1" })).toMatchObject({ serialNumber: null, startDate: null, certId: null });
  });

  it("CancelOrder in audit mode: no refund order number", async () => {
    scripted.server.answer(ok({ ...wire.cancelOrder, order_status: 2, cert_status: 6, refund_status: 0, refund_mode: "audit", refund_order_no: null, upstream_cancel: { skipped: false, success: false, message: "upstream refused" } }));
    expect(await client().cancelOrder({ orderNo: "CERT1" })).toMatchObject({ refundStatus: 0, refundMode: "audit", refundOrderNo: null, upstreamCancel: { success: false } });
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
