import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PartnerApiError, PartnerClient, type CreateOrderRequest, type PartnerErrorKind } from "../../src/client/index.js";
import * as wire from "./support/fixtures.js";
import { apiError, ok, ScriptedServer } from "../support/partner-api/index.js";

const KEY = "ak_errorserrorserrorserrorsx:" + "e".repeat(64);
let server: ScriptedServer;
let client: PartnerClient;

beforeAll(async () => {
  server = await ScriptedServer.start();
  client = new PartnerClient({ baseUrl: server.url, apiKey: KEY, retry: false });
});
afterEach(() => server.reset());
afterAll(async () => {
  await client.close();
  await server.close();
});

async function failure(promise: Promise<unknown>): Promise<PartnerApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PartnerApiError);
  return error as PartnerApiError;
}

const DOCUMENTED: [number, PartnerErrorKind][] = [
  [400, "invalid_request"],
  [401, "unauthorized"],
  [403, "forbidden"],
  [404, "not_found"],
  [405, "method_not_allowed"],
  [429, "rate_limited"],
  [500, "server"],
];

describe.each([false, true])("documented API codes (HTTP status mirrors code: %s)", (mirror) => {
  it.each(DOCUMENTED)("code %i → kind %s with operation, code, status, message, request id", async (code, kind) => {
    server.answer({
      ...apiError(code, "参数错误 san_domains", { field: "san_domains", retry_after: code === 429 ? 7 : undefined }, mirror),
      headers: { "x-request-id": `req-${code}` },
    });
    const error = await failure(client.getRecord({ orderNo: "CERT1" }));
    expect(error).toMatchObject({
      kind, operation: "GetRecord", code, httpStatus: mirror ? code : 200, requestId: `req-${code}`, field: "san_domains",
      mayHaveReachedServer: true,
    });
    expect(error.retryAfter).toBe(code === 429 ? 7 : undefined);
    expect(error.message).toContain("GetRecord");
    expect(error.message).toContain(`API code ${code}`);
    expect(error.message).toContain("参数错误 san_domains");
    expect(server.requests).toHaveLength(1);
  });
});

describe("answers without the API envelope", () => {
  it("HTTP 5xx with an HTML body (a proxy) → http_error, not malformed and not an API code", async () => {
    server.answer({ status: 502, body: "<html>Bad Gateway</html>", headers: { "content-type": "text/html" } });
    expect(await failure(client.getUserData())).toMatchObject({ kind: "http_error", httpStatus: 502, code: undefined });
  });

  it.each([400, 401, 403, 404, 405])("HTTP %i with an HTML body → http_error (only the API's envelope decides the API kinds)", async (status) => {
    server.answer({ status, body: `<html>${status}</html>`, headers: { "content-type": "text/html" } });
    expect(await failure(client.getRecord({ orderNo: "CERT1" }))).toMatchObject({ kind: "http_error", httpStatus: status, code: undefined });
  });

  it("HTTP 429 with an empty body → rate_limited with Retry-After header", async () => {
    server.answer({ status: 429, body: "", headers: { "retry-after": "3" } });
    expect(await failure(client.getUserData())).toMatchObject({ kind: "rate_limited", httpStatus: 429, retryAfter: 3 });
  });

  it("HTTP 200 with a body that is not JSON → malformed_response", async () => {
    server.answer({ status: 200, body: "{ not json" });
    const error = await failure(client.getUserData());
    expect(error).toMatchObject({ kind: "malformed_response", httpStatus: 200, operation: "GetUserData" });
    expect(error.message).toMatch(/not JSON/);
  });

  it("HTTP 200 with JSON that is not the envelope → malformed_response naming code", async () => {
    server.answer({ status: 200, body: { status: "ok" } });
    expect(await failure(client.getUserData())).toMatchObject({ kind: "malformed_response", field: "code" });
  });

  it("envelope code 200 under HTTP 503 → http_error (the outcome is unknown)", async () => {
    server.answer({ status: 503, body: { code: 200, message: "ok", data: null } });
    expect(await failure(client.getUserData())).toMatchObject({ kind: "http_error", httpStatus: 503, code: 200 });
  });

  it("an undocumented code → server with that code", async () => {
    server.answer(apiError(1001, "unknown"));
    expect(await failure(client.getUserData())).toMatchObject({ kind: "server", code: 1001 });
  });

  it("request_id from the envelope when there is no header", async () => {
    server.answer({ body: { code: 404, message: "no such order", data: null, request_id: "env-req-1" } });
    expect(await failure(client.getRecord({ orderNo: "CERT1" }))).toMatchObject({ kind: "not_found", requestId: "env-req-1" });
  });
});

describe("contract-breaking data → malformed_response naming operation and field", () => {
  it.each([
    ["GetUserData", () => client.getUserData(), { ...wire.userData, account: { ...wire.userData.account, balance: "lots" } }, "data.account.balance"],
    ["GetUserProduct", () => client.listProducts(), { products: { ...wire.productPage([]).products, total_pages: "many" } }, "data.products.total_pages"],
    ["GetRecord", () => client.getRecord({ orderNo: "CERT1" }), { ...wire.getRecord, main_domain: 5 }, "data.main_domain"],
    ["GetCertificateStatus", () => client.getCertificateStatus({ orderNo: "CERT1" }), { ...wire.certificateStatus, cert_status: "issued" }, "data.cert_status"],
    ["DownloadCertificate", () => client.downloadCertificate({ orderNo: "CERT1" }), { ...wire.download, certificate: { ...wire.download.certificate, certificate_leaf: "" } }, "data.certificate.certificate_leaf"],
    ["CreateOrder", () => client.createOrder({ productCode: "p", domain: "example.com" }), { ...wire.createOrder, order_no: "" }, "data.order_no"],
  ] as const)("%s", async (operation, call, data, field) => {
    server.answer(ok(data));
    const error = await failure(call());
    expect(error).toMatchObject({ kind: "malformed_response", operation, field, code: 200 });
    expect(error.message).toContain(operation);
    expect(error.message).toContain(field);
  });

  it("money with three significant decimals is refused, not rounded", async () => {
    server.answer(ok({ ...wire.userData, account: { ...wire.userData.account, balance: "1.005" } }));
    expect(await failure(client.getUserData())).toMatchObject({ kind: "malformed_response", field: "data.account.balance" });
    server.answer(ok({ ...wire.userData, account: { ...wire.userData.account, balance: 0.125 } }));
    expect(await failure(client.getUserData())).toMatchObject({ kind: "malformed_response", field: "data.account.balance" });
  });

  it("a charged CreateOrder whose price fields break the contract is a success with the order number", async () => {
    server.answer(ok({ ...wire.createOrder, total_amount: "120.005", installments_count: "two" }));
    const order = await client.createOrder({ productCode: "p", domain: "example.com" });
    expect(order.orderNo).toBe("CERT202611220930001234");
    expect(order.totalAmount).toBeUndefined();
    expect(order.installmentsCount).toBeUndefined();
    expect(order.payableAmount).toBe("120.00");
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ["ApplySign", () => client.applySign({ orderNo: "CERT1" })],
    ["ChangeVertificationMethod", () => client.changeVerificationMethod({ orderNo: "CERT1", method: "dns" })],
    ["CancelOrder", () => client.cancelOrder({ orderNo: "CERT1" })],
  ] as const)("%s with code 200 is a success whatever its data (the call took effect)", async (_, call) => {
    for (const data of [null, "done", [], { cert_status: "two", dns_records: "none", refund_mode: 5, upstream_cancel: [] }]) {
      server.answer(ok(data));
      await expect(call()).resolves.toMatchObject({ orderNo: "CERT1" });
    }
  });
});

describe("bad input is refused before sending, naming the field and the rule", () => {
  const base = { productCode: "p", domain: "example.com" };
  it.each([
    [{ domain: "example.com" }, "productCode", "exactly one of productCode and productId"],
    [{ ...base, productId: 3 }, "productCode", "exactly one of productCode and productId"],
    [{ productCode: "p" }, "domain", "is required"],
    [{ ...base, domain: " example.com" }, "domain", "whitespace"],
    [{ ...base, sanDomains: ["a.example.com", ""] }, "sanDomains[1]", "must not be empty"],
    [{ ...base, months: 0 }, "months", "must be positive"],
    [{ ...base, months: 1.5 }, "months", "must be an integer"],
    [{ ...base, signatureAlgorithm: "dsa" }, "signatureAlgorithm", "must be one of rsa, ecc, sm2"],
    [{ ...base, signatureAlgorithm: "rsa", keySpec: "p-256" }, "keySpec", "must be a key spec of signatureAlgorithm rsa"],
    [{ ...base, emailSuffix: "admin" }, "emailSuffix", "is not a known field"],
    [{ ...base, verificationMethod: "email" }, "verificationMethod", "must be one of dns, cname, file, email-admin, email-postmaster, email-webmaster, email-hostmaster, dcv"],
    [{ ...base, couponType: "coupon" }, "couponId", "requires couponId"],
    [{ ...base, couponCode: "X" }, "couponType", "is required with couponId or couponCode"],
    [{ ...base, customCsr: "not a csr" }, "customCsr", "PEM certificate signing request"],
    [{ ...base, companyId: 1, companyInfo: { ...companyInfo() } }, "companyInfo", "not both"],
    [{ ...base, companyInfo: { ...companyInfo(), countryCode: "Germany" } }, "companyInfo.countryCode", "two-letter country/region code"],
    [{ ...base, companyInfo: { ...companyInfo(), contactFirst: undefined } }, "companyInfo.contactFirst", "is required"],
    [{ ...base, sanDomain: ["typo.example.com"] }, "sanDomain", "is not a known field"],
  ])("createOrder(%j) → %s", async (request, field, rule) => {
    const error = await failure(client.createOrder(request as unknown as CreateOrderRequest));
    expect(error).toMatchObject({ kind: "invalid_argument", operation: "CreateOrder", field, mayHaveReachedServer: false });
    expect(error.message).toContain(field);
    expect(error.message).toContain(rule);
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    ["applySign", () => client.applySign({ orderNo: "" }), "orderNo"],
    ["getRecord", () => client.getRecord({} as never), "orderNo"],
    ["getRecord (not an object)", () => client.getRecord(undefined as never), "(request)"],
    ["changeVerificationMethod", () => client.changeVerificationMethod({ orderNo: "C", method: "sms" as never }), "method"],
    ["changeVerificationMethod suffix", () => client.changeVerificationMethod({ orderNo: "C", method: "dns", emailSuffix: "admin" } as never), "emailSuffix"],
    ["cancelOrder reason", () => client.cancelOrder({ orderNo: "C", reason: "r".repeat(201) }), "reason"],
    ["downloadCertificate", () => client.downloadCertificate({ orderNo: "C", certId: "x", installmentNo: 1 }), "installmentNo"],
    ["listProducts", () => client.listProducts({ limit: 501 }), "limit"],
    ["a call option", () => client.getUserData({ timeoutMs: -1 }), "options.timeoutMs"],
  ])("%s", async (_, call, field) => {
    expect(await failure(call())).toMatchObject({ kind: "invalid_argument", field, mayHaveReachedServer: false });
    expect(server.requests).toHaveLength(0);
  });

  it("construction: bad options are TypeErrors naming the option", () => {
    expect(() => new PartnerClient({ baseUrl: "ftp://x", apiKey: KEY })).toThrow(/baseUrl must use http or https/);
    expect(() => new PartnerClient({ baseUrl: "not a url", apiKey: KEY })).toThrow(/baseUrl must be an absolute/);
    expect(() => new PartnerClient({ baseUrl: server.url, apiKey: "" })).toThrow(/apiKey must be a non-empty string/);
    expect(() => new PartnerClient({ baseUrl: server.url, apiKey: KEY, timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => new PartnerClient({ baseUrl: server.url, apiKey: KEY, retry: { maxAttempts: 0 } })).toThrow(/retry.maxAttempts/);
    expect(() => new PartnerClient({ baseUrl: server.url, apiKey: KEY, encoding: "xml" as never })).toThrow(/encoding must be one of form, json/);
    expect(() => new PartnerClient({ baseUrl: "http://partner.example.com", apiKey: KEY })).toThrow(/plain http.*allowInsecureHttp: true/);
    expect(() => new PartnerClient({ baseUrl: "http://partner.example.com", apiKey: KEY, allowInsecureHttp: "yes" as never })).toThrow(/allowInsecureHttp must be a boolean/);
  });
});

function companyInfo() {
  return {
    companyName: "Acme", countryCode: "DE", contactFirst: "Muster", contactLast: "Erika", email: "ops@acme.test",
    registrationNo: "HRB 1", province: "Berlin", city: "Berlin", address: "Main St 1", postalCode: "10115", phone: "+49 30 1234",
  };
}
