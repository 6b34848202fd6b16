import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/index.js";
import { call, COMPANY, DV_MULTI, mgmt, ok, opensslCsr, withSandbox } from "./helpers.js";

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await withSandbox({ accounts: [{ username: "buyer", balance: "100000.00", creditLine: "1000.00" }, { username: "poor", balance: "50.00", creditLine: "0" }] });
});
afterAll(() => sb.stop());

async function orderCount(): Promise<number> {
  return (await mgmt(sb, "GET", "/orders")).body.length;
}

describe("CreateOrder refusals name the field and move no money", () => {
  const cases: Array<[string, Record<string, unknown>, string, RegExp?]> = [
    ["no product", { domain: "example.com" }, "product_code"],
    ["product_id mismatching product_code", { product_code: "sandbox-dv-multi", product_id: 101, domain: "example.com" }, "product_id"],
    ["no domain", { product_code: "sandbox-dv-single" }, "domain"],
    ["bad domain", { product_code: "sandbox-dv-single", domain: "exa_mple..com" }, "domain"],
    ["single-label domain", { product_code: "sandbox-dv-single", domain: "localhost" }, "domain"],
    ["single with SAN", { product_code: "sandbox-dv-single", domain: "example.com", san_domains: ["www.example.com"] }, "san_domains"],
    ["single with wildcard main", { product_code: "sandbox-dv-single", domain: "*.example.com" }, "domain"],
    ["multi with wildcard in san_domains", { ...DV_MULTI, san_domains: ["*.example.com"] }, "san_domains", /wildcard_domains/],
    ["multi with wildcard_domains", { ...DV_MULTI, wildcard_domains: ["*.example.com"] }, "wildcard_domains"],
    ["multi over max", { ...DV_MULTI, san_domains: Array.from({ length: 10 }, (_, i) => `s${i}.example.com`) }, "san_domains", /exceed the maximum of 10/],
    ["duplicate SAN", { ...DV_MULTI, san_domains: ["www.example.com", "WWW.example.com"] }, "san_domains", /more than once/],
    ["SAN equal to main", { ...DV_MULTI, san_domains: ["Example.com"] }, "san_domains"],
    ["wildcard with plain main", { product_code: "sandbox-dv-wildcard", domain: "example.com" }, "domain"],
    ["wildcard with extra wildcard", { product_code: "sandbox-dv-wildcard", domain: "*.example.com", wildcard_domains: ["*.b.example.com"] }, "wildcard_domains"],
    ["bad wildcard position", { product_code: "sandbox-dv-wildcard", domain: "www.*.example.com" }, "domain"],
    ["multi-wildcard with FQDN in wildcard_domains", { product_code: "sandbox-dv-multi-wildcard", domain: "*.example.com", wildcard_domains: ["www.example.com"] }, "wildcard_domains"],
    ["multi-wildcard via alias wc_domains over max", { product_code: "sandbox-dv-multi-wildcard", domain: "*.example.com", wc_domains: ["*.a.example.com", "*.b.example.com", "*.c.example.com", "*.d.example.com", "*.e.example.com"] }, "wc_domains"],
    ["multi-wildcard with san", { product_code: "sandbox-dv-multi-wildcard", domain: "*.example.com", san_domains: ["www.example.com"] }, "san_domains"],
    ["flex over wildcard max", { product_code: "sandbox-dv-flex", domain: "example.com", wildcard_domains: ["*.a.example.com", "*.b.example.com", "*.c.example.com", "*.d.example.com", "*.e.example.com", "*.f.example.com"] }, "wildcard_domains"],
    ["ip with domain name", { product_code: "sandbox-dv-ip", domain: "example.com" }, "domain"],
    ["ip private", { product_code: "sandbox-dv-ip", domain: "192.168.1.10" }, "domain", /private/],
    ["ip loopback", { product_code: "sandbox-dv-ip", domain: "127.0.0.1" }, "domain", /loopback/],
    ["ip v6 loopback", { product_code: "sandbox-dv-ip", domain: "::1" }, "domain"],
    ["ip_multi with FQDN SAN", { product_code: "sandbox-dv-ip-multi", domain: "8.8.8.8", san_domains: ["example.com"] }, "san_domains"],
    ["ip_multi reserved SAN", { product_code: "sandbox-dv-ip-multi", domain: "8.8.8.8", san_domains: ["10.0.0.1"] }, "domain_or_san", /private/],
    ["multi with IP SAN", { ...DV_MULTI, san_domains: ["8.8.8.8"] }, "san_domains"],
    ["unsupported term", { ...DV_MULTI, months: 18 }, "months"],
    ["unsupported years", { product_code: "sandbox-dv-ip", domain: "8.8.8.8", years: 2 }, "years"],
    ["sm2", { ...DV_MULTI, signature_algorithm: "sm2" }, "signature_algorithm"],
    ["ecc on an rsa-only product", { product_code: "example-dv-single", domain: "example.com", signature_algorithm: "ecc" }, "signature_algorithm"],
    ["key spec of the other algorithm", { ...DV_MULTI, signature_algorithm: "rsa", key_spec: "p-256" }, "key_spec"],
    ["key spec the product lacks", { product_code: "example-dv-single", domain: "example.com", key_spec: "rsa-3072" }, "key_spec"],
    ["unknown key spec", { ...DV_MULTI, key_spec: "rsa-1024" }, "key_spec"],
    ["hash the product lacks", { product_code: "sandbox-dv-ip", domain: "8.8.8.8", hash_algorithm: "sha384" }, "hash_algorithm"],
    ["method the product lacks", { product_code: "sandbox-dv-ip", domain: "8.8.8.8", verification_method: "dns" }, "verification_method"],
    ["unknown method", { ...DV_MULTI, verification_method: "carrier-pigeon" }, "verification_method"],
    ["file method for a wildcard", { product_code: "sandbox-dv-flex", domain: "example.com", wildcard_domains: ["*.example.com"], verification_method: "file" }, "verification_method"],
    ["bad email suffix", { ...DV_MULTI, verification_method: "email", email_suffix: "ceo" }, "email_suffix"],
    ["OV without company", { product_code: "sandbox-ov-single", domain: "example.com" }, "company_info"],
    ["OV with incomplete company_info", { product_code: "sandbox-ov-single", domain: "example.com", company_info: { ...COMPANY, contact_phone: "" } }, "company_info.contact_phone"],
    ["OV with bad country", { product_code: "sandbox-ov-single", domain: "example.com", company_info: { ...COMPANY, country: "Germany" } }, "company_info.country"],
    ["OV with bad contact email", { product_code: "sandbox-ov-single", domain: "example.com", company: { ...COMPANY, contact_email: "nope" } }, "company.contact_email"],
    ["EV with top-level company fields missing one", { product_code: "sandbox-ev-single", domain: "example.com", ...COMPANY, city: undefined }, "city"],
    ["bad company_id", { product_code: "sandbox-ov-single", domain: "example.com", company_id: "abc" }, "company_id"],
    ["bad payment method", { ...DV_MULTI, payment_method: "card" }, "payment_method"],
    ["credit beyond the line", { product_code: "sandbox-ev-single", domain: "example.com", company_id: 7, payment_method: "credit" }, "payment_method", /insufficient credit/],
    ["unknown coupon code", { ...DV_MULTI, coupon_code: "FREE" }, "coupon_code"],
    ["coupon type without id", { ...DV_MULTI, coupon_type: "coupon" }, "coupon_id"],
    ["months not an integer", { ...DV_MULTI, months: "twelve" }, "months"],
  ];

  it.each(cases)("%s", async (_name, body, field, message) => {
    const before = await ok(sb, "GetUserData");
    const countBefore = await orderCount();
    const env = await call(sb, "CreateOrder", body);
    expect(env.code, env.message).toBe(400);
    if (field !== "domain_or_san") expect(env.data.field).toBe(field);
    expect(env.message).toContain(field === "domain_or_san" ? "10.0.0.1" : field.split(".").pop());
    if (message) expect(env.message).toMatch(message);
    const after = await ok(sb, "GetUserData");
    expect(after.user.balance).toBe(before.user.balance);
    expect(after.user.credit_used).toBe(before.user.credit_used);
    expect(await orderCount()).toBe(countBefore);
  });

  it("unknown product answers 404", async () => {
    const env = await call(sb, "CreateOrder", { product_code: "nope", domain: "example.com" });
    expect(env.code).toBe(404);
    expect(env.data.field).toBe("product_code");
  });

  it("insufficient balance is refused without drawing on credit", async () => {
    const poor = sb.accounts.find((a) => a.username === "poor")!.apiKey;
    const env = await call(sb, "CreateOrder", DV_MULTI, { key: poor });
    expect(env.code).toBe(400);
    expect(env.data.field).toBe("payment_method");
    expect(env.message).toMatch(/insufficient balance/);
  });
});

describe("CreateOrder success", () => {
  it("charges the balance with the price breakdown, SAN and wildcard extras and installments", async () => {
    const before = await ok(sb, "GetUserData");
    const d = await ok(sb, "CreateOrder", {
      product_code: "sandbox-dv-flex", domain: "example.com", san_domains: ["www.example.com", "api.example.com"],
      wildcard_domains: ["*.example.com"], months: 24,
    });
    // flex, 24 months: base 150*1.9=285, SAN 20*1.9=38, wildcard 300*1.9=570.
    expect(d.price).toEqual({
      base_price: "285.00", san_count: 2, san_price: "38.00", san_total: "76.00", wildcard_count: 1,
      wildcard_price: "570.00", wildcard_total: "570.00", discount: "0.00", total: "931.00",
    });
    expect(d).toMatchObject({ order_status: 1, cert_status: 0, months: 24, years: 2, installments_count: 2, amount: "931.00", signature_algorithm: "rsa", key_spec: "rsa-2048", hash_algorithm: "sha256", verification_method: "dns", payment_method: "balance" });
    expect(d.order_no).toMatch(/^CERT\d{18}$/);
    expect(d.paid_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(Number(d.balance_after)).toBeCloseTo(Number(before.user.balance) - 931, 2);
  });

  it("a brand with a 36-month maximum needs one installment; defaults follow the product", async () => {
    const d = await ok(sb, "CreateOrder", { product_code: "longlife-dv-multi", domain: "example.org", years: 3, signature_algorithm: "ecc" });
    expect(d).toMatchObject({ months: 36, installments_count: 1, key_spec: "p-256", verification_method: "cname" });
  });

  it("pays from credit when asked, and applies coupons", async () => {
    const before = await ok(sb, "GetUserData");
    const d = await ok(sb, "CreateOrder", { ...DV_MULTI, payment_method: "credit", coupon_type: "code", coupon_code: "sandbox10" });
    expect(d.price).toMatchObject({ discount: "12.00", total: "108.00" });
    expect(d.balance_after).toBe(before.user.balance);
    expect(Number(d.credit_available_after)).toBeCloseTo(Number(before.user.credit_available) - 108, 2);
    const byId = await ok(sb, "CreateOrder", { ...DV_MULTI, coupon_type: "coupon", coupon_id: 2 });
    expect(byId.price.discount).toBe("24.00");
  });

  it("accepts company information as company_info, company, top-level fields or company_id, in JSON and form bodies", async () => {
    const ov = { product_code: "sandbox-ov-single", domain: "example.net" };
    for (const encoding of ["json", "form"] as const) {
      expect((await call(sb, "CreateOrder", { ...ov, company_info: COMPANY }, { encoding })).code).toBe(200);
      expect((await call(sb, "CreateOrder", { ...ov, company: COMPANY }, { encoding })).code).toBe(200);
      expect((await call(sb, "CreateOrder", { ...ov, ...COMPANY }, { encoding })).code).toBe(200);
      expect((await call(sb, "CreateOrder", { ...ov, company_id: 42 }, { encoding })).code).toBe(200);
    }
  });

  it("reads form arrays as repeated keys, key[] and comma lists; product_id and main_domain aliases", async () => {
    const body = `apikey=${encodeURIComponent(sb.accounts[0]!.apiKey)}&product_id=102&main_domain=example.com&san_domains=a.example.com&san_domains=b.example.com`;
    const res = await fetch(`${sb.url}/partner/CreateOrder/`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
    const env = await res.json();
    expect(env.code, env.message).toBe(200);
    expect(env.data.san_domains).toEqual(["a.example.com", "b.example.com"]);
    const env2 = await call(sb, "CreateOrder", { ...DV_MULTI, san_domains: ["x.example.com", "y.example.com"] }, { encoding: "form" });
    expect(env2.data.san_domains).toEqual(["x.example.com", "y.example.com"]);
    const env3 = await call(sb, "CreateOrder", { ...DV_MULTI, san_domains: "p.example.com,q.example.com" });
    expect(env3.data.san_domains).toEqual(["p.example.com", "q.example.com"]);
    const env4 = await call(sb, "CreateOrder", { ...DV_MULTI, san_domains: '["j.example.com","k.example.com"]' }, { encoding: "form" });
    expect(env4.data.san_domains).toEqual(["j.example.com", "k.example.com"]);
    const ov = await call(sb, "CreateOrder", { product_code: "sandbox-ov-single", domain: "example.com", company_info: JSON.stringify(COMPANY) }, { encoding: "form" });
    expect(ov.code, ov.message).toBe(200);
    const broken = await call(sb, "CreateOrder", { ...DV_MULTI, san_domains: '["j.example.com"' });
    expect(broken.data.field).toBe("san_domains");
  });

  it("accepts public IPs for ip products", async () => {
    const d = await ok(sb, "CreateOrder", { product_code: "sandbox-dv-ip-multi", domain: "8.8.8.8", san_domains: ["1.1.1.1", "2606:4700:4700::1111"] });
    expect(d.verification_method).toBe("file");
    expect(d.price.san_count).toBe(2);
  });
});

describe("CreateOrder with custom_csr", () => {
  it("accepts a CSR whose names and key match, taking the key spec from it", async () => {
    const csr = opensslCsr({ cn: "example.com", sans: ["example.com", "www.example.com"], key: "ec-p384" });
    const d = await ok(sb, "CreateOrder", { ...DV_MULTI, custom_csr: csr });
    expect(d).toMatchObject({ signature_algorithm: "ecc", key_spec: "p-384" });
  });

  it("accepts an OV CSR whose organisation is the company name", async () => {
    const csr = opensslCsr({ cn: "example.com", org: COMPANY.company_name });
    expect((await call(sb, "CreateOrder", { product_code: "sandbox-ov-single", domain: "example.com", company_info: COMPANY, custom_csr: csr })).code).toBe(200);
  });

  it("refuses mismatches, naming custom_csr", async () => {
    const wrongCn = opensslCsr({ cn: "other.com" });
    const missingSan = opensslCsr({ cn: "example.com", sans: ["example.com"] });
    const extraSan = opensslCsr({ cn: "example.com", sans: ["example.com", "www.example.com", "evil.com"] });
    const wrongOrg = opensslCsr({ cn: "example.com", org: "Someone Else Ltd" });
    const eccKey = opensslCsr({ cn: "example.com", key: "ec-p256" });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ product_code: "sandbox-dv-single", domain: "example.com", custom_csr: wrongCn }, /CN "other.com"/],
      [{ ...DV_MULTI, custom_csr: missingSan }, /lacks ordered names: www.example.com/],
      [{ ...DV_MULTI, custom_csr: extraSan }, /evil.com/],
      [{ product_code: "sandbox-ov-single", domain: "example.com", company_info: COMPANY, custom_csr: wrongOrg }, /organisation/],
      [{ product_code: "sandbox-dv-single", domain: "example.com", signature_algorithm: "rsa", custom_csr: eccKey }, /ECC key/],
      [{ product_code: "example-dv-single", domain: "example.com", custom_csr: eccKey }, /not supported/],
      [{ product_code: "sandbox-dv-single", domain: "example.com", custom_csr: "-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----" }, /not a usable/],
      [{ product_code: "sandbox-dv-single", domain: "example.com", custom_csr: "hello" }, /not a usable/],
    ];
    for (const [body, msg] of cases) {
      const env = await call(sb, "CreateOrder", body);
      expect(env.code, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(env.data.field).toBe("custom_csr");
      expect(env.message).toMatch(msg);
    }
  });
});
