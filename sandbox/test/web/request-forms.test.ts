import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/index.js";
import { call, COMPANY, DV_MULTI, mgmt, ok, withSandbox } from "../support/sandbox.js";

// What the sandbox accepts: both body encodings, the form conventions for
// lists and nested objects, the aliases, and "an empty field means absent".
let sb: RunningSandbox;
beforeAll(async () => {
  sb = await withSandbox({ issueAfterSeconds: 3600 });
});
afterAll(() => sb.stop());

const form = async (op: string, pairs: Array<[string, string]>): Promise<any> => {
  const body = new URLSearchParams([["apikey", sb.accounts[0]!.apiKey], ...pairs]).toString();
  const res = await fetch(`${sb.url}/partner/${op}/`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
  return res.json();
};
const order = async (no: string): Promise<any> => (await mgmt(sb, "GET", `/orders/${no}`)).body;

describe("body encodings", () => {
  it.each(["form", "json"] as const)("runs a whole order in %s", async (encoding) => {
    const created = await call(sb, "CreateOrder", { ...DV_MULTI, verification_method: "file" }, { encoding });
    expect(created.code, created.message).toBe(200);
    const order_no = created.data.order_no;
    expect((await call(sb, "ApplySign", { order_no }, { encoding })).data.http_records).toHaveLength(2);
    expect((await call(sb, "GetRecord", { order_no }, { encoding })).data.all_domains).toEqual(["example.com", "www.example.com"]);
    expect((await call(sb, "ChangeVertificationMethod", { order_no, method: "dns", email_suffix: "" }, { encoding })).data.dns_records).toHaveLength(2);
    expect((await call(sb, "GetCertificateStatus", { order_no }, { encoding })).data.cert_status).toBe(2);
    expect((await call(sb, "CancelOrder", { order_no, reason: "" }, { encoding })).data.refund_mode).toBe("direct");
    expect((await call(sb, "GetUserProduct", { product_code: "sandbox-dv-multi" }, { encoding })).data.products.total).toBe(1);
  });

  it("a form body without a Content-Type is read as a form", async () => {
    const body = new URLSearchParams({ apikey: sb.accounts[0]!.apiKey }).toString();
    const res = await fetch(`${sb.url}/partner/GetUserData/`, { method: "POST", body, headers: { "content-type": "" } });
    expect(((await res.json()) as any).code).toBe(200);
  });
});

describe("an empty field means absent (spec 4.3)", () => {
  it("CreateOrder with every optional field of spec 4.3 sent empty uses the defaults", async () => {
    const empty = ["product_id", "company_id", "company_info", "custom_csr", "years", "signature_algorithm", "key_spec", "hash_algorithm", "verification_method", "payment_method", "coupon_type", "coupon_id", "coupon_code"];
    const d = await form("CreateOrder", [
      ["product_code", "sandbox-dv-multi"], ["domain", "example.com"], ["san_domains", ""], ["wildcard_domains", ""], ["months", "12"],
      ...empty.map((k): [string, string] => [k, ""]),
    ]);
    expect(d.code, d.message).toBe(200);
    expect(d.data).toMatchObject({ months: 12, years: 1, payment_method: "balance", is_custom_csr: false, discount_amount: 0, total_domains: 1 });
    const o = await order(d.data.order_no);
    expect(o.domains).toEqual(["example.com"]);
    expect(o.certificates[0].method).toBe("dns");
  });

  it("ApplySign with an empty csr field is no CSR; a non-empty one is refused", async () => {
    const { order_no } = await ok(sb, "CreateOrder", DV_MULTI);
    expect((await call(sb, "ApplySign", { order_no, csr: "", custom_csr: "" })).code).toBe(200);
    const { order_no: other } = await ok(sb, "CreateOrder", DV_MULTI);
    const refused = await call(sb, "ApplySign", { order_no: other, custom_csr: "-----BEGIN CERTIFICATE REQUEST-----" });
    expect(refused).toMatchObject({ code: 400, data: { field: "custom_csr" } });
  });
});

describe("aliases", () => {
  it("main_domain for domain, wc_domains for wildcard_domains, product_id for product_code", async () => {
    const d = await ok(sb, "CreateOrder", { product_id: 105, main_domain: "example.com", wc_domains: ["*.example.com"] });
    const o = await order(d.order_no);
    expect(o.productCode).toBe("sandbox-dv-flex");
    expect(o.domains).toEqual(["example.com", "*.example.com"]);
  });

  it("order_number for order_no", async () => {
    const { order_no } = await ok(sb, "CreateOrder", DV_MULTI);
    expect((await ok(sb, "ApplySign", { order_number: order_no })).order_no).toBe(order_no);
  });

  it("email plus email_suffix for the e-mail method codes, in CreateOrder and the method change", async () => {
    const { order_no } = await ok(sb, "CreateOrder", { ...DV_MULTI, verification_method: "email", email_suffix: "webmaster" });
    expect((await ok(sb, "ApplySign", { order_no })).verification_method).toBe("email-webmaster");
    const { order_no: plain } = await ok(sb, "CreateOrder", { ...DV_MULTI, verification_method: "email" });
    expect((await ok(sb, "GetRecord", { order_no: plain })).verification_method).toBe("email-admin");
  });

  it("company_info members by spec 2.4 aliases, as nested form fields", async () => {
    const { registration_no: _r, province_pinyin: _p, city_pinyin: _c, ...required } = COMPANY;
    const pairs: Array<[string, string]> = [
      ["product_code", "sandbox-ov-single"], ["domain", "example.com"],
      ...Object.entries(required).map(([k, v]): [string, string] => [`company_info[${k}]`, v]),
      ["company_info[registration_number]", "HRB 999"], ["company_info[province]", "Bayern"], ["company_info[city]", "Muenchen"],
      ["company_info[contact_title]", "CTO"],
    ];
    const d = await form("CreateOrder", pairs);
    expect(d.code, d.message).toBe(200);
    expect((await order(d.data.order_no)).company).toEqual({
      ...required, registration_no: "HRB 999", province_pinyin: "Bayern", city_pinyin: "Muenchen", contact_title: "CTO",
    });
  });

  it("the member's own name wins over its alias; a company object and top-level fields are read too", async () => {
    const d = await ok(sb, "CreateOrder", { product_code: "sandbox-ov-single", domain: "example.com", company: { ...COMPANY, city: "ignored" } });
    expect((await order(d.order_no)).company.city_pinyin).toBe("Berlin");
    const top = await ok(sb, "CreateOrder", { product_code: "sandbox-ov-single", domain: "example.com", ...COMPANY, country_code: "de" });
    expect((await order(top.order_no)).company.country_code).toBe("DE");
  });
});
