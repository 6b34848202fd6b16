import { describe, expect, it } from "vitest";
import type { CompanyInfo, CreateOrderRequest } from "../../src/client/index.js";
import * as wire from "./support/fixtures.js";
import { ok, useScriptedClients } from "../support/partner-api/index.js";

// Every request field under its wire name, in the order it is sent: the
// bytes of each body are pinned here, form and JSON alike. The camelCase
// names, the checks and the wire names are declared once (requests.ts);
// these tests say that what goes out did not move.

const KEY = "ak_0123456789abcdefghijklmn:" + "s".repeat(64);
const scripted = useScriptedClients(KEY, { retry: false, keyPlacement: "header" });

function only() {
  expect(scripted.server.requests).toHaveLength(1);
  return scripted.server.requests[0]!;
}

const CSR = "-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----\n";

const fullCompany: CompanyInfo = {
  companyName: "Acme GmbH", countryCode: "DE", contactFirst: "Muster", contactLast: "Erika", email: "ops@acme.test",
  registrationNo: "HRB 1", countryName: "Germany", province: "Berlin", city: "Berlin", address: "Main St 1", postalCode: "10115",
  phone: "+49 30 1234", contactTitle: "CTO", idNumber: "X1",
};

// Every field of CreateOrder except the ones that exclude each other.
const byIdWithCoupon: CreateOrderRequest = {
  productId: 7, domain: "example.com", sanDomains: ["a.example.com", "b.example.com"], wildcardDomains: ["*.example.net"],
  customCsr: CSR, months: 24, years: 2, signatureAlgorithm: "rsa", keySpec: "rsa-3072", hashAlgorithm: "sha256",
  verificationMethod: "dns", paymentMethod: "balance", companyId: 12, couponType: "coupon", couponId: 5,
};

const byCodeWithCompany: CreateOrderRequest = {
  productCode: "sandbox-ov-multi", domain: "example.com", companyInfo: fullCompany, couponType: "code", couponCode: "WELCOME",
};

describe("request bodies, field by field and in order", () => {
  it("CreateOrder (form): product_id, company_id, coupon_id and every optional field", async () => {
    scripted.server.answer(ok(wire.createOrder));
    await scripted.client().createOrder(byIdWithCoupon);
    expect(only().form).toEqual([
      ["product_id", "7"], ["domain", "example.com"], ["company_id", "12"],
      ["san_domains", "a.example.com"], ["san_domains", "b.example.com"], ["wildcard_domains", "*.example.net"],
      ["custom_csr", CSR], ["months", "24"], ["years", "2"], ["signature_algorithm", "rsa"], ["key_spec", "rsa-3072"],
      ["hash_algorithm", "sha256"], ["verification_method", "dns"], ["payment_method", "balance"],
      ["coupon_type", "coupon"], ["coupon_id", "5"],
    ]);
  });

  it("CreateOrder (form): every company_info member under the specification's name", async () => {
    scripted.server.answer(ok(wire.createOrder));
    await scripted.client().createOrder(byCodeWithCompany);
    expect(only().form).toEqual([
      ["product_code", "sandbox-ov-multi"], ["domain", "example.com"],
      ["company_info[company_name]", "Acme GmbH"], ["company_info[country_code]", "DE"], ["company_info[contact_first]", "Muster"],
      ["company_info[contact_last]", "Erika"], ["company_info[email]", "ops@acme.test"], ["company_info[registration_no]", "HRB 1"],
      ["company_info[country_name]", "Germany"], ["company_info[province_pinyin]", "Berlin"], ["company_info[city_pinyin]", "Berlin"],
      ["company_info[address]", "Main St 1"], ["company_info[postal_code]", "10115"], ["company_info[phone]", "+49 30 1234"],
      ["company_info[contact_title]", "CTO"], ["company_info[id_number]", "X1"],
      ["coupon_type", "code"], ["coupon_code", "WELCOME"],
    ]);
  });

  it("CreateOrder (JSON): the exact body", async () => {
    scripted.server.answer(ok(wire.createOrder));
    await scripted.client({ encoding: "json" }).createOrder(byIdWithCoupon);
    expect(only().body).toBe(
      JSON.stringify({
        product_id: 7, domain: "example.com", company_id: 12, san_domains: ["a.example.com", "b.example.com"], wildcard_domains: ["*.example.net"],
        custom_csr: CSR, months: 24, years: 2, signature_algorithm: "rsa", key_spec: "rsa-3072", hash_algorithm: "sha256",
        verification_method: "dns", payment_method: "balance", coupon_type: "coupon", coupon_id: 5,
      }),
    );
    scripted.server.reset();
    await scripted.client({ encoding: "json" }).createOrder(byCodeWithCompany);
    expect(only().body).toBe(
      JSON.stringify({
        product_code: "sandbox-ov-multi", domain: "example.com",
        company_info: {
          company_name: "Acme GmbH", country_code: "DE", contact_first: "Muster", contact_last: "Erika", email: "ops@acme.test",
          registration_no: "HRB 1", country_name: "Germany", province_pinyin: "Berlin", city_pinyin: "Berlin", address: "Main St 1",
          postal_code: "10115", phone: "+49 30 1234", contact_title: "CTO", id_number: "X1",
        },
        coupon_type: "code", coupon_code: "WELCOME",
      }),
    );
  });

  it("GetUserProduct (JSON): every filter", async () => {
    scripted.server.answer(ok(wire.productPage([])));
    await scripted.client({ encoding: "json" }).listProducts({
      limit: 3, page: 2, productCode: "c", productName: "n", verificationType: "ov", brandCode: "b", domainType: "ipv4",
    });
    expect(only().body).toBe(
      JSON.stringify({ domain_type: "ipv4", brand_code: "b", verification_type: "ov", product_name: "n", product_code: "c", page: 2, limit: 3 }),
    );
  });

  it("GetUserData sends no fields", async () => {
    scripted.server.answer(ok(wire.userData));
    await scripted.client({ encoding: "json" }).getUserData();
    expect(only().body).toBe("{}");
  });

  it("order-keyed operations (JSON): ApplySign, GetRecord, GetCertificateStatus", async () => {
    const c = scripted.client({ encoding: "json" });
    scripted.server.answer(ok(wire.applySign));
    await c.applySign({ orderNo: "CERT1" });
    scripted.server.answer(ok(wire.getRecord));
    await c.getRecord({ orderNo: "CERT1" });
    scripted.server.answer(ok(wire.certificateStatus));
    await c.getCertificateStatus({ orderNo: "CERT1" });
    expect(scripted.server.requests.map((r) => r.body)).toEqual(Array(3).fill('{"order_no":"CERT1"}'));
  });

  it("ChangeVertificationMethod (JSON): email_suffix sent empty, last", async () => {
    scripted.server.answer(ok(wire.changeMethod));
    await scripted.client({ encoding: "json" }).changeVerificationMethod({ method: "file", orderNo: "CERT1" });
    expect(only().body).toBe('{"order_no":"CERT1","method":"file","email_suffix":""}');
  });

  it("CancelOrder: reason sent empty when not given, as given otherwise", async () => {
    scripted.server.answer(ok(wire.cancelOrder));
    await scripted.client({ encoding: "json" }).cancelOrder({ orderNo: "CERT1" });
    expect(only().body).toBe('{"order_no":"CERT1","reason":""}');
    scripted.server.reset();
    await scripted.client().cancelOrder({ reason: "done & dusted", orderNo: "CERT1" });
    expect(only().body).toBe("order_no=CERT1&reason=done+%26+dusted");
  });

  it("DownloadCertificate: cert_id or installment_no, or neither", async () => {
    scripted.server.answer(ok(wire.download));
    const c = scripted.client({ encoding: "json" });
    await c.downloadCertificate({ certId: "5b0d", orderNo: "CERT1" });
    await c.downloadCertificate({ installmentNo: 2, orderNo: "CERT1" });
    await c.downloadCertificate({ orderNo: "CERT1" });
    expect(scripted.server.requests.map((r) => r.body)).toEqual([
      '{"order_no":"CERT1","cert_id":"5b0d"}',
      '{"order_no":"CERT1","installment_no":2}',
      '{"order_no":"CERT1"}',
    ]);
  });
});
