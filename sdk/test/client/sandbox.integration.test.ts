import { X509Certificate, createPrivateKey } from "node:crypto";
import { startSandbox, type RunningSandbox } from "certreseller-sandbox";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CertStatus, PartnerApiError, PartnerClient, type PartnerClientOptions } from "../../src/client/index.js";
import { managementCall } from "../support/sandbox-management.js";

// The client against the sandbox (a third party here: it plays the Partner
// API). Happy path through the whole lifecycle, then real error paths, with
// the sandbox's fault injection for the money-safety cases.

let sandbox: RunningSandbox;
const clients: PartnerClient[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, issueAfterSeconds: 3600 });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await mgmt("DELETE", "/faults");
  await mgmt("PUT", "/config", { mirrorStatus: false });
});
afterAll(() => sandbox.stop());

function client(options: Partial<PartnerClientOptions> = {}): PartnerClient {
  const c = new PartnerClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.accounts[0]!.apiKey,
    retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20, maxTotalMs: 5_000 },
    ...options,
  });
  clients.push(c);
  return c;
}

function mgmt<T = any>(method: string, route: string, body?: unknown): Promise<T> {
  return managementCall<T>(sandbox.managementUrl, method, route, body);
}

async function failure(promise: Promise<unknown>): Promise<PartnerApiError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(PartnerApiError);
  return error as PartnerApiError;
}

const cents = (money: string) => Math.round(Number(money) * 100);

describe("lifecycle against the sandbox", () => {
  it("account → products → create → records → apply → change method → status → download → cancel", async () => {
    const c = client();
    const me = await c.getUserData();
    expect(me.user.username).toBe(sandbox.accounts[0]!.username);
    expect(sandbox.accounts[0]!.apiKey.startsWith(`${me.apiKey.appId}:`)).toBe(true);
    const balanceBefore = me.user.balance;

    const products = await c.listAllProducts();
    const multi = products.find((p) => p.productCode === "sandbox-dv-multi");
    expect(multi).toBeDefined();
    expect(products.length).toBeGreaterThan(5);
    // Walking small pages gives the same list as one big page.
    expect((await c.listAllProducts({ limit: 4 })).map((p) => p.productCode)).toEqual(products.map((p) => p.productCode));

    const order = await c.createOrder({ productCode: "sandbox-dv-multi", domain: "client-it.example.com", sanDomains: ["www.client-it.example.com"], months: 12 });
    expect(order.certStatus).toBe(CertStatus.AwaitingSubmission);
    const term = multi!.validYears.find((t) => t.months === 12)!;
    expect(cents(order.price.total)).toBe(cents(term.price) + cents(term.sanPrice ?? "0"));
    expect(cents((await c.getUserData()).user.balance)).toBe(cents(balanceBefore) - cents(order.price.total));

    const before = await c.getRecord({ orderNo: order.orderNo });
    expect(before).toMatchObject({ records: [], requestId: null });

    const applied = await c.applySign({ orderNo: order.orderNo });
    expect(applied.certStatus).toBe(CertStatus.Issuing);
    expect(applied.requestId).toMatch(/^SIG-/);
    expect(applied.records.map((r) => r.domain).sort()).toEqual(["client-it.example.com", "www.client-it.example.com"]);
    expect((await c.getRecord({ orderNo: order.orderNo })).records).toEqual(applied.records);

    const changed = await c.changeVerificationMethod({ orderNo: order.orderNo, method: "file" });
    expect(changed.verificationMethod).toBe("file");
    expect(changed.records.every((r) => r.method === "file" && r.link?.startsWith("http://") && r.content)).toBe(true);
    // A second change within the cooldown is rate limited — and not retried (state-changing).
    const again = await failure(c.changeVerificationMethod({ orderNo: order.orderNo, method: "dns" }));
    expect(again).toMatchObject({ kind: "rate_limited", code: 429, attempts: 1 });
    expect(again.retryAfter).toBeGreaterThan(0);

    const issuing = await c.getCertificateStatus({ orderNo: order.orderNo });
    expect(issuing).toMatchObject({ orderNo: order.orderNo, certStatus: CertStatus.Issuing, allDcvVerified: false });
    // The status read is limited per order: a retry_after beyond the budget is surfaced at once.
    const limited = await failure(c.getCertificateStatus({ orderNo: order.orderNo }));
    expect(limited).toMatchObject({ kind: "rate_limited", attempts: 1 });
    expect(limited.retryAfter).toBeGreaterThan(5);

    await mgmt("POST", `/orders/${order.orderNo}/issue`);
    await mgmt("POST", "/clock/advance", { seconds: limited.retryAfter! + 1 });
    const issued = await c.getCertificateStatus({ orderNo: order.orderNo });
    expect(issued).toMatchObject({ certStatus: CertStatus.Issued, cooldownSeconds: 180 });
    expect(issued.serialNumber).toBeTruthy();

    const download = await c.downloadCertificate({ orderNo: order.orderNo });
    expect(download.serialNumber.toUpperCase()).toBe(issued.serialNumber!.toUpperCase());
    const leaf = new X509Certificate(download.certificate.certificateLeaf);
    expect(leaf.subjectAltName).toContain("DNS:client-it.example.com");
    expect(leaf.subjectAltName).toContain("DNS:www.client-it.example.com");
    expect(leaf.checkPrivateKey(createPrivateKey(download.certificate.privateKey!))).toBe(true);
    expect(leaf.verify(new X509Certificate(download.certificate.intermediateCertificate).publicKey)).toBe(true);

    const cancelled = await c.cancelOrder({ orderNo: order.orderNo, reason: "client integration test" });
    expect(cancelled).toMatchObject({ orderNo: order.orderNo, refundMode: "direct", refundAmount: order.price.total });
    expect((await c.getUserData()).user.balance).toBe(balanceBefore);

    const twice = await failure(c.cancelOrder({ orderNo: order.orderNo }));
    expect(twice).toMatchObject({ kind: "invalid_request", code: 400 });
  });

  it.each([
    ["form", "body"],
    ["json", "header"],
    ["json", "body"],
    ["form", "header"],
    ["form", "bearer"],
    ["json", "bearer"],
  ] as const)("encoding %s with the key in the %s", async (encoding, keyPlacement) => {
    const c = client({ encoding, keyPlacement });
    expect((await c.getUserData()).user.username).toBe(sandbox.accounts[0]!.username);
    const order = await c.createOrder({ productCode: "sandbox-dv-multi", domain: `${encoding}-${keyPlacement}.example.com`, sanDomains: ["a.example.net", "b.example.net"] });
    expect(order.price.sanCount).toBe(2);
    await c.cancelOrder({ orderNo: order.orderNo });
  });
});

describe("error paths against the sandbox", () => {
  it.each([false, true])("unknown order, bad key, bad field (mirrorStatus %s)", async (mirror) => {
    await mgmt("PUT", "/config", { mirrorStatus: mirror });
    const notFound = await failure(client().getRecord({ orderNo: "CERT000000000000000000" }));
    expect(notFound).toMatchObject({ kind: "not_found", code: 404, httpStatus: mirror ? 404 : 200 });
    expect(notFound.requestId).toBeTruthy();

    const badKey = await failure(client({ apiKey: "ak_000000000000000000000000:" + "0".repeat(64) }).getUserData());
    expect(badKey).toMatchObject({ kind: "unauthorized", code: 401, httpStatus: mirror ? 401 : 200 });

    // A wildcard in san_domains is refused naming the field, and nothing is charged.
    const c = client();
    const balance = (await c.getUserData()).user.balance;
    const badField = await failure(c.createOrder({ productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["*.example.com"] }));
    expect(badField).toMatchObject({ kind: "invalid_request", code: 400, field: "san_domains" });
    expect((await c.getUserData()).user.balance).toBe(balance);
  });

  it("read-only retries through injected 500s, malformed bodies and resets", async () => {
    await mgmt("PUT", "/faults", { GetUserData: { errorRate: 1, errorCode: 500, times: 1 }, GetUserProduct: { malformed: true, times: 1 }, GetRecord: { reset: true, times: 2 } });
    const c = client();
    await c.getUserData();
    // A malformed body is a contract break, not a transient error: surfaced, not retried.
    expect(await failure(c.listProducts())).toMatchObject({ kind: "malformed_response" });
    // Two resets, then the real answer: the third attempt's error is the one surfaced.
    await expect(c.getRecord({ orderNo: "CERT000000000000000000" })).rejects.toMatchObject({ kind: "not_found", attempts: 3 });
    const log = await mgmt<{ operation: string }[]>("GET", "/requests");
    const count = (op: string) => log.filter((r) => r.operation === op).length;
    expect(count("GetUserData")).toBeGreaterThanOrEqual(2);
  });

  it.each(["500", "drop"] as const)("CreateOrder charged then failed (%s): exactly one order, never bought twice", async (mode) => {
    await mgmt("PUT", "/faults", { CreateOrder: { commitThenFail: mode, times: 1 } });
    const c = client();
    const balance = (await c.getUserData()).user.balance;
    const ordersBefore = (await mgmt<unknown[]>("GET", "/orders")).length;
    const error = await failure(c.createOrder({ productCode: "sandbox-dv-single", domain: `charged-${mode}.example.com` }));
    expect(error).toMatchObject({ kind: mode === "500" ? "server" : "network", mayHaveReachedServer: true, attempts: 1 });
    const orders = await mgmt<{ orderNo?: string; order_no?: string }[]>("GET", "/orders");
    expect(orders.length).toBe(ordersBefore + 1);
    expect(cents((await c.getUserData()).user.balance)).toBeLessThan(cents(balance));
  });
});
