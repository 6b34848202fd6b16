import { X509Certificate, createPrivateKey } from "node:crypto";
import { startSandbox, type RunningSandbox } from "certreseller-sandbox";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  CertStatus,
  isDomainTypeCode,
  PartnerApiError,
  PartnerClient,
  RefundStatus,
  VERIFICATION_METHODS,
  type PartnerClientOptions,
} from "../../src/client/index.js";
import { ManagementClient } from "../../../tests/support/sandbox-management.js";

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
  return ManagementClient.of(sandbox).call<T>(method, route, body);
}

async function failure(promise: Promise<unknown>): Promise<PartnerApiError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(PartnerApiError);
  return error as PartnerApiError;
}

// Money strings are exact two-place decimals: compare them as integer cents.
const cents = (money: string | undefined) => {
  const [whole = "", fraction = ""] = (money ?? "").replace("-", "").split(".");
  expect(money).toMatch(/^-?\d+\.\d{2}$/);
  return (BigInt(whole) * 100n + BigInt(fraction)) * (money!.startsWith("-") ? -1n : 1n);
};

describe("lifecycle against the sandbox", () => {
  it("account → products → create → records → apply → change method → status → download → cancel", async () => {
    const warnings: string[] = [];
    const c = client({ logger: { warn: (m) => warnings.push(m) } });
    const me = await c.getUserData();
    expect(me.user.username).toBe(sandbox.accounts[0]!.username);
    expect(sandbox.accounts[0]!.apiKey.startsWith(`${me.apiKey.appId}:`)).toBe(true);
    expect(cents(me.account.totalAvailable)).toBe(cents(me.account.balance) + cents(me.account.creditAvailable));
    const balanceBefore = me.account.balance;

    const products = await c.listAllProducts();
    const multi = products.find((p) => p.productCode === "sandbox-dv-multi");
    expect(multi).toMatchObject({ domainTypeCode: "multiple-single", verificationTypeCode: "dv" });
    expect(products.length).toBeGreaterThan(5);
    expect(products.every((p) => isDomainTypeCode(p.domainTypeCode))).toBe(true);
    // Walking small pages gives the same list as one big page.
    expect((await c.listAllProducts({ limit: 4 })).map((p) => p.productCode)).toEqual(products.map((p) => p.productCode));

    const order = await c.createOrder({ productCode: "sandbox-dv-multi", domain: "client-it.example.com", sanDomains: ["www.client-it.example.com"], months: 12 });
    expect(order.orderNo).toMatch(/^CERT\d+$/);
    const term = multi!.validYears.find((t) => t.months === 12)!;
    expect(order).toMatchObject({ unitPrice: term.price, extraSanCount: 1, months: 12, isCustomCsr: false });
    expect(cents(order.payableAmount)).toBe(cents(term.price) + cents(term.sanPrice ?? "0.00"));
    expect(cents((await c.getUserData()).account.balance)).toBe(cents(balanceBefore) - cents(order.deductAmount));

    const before = await c.getRecord({ orderNo: order.orderNo });
    expect(before).toMatchObject({
      orderNo: order.orderNo, certStatus: CertStatus.AwaitingSubmission, mainDomain: "client-it.example.com", sansDomains: ["www.client-it.example.com"],
      allDomainsCount: 2, dnsRecords: [], httpRecords: [], emailRecords: [],
    });

    const applied = await c.applySign({ orderNo: order.orderNo });
    expect(applied.certStatus).toBe(CertStatus.Issuing);
    expect(applied.requestId).toMatch(/^SIG-/);
    expect(applied.dnsRecords.map((r) => r.domain).sort()).toEqual(["client-it.example.com", "www.client-it.example.com"]);
    expect(applied.dnsRecords.every((r) => r.recordType === "TXT" && r.value.length > 0)).toBe(true);
    const stored = await c.getRecord({ orderNo: order.orderNo });
    // GetRecord adds the instruction text (hint); the records are otherwise the same.
    expect(stored.dnsRecords.map(({ hint: _, ...r }) => r)).toEqual(applied.dnsRecords.map(({ hint: _, ...r }) => r));

    const changed = await c.changeVerificationMethod({ orderNo: order.orderNo, method: "file" });
    expect(changed).toMatchObject({ verificationMethod: "file", dnsRecords: [], emailRecords: [] });
    expect(changed.httpRecords).toHaveLength(2);
    expect(changed.httpRecords.every((r) => r.recordType === "FILE" && r.path === `http:${r.link}` && r.path.endsWith(`/.well-known/pki-validation/${r.label}`) && r.content)).toBe(true);
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
    expect(cancelled).toMatchObject({ orderNo: order.orderNo, refundMode: "direct", refundStatus: RefundStatus.Approved, refundAmount: order.deductAmount });
    expect(cancelled.refundOrderNo).toMatch(/^REFUND\d+$/);
    expect(cancelled.upstreamCancel).toMatchObject({ success: true, skipped: false });
    expect(cancelled.upstreamCancel?.provider).toBeTruthy();
    expect((await c.getUserData()).account.balance).toBe(balanceBefore);

    const twice = await failure(c.cancelOrder({ orderNo: order.orderNo }));
    expect(twice).toMatchObject({ kind: "invalid_request", code: 400 });
    // The sandbox answers in the specification's shapes: nothing had to be left out or skipped.
    expect(warnings).toEqual([]);
  });

  it.each(VERIFICATION_METHODS.filter((m) => m !== "dcv"))("CreateOrder and ChangeVertificationMethod with method %s", async (method) => {
    // (The client drops a throwing logger's exception, so warnings are collected and checked, not thrown.)
    const warnings: string[] = [];
    const c = client({ logger: { warn: (m) => warnings.push(m) } });
    const order = await c.createOrder({ productCode: "sandbox-dv-single", domain: `${method}.method.example.com`, verificationMethod: method });
    const applied = await c.applySign({ orderNo: order.orderNo });
    expect(applied.verificationMethod).toBe(method);
    const records = applied.dnsRecords.length + applied.httpRecords.length + applied.emailRecords.length;
    expect(records).toBeGreaterThan(0);
    const other = method === "dns" ? "file" : "dns";
    expect((await c.changeVerificationMethod({ orderNo: order.orderNo, method: other })).verificationMethod).toBe(other);
    await c.cancelOrder({ orderNo: order.orderNo });
    expect(warnings).toEqual([]);
  });

  it("dcv on the product that supports it", async () => {
    const warnings: string[] = [];
    const c = client({ logger: { warn: (m) => warnings.push(m) } });
    const order = await c.createOrder({ productCode: "longlife-dv-multi", domain: "dcv.method.example.com", verificationMethod: "dcv" });
    expect((await c.applySign({ orderNo: order.orderNo })).verificationMethod).toBe("dcv");
    await c.cancelOrder({ orderNo: order.orderNo });
    expect(warnings).toEqual([]);
  });

  it("an OV order with company_info under the specification's member names", async () => {
    const warnings: string[] = [];
    const c = client({ logger: { warn: (m) => warnings.push(m) } });
    const order = await c.createOrder({
      productCode: "sandbox-ov-single", domain: "ov.client-it.example.com", months: 12, years: 1,
      companyInfo: {
        companyName: "Acme Widgets Ltd.", countryCode: "CN", contactFirst: "Zhang", contactLast: "San", email: "ops@acme.test",
        registrationNo: "91310000MA1FL0000X", province: "Shanghai", city: "Shanghai", address: "No. 1 Century Ave", postalCode: "200120",
        phone: "+86 21 0000 0000", contactTitle: "IT Manager", idNumber: "310000000000000000", countryName: "China",
      },
    });
    const stored = await mgmt<Record<string, any>>("GET", `/orders/${order.orderNo}`);
    expect(stored.company).toEqual({
      company_name: "Acme Widgets Ltd.", country_code: "CN", contact_first: "Zhang", contact_last: "San", email: "ops@acme.test",
      registration_no: "91310000MA1FL0000X", country_name: "China", province_pinyin: "Shanghai", city_pinyin: "Shanghai",
      address: "No. 1 Century Ave", postal_code: "200120", phone: "+86 21 0000 0000", contact_title: "IT Manager", id_number: "310000000000000000",
    });
    await c.cancelOrder({ orderNo: order.orderNo });
    expect(warnings).toEqual([]);
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
    expect(order.extraSanCount).toBe(2);
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
    const balance = (await c.getUserData()).account.balance;
    const badField = await failure(c.createOrder({ productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["*.example.com"] }));
    expect(badField).toMatchObject({ kind: "invalid_request", code: 400, field: "san_domains" });
    expect((await c.getUserData()).account.balance).toBe(balance);
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
    const balance = (await c.getUserData()).account.balance;
    const ordersBefore = (await mgmt<unknown[]>("GET", "/orders")).length;
    const error = await failure(c.createOrder({ productCode: "sandbox-dv-single", domain: `charged-${mode}.example.com` }));
    expect(error).toMatchObject({ kind: mode === "500" ? "server" : "network", mayHaveReachedServer: true, attempts: 1 });
    const orders = await mgmt<{ orderNo?: string; order_no?: string }[]>("GET", "/orders");
    expect(orders.length).toBe(ordersBefore + 1);
    expect(cents((await c.getUserData()).account.balance)).toBeLessThan(cents(balance));
  });
});
