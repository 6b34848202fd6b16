import { describe, expect, it } from "vitest";
import { CertStatus, isCertStatus, isOrderStatus } from "../../src/client/index.js";
import { apiError, ok } from "../support/partner-api/index.js";
import { answerFrom, expectSpecRequest, failure, fieldsOf, getPath, useContractClients, type FieldRow } from "./support/contract.js";

// Spec 4.8 (order status) and 4.9 (certificate download): "not shown" by the
// specification; paths, request fields and answers as the service documents them.

const contract = useContractClients();
const ORDER_NO = "CERT202607041730001234";
const CERT_ID = "5b0d5c3e-1111-4b5e-9a3e-6c1f2f7e9a10";

const STATUS_FIELDS: FieldRow[] = [
  ["order_no", ORDER_NO, "orderNo", ORDER_NO],
  ["order_status", 2, "orderStatus", 2],
  ["order_status_label", "已完成", "orderStatusLabel", "已完成"],
  ["cert_id", CERT_ID, "certId", CERT_ID],
  ["cert_status", 1, "certStatus", 1],
  ["cert_status_label", "已签发", "certStatusLabel", "已签发"],
  ["ca_status", 6, "caStatus", 6],
  ["ca_status_text", "Issued", "caStatusText", "Issued"],
  ["all_dcv_verified", true, "allDcvVerified", true],
  ["domain_statuses", [{ domain: "example.com", method: "dns", verified: true }], "domainStatuses", [{ domain: "example.com", method: "dns", verified: true }]],
  ["serial_number", "0A1B2C3D", "serialNumber", "0A1B2C3D"],
  ["start_date", "2026-07-13 12:00:00", "startDate", "2026-07-13 12:00:00"],
  ["end_date", "2027-01-29 12:00:00", "endDate", "2027-01-29 12:00:00"],
  ["request_id", "SIG-202607131200000000-ABC123", "requestId", "SIG-202607131200000000-ABC123"],
  ["cert_downloaded", false, "certDownloaded", false],
  ["source", "ca", "source", "ca"],
  ["checked_at", "2026-07-13T12:05:00+08:00", "checkedAt", "2026-07-13T12:05:00+08:00"],
  ["cooldown_seconds", 180, "cooldownSeconds", 180],
];

const LEAF = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
const INTER = "-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n";
const KEY = "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n";
const CSR = "-----BEGIN CERTIFICATE REQUEST-----\nMIIR\n-----END CERTIFICATE REQUEST-----\n";

const DOWNLOAD_FIELDS: FieldRow[] = [
  ["order_no", ORDER_NO, "orderNo", ORDER_NO],
  ["order_status", 2, "orderStatus", 2],
  ["cert_id", CERT_ID, "certId", CERT_ID],
  ["cert_status", 1, "certStatus", 1],
  ["installment_no", 1, "installmentNo", 1],
  ["installments_count", 2, "installmentsCount", 2],
  ["product_name", "Acme DV", "productName", "Acme DV"],
  ["brand_name", "Acme CA", "brandName", "Acme CA"],
  ["main_domain", "example.com", "mainDomain", "example.com"],
  ["sans_domains", ["www.example.com"], "sansDomains", ["www.example.com"]],
  ["wildcard_domains", [], "wildcardDomains", []],
  ["domains", ["example.com", "www.example.com"], "domains", ["example.com", "www.example.com"]],
  ["years", 1, "years", 1],
  ["signature_algorithm", "rsa", "signatureAlgorithm", "rsa"],
  ["hash_algorithm", "sha256", "hashAlgorithm", "sha256"],
  ["key_spec", "rsa-2048", "keySpec", "rsa-2048"],
  ["verification_method", "dns", "verificationMethod", "dns"],
  ["serial_number", "0A1B2C3D", "serialNumber", "0A1B2C3D"],
  ["fingerprint_sha256", "AB:CD:EF", "fingerprintSha256", "AB:CD:EF"],
  ["issued_at", "2026-07-13 12:00:00", "issuedAt", "2026-07-13 12:00:00"],
  ["start_date", "2026-07-13 12:00:00", "startDate", "2026-07-13 12:00:00"],
  ["end_date", "2027-01-29 12:00:00", "endDate", "2027-01-29 12:00:00"],
  ["valid_from", "2026-07-13", "validFrom", "2026-07-13"],
  ["valid_to", "2027-01-29", "validTo", "2027-01-29"],
  ["certificate.certificate_chain", LEAF + INTER, "certificate.certificateChain", LEAF + INTER],
  ["certificate.certificate_leaf", LEAF, "certificate.certificateLeaf", LEAF],
  ["certificate.intermediate_certificate", INTER, "certificate.intermediateCertificate", INTER],
  ["certificate.private_key", KEY, "certificate.privateKey", KEY],
  ["certificate.csr", CSR, "certificate.csr", CSR],
  ["certificate.crt", LEAF + INTER, "certificate.crt", LEAF + INTER],
  ["certificate.key", KEY, "certificate.key", KEY],
  ["certificate.ca_bundle", INTER, "certificate.caBundle", INTER],
  ["has_certificate", true, "hasCertificate", true],
  ["has_private_key", true, "hasPrivateKey", true],
  ["downloaded_at", "2026-07-13 12:10:00", "downloadedAt", "2026-07-13 12:10:00"],
];

describe("order status (GetCertificateStatus)", () => {
  it("the request: POST /partner/GetCertificateStatus/ with apikey and order_no", async () => {
    contract.server.answer(ok(answerFrom(STATUS_FIELDS)));
    await contract.client().getCertificateStatus({ orderNo: ORDER_NO });
    const request = contract.only();
    expectSpecRequest(request, "GetCertificateStatus");
    expect(fieldsOf(request)).toEqual([["order_no", ORDER_NO]]);
  });

  it.each(STATUS_FIELDS)("answer %s = %j → %s", async (_wire, _value, camel, expected) => {
    contract.server.answer(ok(answerFrom(STATUS_FIELDS)));
    const status = await contract.client().getCertificateStatus({ orderNo: ORDER_NO });
    expect(getPath(status, camel)).toEqual(expected);
    expect(contract.warnings).toEqual([]);
  });

  it("documented nulls, unlisted states passed through", async () => {
    contract.server.answer(ok({ ...answerFrom(STATUS_FIELDS), cert_id: null, ca_status: null, ca_status_text: null, serial_number: null, start_date: null, end_date: null, cert_status: 8, order_status: 9 }));
    const status = await contract.client().getCertificateStatus({ orderNo: ORDER_NO });
    expect(status).toMatchObject({ certId: null, caStatus: null, serialNumber: null, startDate: null, certStatus: 8, orderStatus: 9 });
    expect(isCertStatus(status.certStatus)).toBe(false);
    expect(isOrderStatus(status.orderStatus)).toBe(false);
  });

  it("the rate limit: code 429 with retry_after and cooldown_seconds", async () => {
    contract.server.answer(apiError(429, "查询过于频繁", { retry_after: 170, cooldown_seconds: 180 }));
    expect(await failure(contract.client().getCertificateStatus({ orderNo: ORDER_NO }))).toMatchObject({ kind: "rate_limited", retryAfter: 170, cooldownSeconds: 180 });
  });
});

describe("certificate download (DownloadCertificate)", () => {
  it("the request: POST /partner/DownloadCertificate/ with apikey and order_no; installment_no or cert_id when given", async () => {
    contract.server.answer(ok(answerFrom(DOWNLOAD_FIELDS)));
    const c = contract.client();
    await c.downloadCertificate({ orderNo: ORDER_NO });
    await c.downloadCertificate({ orderNo: ORDER_NO, installmentNo: 2 });
    await c.downloadCertificate({ orderNo: ORDER_NO, certId: CERT_ID });
    const [first, second, third] = contract.server.requests;
    expectSpecRequest(first!, "DownloadCertificate");
    expect([first, second, third].map((r) => fieldsOf(r!))).toEqual([
      [["order_no", ORDER_NO]],
      [["order_no", ORDER_NO], ["installment_no", "2"]],
      [["order_no", ORDER_NO], ["cert_id", CERT_ID]],
    ]);
  });

  it("installmentNo and certId together are refused", async () => {
    expect(await failure(contract.client().downloadCertificate({ orderNo: ORDER_NO, certId: CERT_ID, installmentNo: 1 }))).toMatchObject({
      kind: "invalid_argument",
      field: "installmentNo",
    });
  });

  it.each(DOWNLOAD_FIELDS)("answer %s → %s", async (_wire, _value, camel, expected) => {
    contract.server.answer(ok(answerFrom(DOWNLOAD_FIELDS)));
    const download = await contract.client().downloadCertificate({ orderNo: ORDER_NO });
    expect(getPath(download, camel)).toEqual(expected);
    expect(download.certStatus).toBe(CertStatus.Issued);
  });

  it("custom CSR order: an empty private_key reads as null", async () => {
    const data = answerFrom(DOWNLOAD_FIELDS);
    contract.server.answer(ok({ ...data, certificate: { ...(data.certificate as object), private_key: "", key: "" }, has_private_key: false }));
    const download = await contract.client().downloadCertificate({ orderNo: ORDER_NO });
    expect(download.certificate.privateKey).toBeNull();
    expect(download.hasPrivateKey).toBe(false);
  });
});
