import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/index.js";
import { opensslCsr } from "../../../tests/support/openssl.js";
import { call, COMPANY, DV_MULTI, mgmt, ok, withSandbox } from "../support/sandbox.js";

let sb: RunningSandbox;
beforeAll(async () => {
  // Bought in the 200-day period of the CA/B schedule, whatever day the tests run.
  sb = await withSandbox({ clockStart: "2026-06-01T00:00:00Z", accounts: [{ username: "buyer", balance: "100000.00", creditLine: "1000.00" }, { username: "poor", balance: "50.00", creditLine: "0" }] });
});
afterAll(() => sb.stop());

async function orderCount(): Promise<number> {
  return (await mgmt(sb, "GET", "/orders")).body.length;
}

describe("CreateOrder refusals name the field and move no money", () => {
  const V6 = "2606:4700:4700::1111";
  const cases: Array<[string, Record<string, unknown>, string, RegExp?]> = [
    ["no product", { domain: "example.com" }, "product_code"],
    ["empty product fields", { product_code: "", product_id: "", domain: "example.com" }, "product_code"],
    ["product_id mismatching product_code", { product_code: "sandbox-dv-multi", product_id: 101, domain: "example.com" }, "product_id"],
    ["no domain", { product_code: "sandbox-dv-single" }, "domain"],
    ["blank domain", { product_code: "sandbox-dv-single", domain: "  " }, "domain"],
    ["bad domain", { product_code: "sandbox-dv-single", domain: "exa_mple..com" }, "domain"],
    ["single-label domain", { product_code: "sandbox-dv-single", domain: "localhost" }, "domain"],
    // spec 2.3 single: exactly one plain domain; san_domains and wildcard_domains must not be sent.
    ["single with san_domains", { product_code: "sandbox-dv-single", domain: "example.com", san_domains: ["www.example.com"] }, "san_domains", /must not be sent/],
    ["single with wildcard_domains", { product_code: "sandbox-dv-single", domain: "example.com", wildcard_domains: ["*.example.com"] }, "wildcard_domains", /must not be sent/],
    ["single with wildcard main", { product_code: "sandbox-dv-single", domain: "*.example.com" }, "domain"],
    ["single with an IP", { product_code: "sandbox-dv-single", domain: "8.8.8.8" }, "domain"],
    // wildcard: *.<domain>, no extra domains.
    ["wildcard with plain main", { product_code: "sandbox-dv-wildcard", domain: "example.com" }, "domain", /\*\.<domain>/],
    ["wildcard with extra wildcard", { product_code: "sandbox-dv-wildcard", domain: "*.example.com", wildcard_domains: ["*.b.example.com"] }, "wildcard_domains"],
    ["wildcard with san", { product_code: "sandbox-dv-wildcard", domain: "*.example.com", san_domains: ["www.example.com"] }, "san_domains"],
    ["bad wildcard position", { product_code: "sandbox-dv-wildcard", domain: "www.*.example.com" }, "domain"],
    // multiple-single: plain names only, wildcards not supported.
    ["multiple-single with wildcard main", { ...DV_MULTI, domain: "*.example.com" }, "domain"],
    ["multiple-single with wildcard in san_domains", { ...DV_MULTI, san_domains: ["*.example.com"] }, "san_domains", /does not support wildcards/],
    ["multiple-single with wildcard_domains", { ...DV_MULTI, wildcard_domains: ["*.example.com"] }, "wildcard_domains", /wildcards are not supported/],
    ["multiple-single with IP SAN", { ...DV_MULTI, san_domains: ["8.8.8.8"] }, "san_domains"],
    ["multiple-single over max", { ...DV_MULTI, san_domains: Array.from({ length: 10 }, (_, i) => `s${i}.example.com`) }, "san_domains", /exceed the maximum of 10/],
    ["duplicate SAN", { ...DV_MULTI, san_domains: ["www.example.com", "WWW.example.com"] }, "san_domains", /more than once/],
    ["SAN equal to main", { ...DV_MULTI, san_domains: ["Example.com"] }, "san_domains"],
    // multiple-wildcard: main and wildcard_domains wildcards.
    ["multiple-wildcard with plain main", { product_code: "sandbox-dv-multi-wildcard", domain: "example.com" }, "domain"],
    ["multiple-wildcard with FQDN in wildcard_domains", { product_code: "sandbox-dv-multi-wildcard", domain: "*.example.com", wildcard_domains: ["www.example.com"] }, "wildcard_domains"],
    ["multiple-wildcard with san_domains", { product_code: "sandbox-dv-multi-wildcard", domain: "*.example.com", san_domains: ["www.example.com"] }, "san_domains"],
    ["multiple-wildcard via alias wc_domains over max", { product_code: "sandbox-dv-multi-wildcard", domain: "*.example.com", wc_domains: ["*.a.example.com", "*.b.example.com", "*.c.example.com", "*.d.example.com", "*.e.example.com"] }, "wc_domains"],
    // multiple-mix: both, each in its own list.
    ["multiple-mix with wildcard in san_domains", { product_code: "sandbox-dv-flex", domain: "example.com", san_domains: ["*.example.com"] }, "san_domains", /belong in wildcard_domains/],
    ["multiple-mix over wildcard max", { product_code: "sandbox-dv-flex", domain: "example.com", wildcard_domains: ["*.a.example.com", "*.b.example.com", "*.c.example.com", "*.d.example.com", "*.e.example.com", "*.f.example.com"] }, "wildcard_domains"],
    ["multiple-mix with an IP main", { product_code: "sandbox-dv-flex", domain: "8.8.8.8" }, "domain"],
    // ipv4 / ipv6: the address family of the product, no extra domains.
    ["ipv4 with a domain name", { product_code: "sandbox-dv-ip", domain: "example.com" }, "domain"],
    ["ipv4 with an IPv6 address", { product_code: "sandbox-dv-ip", domain: V6 }, "domain", /IPv6/],
    ["ipv4 with extra domains", { product_code: "sandbox-dv-ip", domain: "8.8.8.8", san_domains: ["1.1.1.1"] }, "san_domains", /must not be sent/],
    ["ipv6 with an IPv4 address", { product_code: "sandbox-dv-ipv6", domain: "8.8.8.8" }, "domain", /IPv4/],
    ["ipv6 with extra domains", { product_code: "sandbox-dv-ipv6", domain: V6, san_domains: ["2606:4700:4700::1001"] }, "san_domains"],
    ["unsupported term", { ...DV_MULTI, months: 18 }, "months"],
    ["unsupported years", { product_code: "sandbox-dv-ip", domain: "8.8.8.8", years: 2 }, "years"],
    ["sm2", { ...DV_MULTI, signature_algorithm: "sm2" }, "signature_algorithm"],
    ["ecc on an rsa-only product", { product_code: "example-dv-single", domain: "example.com", signature_algorithm: "ecc" }, "signature_algorithm"],
    ["key spec of the other algorithm", { ...DV_MULTI, signature_algorithm: "rsa", key_spec: "p-256" }, "key_spec"],
    ["key spec the product lacks", { product_code: "example-dv-single", domain: "example.com", key_spec: "rsa-3072" }, "key_spec"],
    ["unknown key spec", { ...DV_MULTI, key_spec: "rsa-1024" }, "key_spec"],
    ["hash the product lacks", { product_code: "sandbox-dv-ip", domain: "8.8.8.8", hash_algorithm: "sha384" }, "hash_algorithm"],
    ["method the product lacks", { product_code: "sandbox-dv-ip", domain: "8.8.8.8", verification_method: "dns" }, "verification_method"],
    ["cname where the product lacks it", { product_code: "example-dv-single", domain: "example.com", verification_method: "cname" }, "verification_method", /not supported by product example-dv-single/],
    ["dcv where the product lacks it", { ...DV_MULTI, verification_method: "dcv" }, "verification_method", /not supported/],
    ["https is not a method of the specification", { ...DV_MULTI, verification_method: "https" }, "verification_method", /not a verification method/],
    ["unknown method", { ...DV_MULTI, verification_method: "carrier-pigeon" }, "verification_method"],
    ["file method for a wildcard", { product_code: "sandbox-dv-wildcard", domain: "*.example.com", verification_method: "file" }, "verification_method"],
    ["bad email suffix", { ...DV_MULTI, verification_method: "email", email_suffix: "ceo" }, "email_suffix"],
    ["email suffix contradicting the code", { ...DV_MULTI, verification_method: "email-admin", email_suffix: "webmaster" }, "email_suffix"],
    ["OV without company", { product_code: "sandbox-ov-single", domain: "example.com" }, "company_info"],
    ["OV with empty company_info", { product_code: "sandbox-ov-single", domain: "example.com", company_info: "" }, "company_info"],
    ...(["company_name", "country_code", "contact_first", "contact_last", "email"] as const).map(
      (m): [string, Record<string, unknown>, string] => [`OV without company_info.${m}`, { product_code: "sandbox-ov-single", domain: "example.com", company_info: { ...COMPANY, [m]: "" } }, `company_info.${m}`],
    ),
    ["OV with bad country_code", { product_code: "sandbox-ov-single", domain: "example.com", company_info: { ...COMPANY, country_code: "Germany" } }, "company_info.country_code"],
    ["OV with bad contact email", { product_code: "sandbox-ov-single", domain: "example.com", company: { ...COMPANY, email: "nope" } }, "company.email"],
    ["EV with top-level company fields missing one", { product_code: "sandbox-ev-single", domain: "example.com", ...COMPANY, contact_last: undefined }, "contact_last"],
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
    expect(env.data.field).toBe(field);
    expect(env.message).toContain(field.split(".").pop());
    if (message) expect(env.message).toMatch(message);
    const after = await ok(sb, "GetUserData");
    expect(after.account).toEqual(before.account);
    expect(await orderCount()).toBe(countBefore);
  });

  it("unknown product answers 404", async () => {
    const env = await call(sb, "CreateOrder", { product_code: "nope", domain: "example.com" });
    expect(env.code).toBe(404);
    expect(env.data.field).toBe("product_code");
    expect((await call(sb, "CreateOrder", { product_id: 999, domain: "example.com" })).data.field).toBe("product_id");
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
  it("charges the payable amount to the balance", async () => {
    const before = (await ok(sb, "GetUserData")).account;
    const d = await ok(sb, "CreateOrder", { product_code: "sandbox-dv-flex", domain: "example.com", san_domains: ["www.example.com"], wildcard_domains: ["*.example.com"] });
    expect(d).toMatchObject({ total_amount: 470, payable_amount: 470, deduct_amount: 470, payment_method: "balance", installments_count: 2 });
    const after = (await ok(sb, "GetUserData")).account;
    expect(after.balance).toBeCloseTo(before.balance - 470, 2);
    expect(after.total_available).toBeCloseTo(after.balance + after.credit_available, 2);
  });

  it("a brand with a 36-month maximum still needs ceil(1096 / 200) = 6 certificates from 2026-03-15; the product's default method applies", async () => {
    const d = await ok(sb, "CreateOrder", { product_code: "longlife-dv-multi", domain: "example.org", years: 3, signature_algorithm: "ecc" });
    expect(d).toMatchObject({ months: 36, years: 3, installments_count: 6 });
    expect((await ok(sb, "GetRecord", { order_no: d.order_no })).verification_method).toBe("cname");
  });

  it("months wins over years; neither means 12 months", async () => {
    expect(await ok(sb, "CreateOrder", { ...DV_MULTI, months: 24, years: 3 })).toMatchObject({ months: 24, years: 2 });
    expect(await ok(sb, "CreateOrder", { ...DV_MULTI, months: "", years: 3 })).toMatchObject({ months: 36, years: 3 });
    expect(await ok(sb, "CreateOrder", { ...DV_MULTI, months: "", years: "" })).toMatchObject({ months: 12, years: 1 });
  });

  it("pays from credit when asked, and applies coupons", async () => {
    const before = (await ok(sb, "GetUserData")).account;
    const d = await ok(sb, "CreateOrder", { ...DV_MULTI, payment_method: "credit", coupon_type: "code", coupon_code: "sandbox10" });
    expect(d).toMatchObject({ total_amount: 120, discount_amount: 12, payable_amount: 108, payment_method: "credit" });
    const after = (await ok(sb, "GetUserData")).account;
    expect(after.balance).toBe(before.balance);
    expect(after.credit_available).toBeCloseTo(before.credit_available - 108, 2);
    const byId = await ok(sb, "CreateOrder", { ...DV_MULTI, coupon_type: "coupon", coupon_id: 2 });
    expect(byId.discount_amount).toBe(24);
  });

  it("takes every domain type within its rules (spec 2.3)", async () => {
    const accepted: Array<[string, Record<string, unknown>, number]> = [
      ["sandbox-dv-single", { domain: "example.com" }, 1],
      ["sandbox-dv-wildcard", { domain: "*.example.com" }, 1],
      ["sandbox-dv-multi", { domain: "example.com", san_domains: ["a.example.com", "b.example.com"] }, 3],
      ["sandbox-dv-multi-wildcard", { domain: "*.example.com", wildcard_domains: ["*.a.example.com"] }, 2],
      ["sandbox-dv-flex", { domain: "*.example.com", san_domains: ["example.com"], wildcard_domains: ["*.a.example.com"] }, 3],
      ["sandbox-dv-ip", { domain: "8.8.8.8" }, 1],
      ["sandbox-dv-ipv6", { domain: "2606:4700:4700::1111" }, 1],
    ];
    for (const [product_code, names, total] of accepted) {
      const env = await call(sb, "CreateOrder", { product_code, ...names });
      expect(env.code, `${product_code}: ${env.message}`).toBe(200);
      expect(env.data.total_domains).toBe(total);
    }
    const v6 = await ok(sb, "CreateOrder", { product_code: "sandbox-dv-ipv6", domain: "2606:4700:4700:0:0:0:0:1001" });
    // Kept in one spelling (RFC 5952), whatever the request's.
    expect(await ok(sb, "GetRecord", { order_no: v6.order_no })).toMatchObject({ main_domain: "2606:4700:4700::1001", verification_method: "file" });
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

  it("reads form arrays as repeated keys, key[] and comma lists; JSON text for lists and company_info", async () => {
    const body = `apikey=${encodeURIComponent(sb.accounts[0]!.apiKey)}&product_id=102&main_domain=example.com&san_domains=a.example.com&san_domains=b.example.com`;
    const res = await fetch(`${sb.url}/partner/CreateOrder/`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
    const env = await res.json();
    expect(env.code, env.message).toBe(200);
    const names = async (no: string) => (await ok(sb, "GetRecord", { order_no: no })).sans_domains;
    expect(await names(env.data.order_no)).toEqual(["a.example.com", "b.example.com"]);
    const env2 = await call(sb, "CreateOrder", { ...DV_MULTI, san_domains: ["x.example.com", "y.example.com"] }, { encoding: "form" });
    expect(await names(env2.data.order_no)).toEqual(["x.example.com", "y.example.com"]);
    const env3 = await call(sb, "CreateOrder", { ...DV_MULTI, san_domains: "p.example.com,q.example.com" });
    expect(await names(env3.data.order_no)).toEqual(["p.example.com", "q.example.com"]);
    const env4 = await call(sb, "CreateOrder", { ...DV_MULTI, san_domains: '["j.example.com","k.example.com"]' }, { encoding: "form" });
    expect(await names(env4.data.order_no)).toEqual(["j.example.com", "k.example.com"]);
    const ov = await call(sb, "CreateOrder", { product_code: "sandbox-ov-single", domain: "example.com", company_info: JSON.stringify(COMPANY) }, { encoding: "form" });
    expect(ov.code, ov.message).toBe(200);
    const broken = await call(sb, "CreateOrder", { ...DV_MULTI, san_domains: '["j.example.com"' });
    expect(broken.data.field).toBe("san_domains");
  });
});

describe("CreateOrder with custom_csr", () => {
  it("accepts a CSR whose names and key match, taking the key spec from it", async () => {
    const csr = opensslCsr({ cn: "example.com", sans: ["example.com", "www.example.com"], key: "ec-p384" });
    const d = await ok(sb, "CreateOrder", { ...DV_MULTI, custom_csr: csr });
    expect(d.is_custom_csr).toBe(true);
    const order = (await mgmt(sb, "GET", `/orders/${d.order_no}`)).body;
    expect(order.productCode).toBe("sandbox-dv-multi");
    await ok(sb, "ApplySign", { order_no: d.order_no });
    expect(await ok(sb, "DownloadCertificate", { order_no: d.order_no })).toMatchObject({ signature_algorithm: "ecc", key_spec: "p-384" });
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
