import { describe, expect, it } from "vitest";
import type { CompanyInfo, CreateOrderRequest } from "../../src/client/index.js";
import { VERIFICATION_METHODS } from "../../src/client/index.js";
import { apiError, ok } from "../support/partner-api/index.js";
import { answerFrom, expectSpecRequest, failure, fieldsOf, getPath, useContractClients, type FieldRow } from "./support/contract.js";

// Spec 4.3 CreateOrder (request fields and answer) and spec 2.4 company_info.

const contract = useContractClients();
const ORDER_NO = "CERT202607041730001234";

// Spec 4.3's request table: public field, value given, wire pairs expected (form).
const REQUEST_FIELDS: [camel: string, value: unknown, wire: [string, string][]][] = [
  ["productCode", "acme-ov-multi", [["product_code", "acme-ov-multi"]]],
  ["domain", "example.com", [["domain", "example.com"]]],
  ["companyId", 42, [["company_id", "42"]]],
  ["sanDomains", ["www.example.com", "api.example.com"], [["san_domains", "www.example.com"], ["san_domains", "api.example.com"]]],
  ["wildcardDomains", ["*.example.net"], [["wildcard_domains", "*.example.net"]]],
  ["customCsr", "-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----\n", [["custom_csr", "-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----\n"]]],
  ["months", 12, [["months", "12"]]],
  ["years", 2, [["years", "2"]]],
  ["signatureAlgorithm", "rsa", [["signature_algorithm", "rsa"]]],
  ["keySpec", "rsa-2048", [["key_spec", "rsa-2048"]]],
  ["hashAlgorithm", "sha256", [["hash_algorithm", "sha256"]]],
  ["verificationMethod", "dns", [["verification_method", "dns"]]],
  ["paymentMethod", "credit", [["payment_method", "credit"]]],
  ["couponType", "coupon", [["coupon_type", "coupon"]]],
  ["couponId", 7, [["coupon_id", "7"]]],
];

const FULL_REQUEST = Object.fromEntries(REQUEST_FIELDS.map(([camel, value]) => [camel, value])) as unknown as CreateOrderRequest;

// Spec 2.4's table: public member, value, wire member.
const COMPANY_MEMBERS: [camel: keyof CompanyInfo, value: string, wire: string][] = [
  ["companyName", "Acme Widgets Ltd.", "company_name"],
  ["countryCode", "CN", "country_code"],
  ["contactFirst", "Zhang", "contact_first"],
  ["contactLast", "San", "contact_last"],
  ["email", "ops@acme.test", "email"],
  ["registrationNo", "91310000MA1FL0000X", "registration_no"],
  ["countryName", "China", "country_name"],
  ["province", "Shanghai", "province_pinyin"],
  ["city", "Shanghai", "city_pinyin"],
  ["address", "No. 1 Century Ave", "address"],
  ["postalCode", "200120", "postal_code"],
  ["phone", "+86 21 0000 0000", "phone"],
  ["contactTitle", "IT Manager", "contact_title"],
  ["idNumber", "310000000000000000", "id_number"],
];
const COMPANY = Object.fromEntries(COMPANY_MEMBERS.map(([camel, value]) => [camel, value])) as unknown as CompanyInfo;
const REQUIRED_MEMBERS = ["companyName", "countryCode", "contactFirst", "contactLast", "email"] as const;

// Spec 4.3's answer table, money as numbers.
const ANSWER_FIELDS: FieldRow[] = [
  ["order_no", ORDER_NO, "orderNo", ORDER_NO],
  ["total_amount", 140, "totalAmount", "140.00"],
  ["discount_amount", 20, "discountAmount", "20.00"],
  ["payable_amount", 120, "payableAmount", "120.00"],
  ["unit_price", 100, "unitPrice", "100.00"],
  ["san_price", 20, "sanPrice", "20.00"],
  ["wildcard_price", 0, "wildcardPrice", "0.00"],
  ["extra_san_count", 1, "extraSanCount", 1],
  ["extra_wc_count", 0, "extraWcCount", 0],
  ["installments_count", 2, "installmentsCount", 2],
  ["total_domains", 2, "totalDomains", 2],
  ["years", 1, "years", 1],
  ["months", 12, "months", 12],
  ["payment_method", "credit", "paymentMethod", "credit"],
  ["deduct_amount", 120, "deductAmount", "120.00"],
  ["is_custom_csr", false, "isCustomCsr", false],
];
const SPEC_ANSWER = answerFrom(ANSWER_FIELDS);

describe("spec 4.3 CreateOrder: the request", () => {
  it("POST /partner/CreateOrder/, form body, apikey, every given field under its spec name", async () => {
    contract.server.answer(ok(SPEC_ANSWER));
    await contract.client().createOrder(FULL_REQUEST);
    const request = contract.only();
    expectSpecRequest(request, "CreateOrder");
    expect(fieldsOf(request)).toEqual(REQUEST_FIELDS.flatMap(([, , wire]) => wire));
  });

  it.each(REQUEST_FIELDS)("%s = %j is sent as %j", async (camel, value, wire) => {
    contract.server.answer(ok(SPEC_ANSWER));
    const base: Record<string, unknown> = { productCode: "acme-dv", domain: "example.com" };
    const extra: Record<string, unknown> = camel === "couponType" ? { couponId: 7 } : camel === "couponId" ? { couponType: "coupon" } : {};
    await contract.client().createOrder({ ...base, ...extra, [camel]: value } as unknown as CreateOrderRequest);
    const sent = fieldsOf(contract.only());
    for (const pair of wire) expect(sent).toContainEqual(pair);
  });

  it("productId, couponType code + couponCode", async () => {
    contract.server.answer(ok(SPEC_ANSWER));
    await contract.client().createOrder({ productId: 9, domain: "203.0.113.10", couponType: "code", couponCode: "WELCOME10" });
    expect(fieldsOf(contract.only())).toEqual([["product_id", "9"], ["domain", "203.0.113.10"], ["coupon_type", "code"], ["coupon_code", "WELCOME10"]]);
  });

  it("months and years are both passed through as given (the service reads months first)", async () => {
    contract.server.answer(ok(SPEC_ANSWER));
    await contract.client().createOrder({ productCode: "p", domain: "example.com", months: 24, years: 1 });
    expect(fieldsOf(contract.only())).toEqual([["product_code", "p"], ["domain", "example.com"], ["months", "24"], ["years", "1"]]);
  });

  it.each(VERIFICATION_METHODS)("verification_method %s (every spec 4.5 code) is accepted and sent", async (method) => {
    contract.server.answer(ok(SPEC_ANSWER));
    await contract.client().createOrder({ productCode: "p", domain: "example.com", verificationMethod: method });
    expect(fieldsOf(contract.only())).toContainEqual(["verification_method", method]);
  });

  it.each([
    [{ verificationMethod: "https" }, "verificationMethod", "must be one of dns, cname, file, email-admin"],
    [{ verificationMethod: "email" }, "verificationMethod", "must be one of"],
    [{ emailSuffix: "admin" }, "emailSuffix", "is not a known field"],
    [{ remark: "x" }, "remark", "is not a known field"],
    [{ signatureAlgorithm: "ecc", keySpec: "rsa-2048" }, "keySpec", "must be a key spec of signatureAlgorithm ecc"],
    [{ years: 0 }, "years", "must be positive"],
    [{ paymentMethod: "card" }, "paymentMethod", "must be one of balance, credit"],
  ])("refused before sending: %j → %s", async (extra, field, rule) => {
    const error = await failure(contract.client().createOrder({ productCode: "p", domain: "example.com", ...extra } as unknown as CreateOrderRequest));
    expect(error).toMatchObject({ kind: "invalid_argument", operation: "CreateOrder", field, mayHaveReachedServer: false });
    expect(error.message).toContain(rule);
    expect(contract.server.requests).toHaveLength(0);
  });

  it("JSON encoding (optional): the same names, arrays and company_info native", async () => {
    contract.server.answer(ok(SPEC_ANSWER));
    await contract.client({ encoding: "json" }).createOrder({ productCode: "p", domain: "example.com", sanDomains: ["a.example.com"], companyInfo: COMPANY, months: 12 });
    const request = contract.only();
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.json).toEqual({
      product_code: "p", domain: "example.com", san_domains: ["a.example.com"], months: 12, apikey: expect.any(String),
      company_info: Object.fromEntries(COMPANY_MEMBERS.map(([, value, wire]) => [wire, value])),
    });
  });
});

describe("spec 2.4 company_info on the wire", () => {
  it("every member under its spec name, nested as company_info[member]", async () => {
    contract.server.answer(ok(SPEC_ANSWER));
    await contract.client().createOrder({ productCode: "acme-ov", domain: "example.com", companyInfo: COMPANY });
    const companyPairs = fieldsOf(contract.only()).filter(([k]) => k.startsWith("company_info["));
    expect(companyPairs).toEqual(COMPANY_MEMBERS.map(([, value, wire]) => [`company_info[${wire}]`, value]));
  });

  it.each(COMPANY_MEMBERS)("%s → company_info[%s]", async (camel, value, wire) => {
    contract.server.answer(ok(SPEC_ANSWER));
    const minimal = Object.fromEntries(REQUIRED_MEMBERS.map((m) => [m, COMPANY[m]]));
    await contract.client().createOrder({ productCode: "acme-ov", domain: "example.com", companyInfo: { ...minimal, [camel]: value } as unknown as CompanyInfo });
    expect(fieldsOf(contract.only())).toContainEqual([`company_info[${wire}]`, value]);
  });

  it("only the five required members: nothing else is sent", async () => {
    contract.server.answer(ok(SPEC_ANSWER));
    const minimal = Object.fromEntries(REQUIRED_MEMBERS.map((m) => [m, COMPANY[m]])) as unknown as CompanyInfo;
    await contract.client().createOrder({ productCode: "acme-ov", domain: "example.com", companyInfo: minimal });
    expect(fieldsOf(contract.only()).filter(([k]) => k.startsWith("company_info[")).map(([k]) => k)).toEqual([
      "company_info[company_name]", "company_info[country_code]", "company_info[contact_first]", "company_info[contact_last]", "company_info[email]",
    ]);
  });

  it.each(REQUIRED_MEMBERS)("required member %s missing → refused before sending, naming it", async (member) => {
    const { [member]: _, ...rest } = COMPANY;
    const error = await failure(contract.client().createOrder({ productCode: "p", domain: "example.com", companyInfo: rest as CompanyInfo }));
    expect(error).toMatchObject({ kind: "invalid_argument", field: `companyInfo.${member}`, mayHaveReachedServer: false });
    expect(error.message).toContain("is required");
    expect(contract.server.requests).toHaveLength(0);
  });

  it.each([
    [{ countryCode: "China" }, "companyInfo.countryCode", "two-letter"],
    [{ email: "not-an-address" }, "companyInfo.email", "e-mail address"],
    [{ registrationNumber: "X" }, "companyInfo.registrationNumber", "is not a known field"],
  ])("bad member %j → %s", async (bad, field, rule) => {
    const error = await failure(contract.client().createOrder({ productCode: "p", domain: "example.com", companyInfo: { ...COMPANY, ...bad } as CompanyInfo }));
    expect(error).toMatchObject({ kind: "invalid_argument", field });
    expect(error.message).toContain(rule);
  });
});

describe("spec 4.3 CreateOrder: the answer", () => {
  it.each(ANSWER_FIELDS)("%s = %j → %s = %j", async (_wire, _value, camel, expected) => {
    contract.server.answer(ok(SPEC_ANSWER));
    const order = await contract.client().createOrder({ productCode: "p", domain: "example.com" });
    expect(getPath(order, camel)).toEqual(expected);
  });

  it("a complete answer is read without a warning and yields exactly the spec's fields", async () => {
    contract.server.answer(ok(SPEC_ANSWER));
    const order = await contract.client().createOrder({ productCode: "p", domain: "example.com" });
    expect(Object.keys(order)).toHaveLength(ANSWER_FIELDS.length);
    expect(contract.warnings).toEqual([]);
  });

  it("an answer with only order_no is a success (the account is charged): the rest is reported, not thrown", async () => {
    contract.server.answer(ok({ order_no: ORDER_NO }));
    const order = await contract.client().createOrder({ productCode: "p", domain: "example.com" });
    expect(order).toEqual({ orderNo: ORDER_NO });
    expect(contract.warnings).toHaveLength(ANSWER_FIELDS.length - 1);
    expect(contract.warnings[0]).toBe("CreateOrder: data.total_amount: is missing; left out");
  });

  it("unreadable amounts are left out and reported, never rounded, never an error", async () => {
    contract.server.answer(ok({ ...SPEC_ANSWER, total_amount: "lots", payable_amount: 120.005, unknown_future: { a: 1 }, payment_method: "wallet" }));
    const order = await contract.client().createOrder({ productCode: "p", domain: "example.com" });
    expect(order.orderNo).toBe(ORDER_NO);
    expect(order).not.toHaveProperty("totalAmount");
    expect(order).not.toHaveProperty("payableAmount");
    expect(order.paymentMethod).toBe("wallet");
    expect(contract.warnings).toEqual([
      expect.stringMatching(/^CreateOrder: data\.total_amount: expected an amount.*; left out$/),
      expect.stringMatching(/^CreateOrder: data\.payable_amount: expected an amount.*; left out$/),
    ]);
  });

  it("an answer without order_no is the one case that may have charged without saying which order", async () => {
    contract.server.answer(ok({ total_amount: 120 }));
    const error = await failure(contract.client().createOrder({ productCode: "p", domain: "example.com" }));
    expect(error).toMatchObject({ kind: "malformed_response", field: "data.order_no", mayHaveReachedServer: true, orderNo: undefined });
  });

  it("a refusal by the API (code 400) is invalid_request naming the field", async () => {
    contract.server.answer(apiError(400, "余额不足", { field: "payment_method" }));
    expect(await failure(contract.client().createOrder({ productCode: "p", domain: "example.com" }))).toMatchObject({
      kind: "invalid_request", code: 400, field: "payment_method",
    });
  });
});
