import { describe, expect, it } from "vitest";
import { PartnerClient, type PartnerClient as Client } from "../../src/client/index.js";
import { apiError, ok } from "../support/partner-api/index.js";
import { API_KEY, failure, useContractClients } from "./support/contract.js";

// Spec section 1 (envelope, POST, form body, /partner/ paths), 5 (apikey on
// every request) and 7 (success is HTTP 200 with code 200). Who said what
// decides an error's kind: only the API's own envelope can say an order does
// not exist.

const contract = useContractClients();
const ORDER_NO = "CERT202607041730001234";

const EVERY_OPERATION: [string, (c: Client) => Promise<unknown>][] = [
  ["GetUserData", (c) => c.getUserData()],
  ["GetUserProduct", (c) => c.listProducts()],
  ["CreateOrder", (c) => c.createOrder({ productCode: "p", domain: "example.com" })],
  ["ApplySign", (c) => c.applySign({ orderNo: ORDER_NO })],
  ["GetRecord", (c) => c.getRecord({ orderNo: ORDER_NO })],
  ["ChangeVertificationMethod", (c) => c.changeVerificationMethod({ orderNo: ORDER_NO, method: "dns" })],
  ["CancelOrder", (c) => c.cancelOrder({ orderNo: ORDER_NO })],
  ["GetCertificateStatus", (c) => c.getCertificateStatus({ orderNo: ORDER_NO })],
  ["DownloadCertificate", (c) => c.downloadCertificate({ orderNo: ORDER_NO })],
];

describe("sections 1 and 5: every operation is a POST of a form body carrying apikey, under /partner/", () => {
  it.each(EVERY_OPERATION)("%s", async (operation, call) => {
    contract.server.answer(apiError(404, "no"));
    await call(contract.client()).catch(() => undefined);
    const request = contract.only();
    expect(request).toMatchObject({ method: "POST", path: `/partner/${operation}/` });
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(request.form[request.form.length - 1]).toEqual(["apikey", API_KEY]);
  });
});

describe("section 7: an order is gone only when the API's own envelope says 404", () => {
  it.each([200, 404])("envelope code 404 (HTTP %i) → not_found", async (status) => {
    contract.server.answer({ status, body: { code: 404, message: "订单不存在", data: null } });
    expect(await failure(contract.client().getRecord({ orderNo: ORDER_NO }))).toMatchObject({ kind: "not_found", code: 404, httpStatus: status });
  });

  it("a reverse proxy's HTML 404 page → http_error, not not_found: it proves nothing about the order", async () => {
    contract.server.answer({ status: 404, body: "<html><body><h1>404 Not Found</h1>nginx</body></html>", headers: { "content-type": "text/html" } });
    const error = await failure(contract.client().getRecord({ orderNo: ORDER_NO }));
    expect(error).toMatchObject({ kind: "http_error", httpStatus: 404, code: undefined });
    expect(error.message).toMatch(/not the Partner API.*proves nothing/);
  });

  it("a JSON 404 that is not the envelope (a gateway's) → http_error", async () => {
    contract.server.answer({ status: 404, body: { message: "no Route matched with those values" } });
    expect(await failure(contract.client().cancelOrder({ orderNo: ORDER_NO }))).toMatchObject({ kind: "http_error", httpStatus: 404 });
  });

  it.each([
    ["a gateway's { code, msg }", { code: 404, msg: "route not found" }],
    ["a bare { code, data }", { code: 404, data: null }],
  ])("JSON with code 404 but no message (%s) is not the API's envelope → http_error, not not_found", async (_what, body) => {
    contract.server.answer({ status: 404, body });
    const error = await failure(contract.client().getRecord({ orderNo: ORDER_NO }));
    expect(error).toMatchObject({ kind: "http_error", httpStatus: 404 });
    expect(error.message).toMatch(/not the (Partner API|API envelope)/);
  });

  it("the same bare { code: 404 } under HTTP 200 is never not_found either", async () => {
    contract.server.answer({ status: 200, body: { code: 404, data: null } });
    expect(await failure(contract.client().getRecord({ orderNo: ORDER_NO }))).toMatchObject({ kind: "http_error", httpStatus: 200 });
  });

  it("envelope code 400 → invalid_request; an HTML 400 page → http_error", async () => {
    contract.server.answer(apiError(400, "参数错误", { field: "order_no" }, true));
    expect(await failure(contract.client().getRecord({ orderNo: ORDER_NO }))).toMatchObject({ kind: "invalid_request", code: 400, field: "order_no" });
    contract.server.answer({ status: 400, body: "<html>400 Bad Request</html>" });
    expect(await failure(contract.client().getRecord({ orderNo: ORDER_NO }))).toMatchObject({ kind: "http_error", httpStatus: 400 });
  });

  it("an HTML 502 page is http_error and retried for a read; never for CreateOrder", async () => {
    contract.server.answer({ status: 502, body: "<html>Bad Gateway</html>" }, ok({ order_no: ORDER_NO }));
    const c = contract.client({ retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1, maxTotalMs: 2_000 } });
    await c.getRecord({ orderNo: ORDER_NO }).catch(() => undefined);
    expect(contract.server.requests).toHaveLength(2);
    contract.server.reset();
    contract.server.answer({ status: 502, body: "<html>Bad Gateway</html>" });
    expect(await failure(c.createOrder({ productCode: "p", domain: "example.com" }))).toMatchObject({ kind: "http_error", mayHaveReachedServer: true, attempts: 1 });
    expect(contract.server.requests).toHaveLength(1);
  });

  it("a success envelope under an HTTP error status → http_error keeping the order number", async () => {
    contract.server.answer({ status: 500, body: { code: 200, message: "ok", data: { order_no: ORDER_NO } } });
    expect(await failure(contract.client().createOrder({ productCode: "p", domain: "example.com" }))).toMatchObject({
      kind: "http_error", httpStatus: 500, code: 200, orderNo: ORDER_NO, mayHaveReachedServer: true,
    });
  });
});

describe("section 5: the key never crosses a network in clear text", () => {
  it.each(["http://127.0.0.1:1", "http://127.10.0.1:1", "http://[::1]:1", "http://localhost:1", "https://partner.example.com"])("%s is accepted", (baseUrl) => {
    expect(() => new PartnerClient({ baseUrl, apiKey: API_KEY })).not.toThrow();
  });

  it.each(["http://partner.example.com", "http://10.0.0.5:8080", "http://[::ffff:10.0.0.1]/", "http://a.localhost/"])("%s is refused, naming allowInsecureHttp", (baseUrl) => {
    expect(() => new PartnerClient({ baseUrl, apiKey: API_KEY })).toThrow(/allowInsecureHttp/);
    expect(() => new PartnerClient({ baseUrl, apiKey: API_KEY, allowInsecureHttp: true })).not.toThrow();
  });
});
