import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { opensslCsr, opensslSync, opensslVerify } from "../../../tests/support/openssl.js";
import { ManagementClient } from "../../../tests/support/sandbox-management.js";
import type { RunningSandbox } from "../../src/index.js";
import { call, COMPANY, DV_MULTI, mgmt, ok, withSandbox } from "../support/sandbox.js";

let sb: RunningSandbox;
beforeAll(async () => {
  // A fixed start in the 200-day period of the CA/B schedule, so lifetimes and installment counts do not depend on the day the tests run.
  sb = await withSandbox({ clockStart: "2026-06-01T00:00:00Z", accounts: [{ username: "a", balance: "100000.00", creditLine: "5000.00" }, { username: "b", balance: "1000.00" }] });
});
afterAll(() => sb.stop());

const keyB = (): string => sb.accounts[1]!.apiKey;
const newOrder = async (extra: Record<string, unknown> = {}): Promise<string> => (await ok(sb, "CreateOrder", { ...DV_MULTI, ...extra })).order_no;

describe("ApplySign and GetRecord", () => {
  it("GetRecord is empty before ApplySign; ApplySign moves 0 → 2 with one record per name", async () => {
    const no = await newOrder({ wildcard_domains: [], product_code: "sandbox-dv-flex", san_domains: ["www.example.com"] });
    const before = await ok(sb, "GetRecord", { order_no: no });
    expect(before).toMatchObject({ order_no: no, cert_status: 0, verification_method: "dns", dns_records: [], http_records: [], email_records: [] });
    await mgmt(sb, "PUT", "/config", { issueAfterSeconds: 3600 });
    try {
      const d = await ok(sb, "ApplySign", { order_no: no });
      expect(d.cert_status).toBe(2);
      expect(d.request_id).toMatch(/^SIG-\d{18}-[A-Z0-9]{6}$/);
      expect(d.dns_records).toHaveLength(2);
      expect(d.dns_records[0]).toMatchObject({ domain: "example.com", type: "main", record_type: "TXT", label: "_dnsauth" });
      expect(d.dns_records[1]).toMatchObject({ domain: "www.example.com", type: "san" });
      const rec = await ok(sb, "GetRecord", { order_no: no });
      expect(rec.dns_records.map((r: any) => r.value)).toEqual(d.dns_records.map((r: any) => r.value));
      expect(rec.cert_status).toBe(2);
      const again = await call(sb, "ApplySign", { order_no: no });
      expect(again.code).toBe(400);
      expect(again.message).toMatch(/cert_status 0 or 3/);
    } finally {
      await mgmt(sb, "PUT", "/config", { issueAfterSeconds: 0 });
    }
  });

  it("wildcards are validated at their base name; shapes per method", async () => {
    await mgmt(sb, "PUT", "/config", { issueAfterSeconds: 3600 });
    try {
      const wc = await ok(sb, "CreateOrder", { product_code: "sandbox-dv-flex", domain: "*.example.com", san_domains: ["www.example.com"], verification_method: "cname" });
      const d = await ok(sb, "ApplySign", { order_no: wc.order_no });
      expect(d.dns_records[0]).toMatchObject({ domain: "example.com", type: "main", record_type: "CNAME" });
      expect(d.dns_records[0].label).toMatch(/^_[0-9a-f]{32}$/);
      expect(d.dns_records[0].value).toMatch(/\.dcv\.sandbox\.test$/);
      const file = await ok(sb, "CreateOrder", { ...DV_MULTI, verification_method: "file" });
      const f = await ok(sb, "ApplySign", { order_no: file.order_no });
      expect(f.http_records[0]).toMatchObject({ domain: "example.com", record_type: "FILE" });
      expect(f.http_records[0].label).toMatch(/^[0-9A-F]{32}\.txt$/);
      expect(f.http_records[0].path).toBe(`http://example.com/.well-known/pki-validation/${f.http_records[0].label}`);
      expect(f.http_records[0].content).toContain(file.order_no);
      const mail = await ok(sb, "CreateOrder", { ...DV_MULTI, verification_method: "email-hostmaster" });
      const m = await ok(sb, "ApplySign", { order_no: mail.order_no });
      expect(m.verification_method).toBe("email-hostmaster");
      expect(m.email_records[1]).toEqual({ domain: "www.example.com", type: "san", email: "hostmaster@www.example.com" });
      expect((await ok(sb, "GetRecord", { order_no: mail.order_no })).email_records).toEqual(m.email_records);
    } finally {
      await mgmt(sb, "PUT", "/config", { issueAfterSeconds: 0 });
    }
  });

  it("refuses any CSR field, an order of another account (404) and a missing order_no", async () => {
    const no = await newOrder();
    for (const field of ["csr", "custom_csr"]) {
      const env = await call(sb, "ApplySign", { order_no: no, [field]: "-----BEGIN CERTIFICATE REQUEST-----" });
      expect(env.code).toBe(400);
      expect(env.data.field).toBe(field);
    }
    expect((await call(sb, "ApplySign", { order_no: no }, { key: keyB() })).code).toBe(404);
    expect((await call(sb, "GetRecord", { order_no: no }, { key: keyB() })).code).toBe(404);
    expect((await call(sb, "GetRecord", { order_no: "CERT000" })).code).toBe(404);
    const missing = await call(sb, "ApplySign", {});
    expect(missing.code).toBe(400);
    expect(missing.data.field).toBe("order_no");
    expect((await call(sb, "ApplySign", { order_number: no })).code).toBe(200);
  });

  it("ApplySign again after a failure (3 → 2) issues new tokens", async () => {
    await mgmt(sb, "PUT", "/config", { issueAfterSeconds: 3600 });
    try {
      const no = await newOrder();
      const first = await ok(sb, "ApplySign", { order_no: no });
      expect((await mgmt(sb, "POST", `/orders/${no}/fail`)).status).toBe(200);
      expect((await ok(sb, "GetRecord", { order_no: no })).cert_status).toBe(3);
      const second = await ok(sb, "ApplySign", { order_no: no });
      expect(second.dns_records[0].value).not.toBe(first.dns_records[0].value);
      expect(second.request_id).not.toBe(first.request_id);
    } finally {
      await mgmt(sb, "PUT", "/config", { issueAfterSeconds: 0 });
    }
  });
});

describe("ChangeVertificationMethod", () => {
  it("only in cert_status 2, only supported methods, new tokens, then a cooldown (429)", async () => {
    await mgmt(sb, "PUT", "/config", { issueAfterSeconds: 3600 });
    try {
      const no = await newOrder();
      const early = await call(sb, "ChangeVertificationMethod", { order_no: no, method: "cname" });
      expect(early.code).toBe(400);
      expect(early.message).toMatch(/only in cert_status 2/);
      const signed = await ok(sb, "ApplySign", { order_no: no });
      expect((await call(sb, "ChangeVertificationMethod", { order_no: no })).data.field).toBe("method");
      expect((await call(sb, "ChangeVertificationMethod", { order_no: no, method: "fax" })).data.field).toBe("method");
      expect((await call(sb, "ChangeVertificationMethod", { order_no: no, method: "email", email_suffix: "root" })).data.field).toBe("email_suffix");
      expect((await call(sb, "ChangeVertificationMethod", { order_no: no, method: "https" })).data.field).toBe("method");
      const d = await ok(sb, "ChangeVertificationMethod", { order_no: no, method: "file" });
      expect(d.verification_method).toBe("file");
      expect(d.dns_records).toEqual([]);
      expect(d.http_records).toHaveLength(2);
      expect(d.request_id).toBe(signed.request_id);
      expect((await ok(sb, "GetRecord", { order_no: no })).http_records[0].link).toBe(d.http_records[0].link);
      const tooSoon = await call(sb, "ChangeVertificationMethod", { order_no: no, method: "dns" });
      expect(tooSoon.code).toBe(429);
      expect(tooSoon.data.retry_after).toBeGreaterThan(290);
      expect(tooSoon.data.retry_after).toBeLessThanOrEqual(300);
      await mgmt(sb, "POST", "/clock/advance", { seconds: 301 });
      expect((await ok(sb, "ChangeVertificationMethod", { order_no: no, method: "email", email_suffix: "admin" })).email_records[0].email).toBe("admin@example.com");
    } finally {
      await mgmt(sb, "PUT", "/config", { issueAfterSeconds: 0 });
    }
  });

  it("refuses a method the product does not support", async () => {
    await mgmt(sb, "PUT", "/config", { issueAfterSeconds: 3600 });
    try {
      const { order_no } = await ok(sb, "CreateOrder", { product_code: "example-dv-wildcard", domain: "*.example.com", signature_algorithm: "ecc" });
      await ok(sb, "ApplySign", { order_no });
      const env = await call(sb, "ChangeVertificationMethod", { order_no, method: "cname" });
      expect(env.code).toBe(400);
      expect(env.message).toMatch(/not supported by product example-dv-wildcard/);
      // dcv only where the product supports it.
      const longlife = await ok(sb, "CreateOrder", { product_code: "longlife-dv-multi", domain: "example.com" });
      await ok(sb, "ApplySign", { order_no: longlife.order_no });
      expect((await ok(sb, "ChangeVertificationMethod", { order_no: longlife.order_no, method: "dcv" })).verification_method).toBe("dcv");
      expect((await call(sb, "ChangeVertificationMethod", { order_no, method: "dcv" })).code).toBe(400);
    } finally {
      await mgmt(sb, "PUT", "/config", { issueAfterSeconds: 0 });
    }
  });
});

describe("GetCertificateStatus", () => {
  it("allows one read per order per account per cooldown (429 with retry_after and cooldown_seconds)", async () => {
    await mgmt(sb, "PUT", "/config", { statusCooldownSeconds: 180 });
    try {
      const no = await newOrder();
      const first = await ok(sb, "GetCertificateStatus", { order_no: no });
      expect(first).toMatchObject({ order_no: no, cert_status: 0, order_status: 1, order_status_label: "processing", source: "local", cooldown_seconds: 180, all_dcv_verified: false, serial_number: null, start_date: null });
      expect(first.checked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
      const second = await call(sb, "GetCertificateStatus", { order_no: no });
      expect(second.code).toBe(429);
      expect(second.data).toMatchObject({ cooldown_seconds: 180 });
      expect(second.data.retry_after).toBeGreaterThan(170);
      // Another order is not limited by this one.
      expect((await call(sb, "GetCertificateStatus", { order_no: await newOrder() })).code).toBe(200);
      await mgmt(sb, "POST", "/clock/advance", { seconds: 181 });
      expect((await call(sb, "GetCertificateStatus", { order_no: no })).code).toBe(200);
    } finally {
      await mgmt(sb, "PUT", "/config", { statusCooldownSeconds: 0 });
    }
  });

  it("auto mode issues --issue-after seconds of sandbox clock after ApplySign", async () => {
    await mgmt(sb, "PUT", "/config", { issueAfterSeconds: 120 });
    try {
      const no = await newOrder();
      await ok(sb, "ApplySign", { order_no: no });
      const pending = await ok(sb, "GetCertificateStatus", { order_no: no });
      expect(pending).toMatchObject({ cert_status: 2, source: "ca", all_dcv_verified: false });
      expect((await call(sb, "DownloadCertificate", { order_no: no })).code).toBe(400);
      await mgmt(sb, "POST", "/clock/advance", { seconds: 121 });
      const done = await ok(sb, "GetCertificateStatus", { order_no: no });
      expect(done).toMatchObject({ cert_status: 1, cert_status_label: "issued", order_status: 2, all_dcv_verified: true });
      expect(done.domain_statuses).toEqual([
        { domain: "example.com", method: "dns", verified: true },
        { domain: "www.example.com", method: "dns", verified: true },
      ]);
      expect(done.serial_number).toMatch(/^[0-9A-F]+$/);
    } finally {
      await mgmt(sb, "PUT", "/config", { issueAfterSeconds: 0 });
    }
  });
});

describe("published validation", () => {
  it("validates only once the exact records are published through the management API", async () => {
    await mgmt(sb, "PUT", "/config", { validation: "published" });
    try {
      const no = await newOrder();
      const records = (await ok(sb, "ApplySign", { order_no: no })).dns_records;
      expect((await ok(sb, "GetCertificateStatus", { order_no: no })).cert_status).toBe(2);
      await mgmt(sb, "POST", "/dns-records", { fqdn: `_dnsauth.${records[0].domain}`, type: "TXT", value: records[0].value });
      await mgmt(sb, "POST", "/dns-records", { fqdn: `_dnsauth.${records[1].domain}`, type: "TXT", value: "wrong" });
      const half = await ok(sb, "GetCertificateStatus", { order_no: no });
      expect(half.domain_statuses.map((s: any) => s.verified)).toEqual([true, false]);
      await mgmt(sb, "POST", "/dns-records", { fqdn: `_dnsauth.${records[1].domain}.`, type: "TXT", value: records[1].value });
      expect((await ok(sb, "GetCertificateStatus", { order_no: no })).cert_status).toBe(1);

      const fileNo = await newOrder({ verification_method: "file", san_domains: [] });
      const fr = (await ok(sb, "ApplySign", { order_no: fileNo })).http_records[0];
      await mgmt(sb, "POST", "/files", { url: fr.link, content: "not it" });
      expect((await ok(sb, "GetCertificateStatus", { order_no: fileNo })).cert_status).toBe(2);
      await mgmt(sb, "POST", "/files", { url: fr.link, content: fr.content });
      expect((await ok(sb, "GetCertificateStatus", { order_no: fileNo })).cert_status).toBe(1);
      expect((await mgmt(sb, "GET", "/files")).body).toHaveLength(1);

      // The full URL of the record's path counts as well as the protocol-relative link.
      const byPath = await newOrder({ verification_method: "file", san_domains: [], domain: "example.org" });
      const pr = (await ok(sb, "ApplySign", { order_no: byPath })).http_records[0];
      await mgmt(sb, "POST", "/files", { url: pr.path, content: pr.content });
      expect((await ok(sb, "GetCertificateStatus", { order_no: byPath })).cert_status).toBe(1);
      await mgmt(sb, "DELETE", "/files", { url: pr.path });
      await mgmt(sb, "DELETE", "/files", { url: fr.link });
      await mgmt(sb, "DELETE", "/dns-records");
      expect((await mgmt(sb, "GET", "/dns-records")).body).toEqual([]);
    } finally {
      await mgmt(sb, "PUT", "/config", { validation: "auto" });
    }
  });
});

describe("DownloadCertificate", () => {
  it("returns a chain that openssl verifies against the root, with matching serial, fingerprint and names", async () => {
    const { order_no } = await ok(sb, "CreateOrder", { ...DV_MULTI, key_spec: "p-384", signature_algorithm: "ecc", hash_algorithm: "sha384", product_code: "sandbox-dv-multi" });
    await ok(sb, "ApplySign", { order_no });
    const d = await ok(sb, "DownloadCertificate", { order_no });
    expect(d).toMatchObject({ order_no, cert_status: 1, installment_no: 1, installments_count: 2, main_domain: "example.com", sans_domains: ["www.example.com"], domains: ["example.com", "www.example.com"], key_spec: "p-384", has_certificate: true, has_private_key: true });
    const c = d.certificate;
    expect(c.crt).toBe(c.certificate_chain);
    expect(c.key).toBe(c.private_key);
    expect(c.ca_bundle).toBe(c.intermediate_certificate);
    expect(c.private_key).toContain("PRIVATE KEY");
    // Validity follows the sandbox clock, which earlier tests advanced: verify at sandbox time.
    const { now } = (await mgmt(sb, "GET", "/clock")).body;
    const out = opensslVerify(`${c.certificate_leaf}\n${c.intermediate_certificate}`, sb.caCertificatePem, { attime: Date.parse(now) / 1000 });
    expect(out).toContain("OK");
    const text = opensslSync(["x509", "-noout", "-serial", "-fingerprint", "-sha256", "-ext", "subjectAltName"], { input: c.certificate_leaf });
    expect(text).toContain(`serial=${d.serial_number}`);
    expect(text).toContain(d.fingerprint_sha256);
    expect(text).toContain("DNS:www.example.com");
    const key = opensslSync(["x509", "-noout", "-text"], { input: c.certificate_leaf });
    expect(key).toMatch(/Public-Key: \(384 bit\)/);
    expect(key).toMatch(/Signature Algorithm: ecdsa-with-SHA384/);
    // The private key returned is the one the certificate certifies.
    const fromKey = opensslSync(["pkey", "-pubout"], { input: c.private_key });
    const fromCert = opensslSync(["x509", "-noout", "-pubkey"], { input: c.certificate_leaf });
    expect(fromKey).toBe(fromCert);
    const status = await ok(sb, "GetCertificateStatus", { order_no });
    expect(status.cert_downloaded).toBe(true);
    expect(status.end_date).toBe(d.end_date);
  });

  it("a 24-month order on a 12-month brand counts four installments of 200 days each (bought in 2026)", async () => {
    const { order_no, installments_count } = await ok(sb, "CreateOrder", { ...DV_MULTI, months: 24 });
    expect(installments_count).toBe(4);
    await ok(sb, "ApplySign", { order_no });
    const first = await ok(sb, "DownloadCertificate", { order_no });
    expect(first).toMatchObject({ installment_no: 1, installments_count: 4 });
    expect((Date.parse(`${first.end_date}Z`) - Date.parse(`${first.start_date}Z`)) / 86_400_000).toBe(200);
    const notYet = await call(sb, "DownloadCertificate", { order_no, installment_no: 2 });
    expect(notYet.code).toBe(400);
    expect(notYet.data.field).toBe("installment_no");
    expect((await call(sb, "DownloadCertificate", { order_no, installment_no: 5 })).data.field).toBe("installment_no");
  });

  it("an order with a custom CSR returns no private key", async () => {
    const csr = opensslCsr({ cn: "example.com", sans: ["example.com", "www.example.com"] });
    const { order_no } = await ok(sb, "CreateOrder", { ...DV_MULTI, custom_csr: csr });
    await ok(sb, "ApplySign", { order_no });
    const d = await ok(sb, "DownloadCertificate", { order_no });
    expect(d.certificate.private_key).toBe("");
    expect(d.has_private_key).toBe(false);
    expect(d.certificate.csr.trim()).toBe(csr.trim());
  });
});

describe("CancelOrder", () => {
  it("in state 0 skips upstream and refunds the balance directly; only once", async () => {
    const before = (await ok(sb, "GetUserData")).account.balance;
    const no = await newOrder();
    const d = await ok(sb, "CancelOrder", { order_no: no, reason: "changed my mind" });
    expect(d).toMatchObject({ refund_status: 3, refund_mode: "direct", refund_to: "balance", refund_amount: 120, upstream_cancel: { skipped: true, success: true } });
    expect(d.refund_order_no).toMatch(/^REFUND\d{18}$/);
    expect((await ok(sb, "GetUserData")).account.balance).toBe(before);
    expect((await mgmt(sb, "GET", `/orders/${no}`)).body).toMatchObject({ orderStatus: 4, certStatus: 5 });
    const again = await call(sb, "CancelOrder", { order_no: no });
    expect(again.code).toBe(400);
    expect(again.message).toMatch(/once/);
    expect((await call(sb, "ApplySign", { order_no: no })).code).toBe(400);
  });

  it("refunds credit to the credit line, after upstream cancel of an issued certificate", async () => {
    const before = (await ok(sb, "GetUserData")).account;
    const { order_no } = await ok(sb, "CreateOrder", { ...DV_MULTI, payment_method: "credit" });
    await ok(sb, "ApplySign", { order_no });
    expect((await ok(sb, "GetCertificateStatus", { order_no })).cert_status).toBe(1);
    const d = await ok(sb, "CancelOrder", { order_no });
    expect(d).toMatchObject({ refund_to: "credit", refund_mode: "direct", upstream_cancel: { skipped: false, success: true } });
    const after = (await ok(sb, "GetUserData")).account;
    expect(after.credit_used).toBe(before.credit_used);
    expect(after.balance).toBe(before.balance);
    expect((await call(sb, "DownloadCertificate", { order_no })).code).toBe(400);
  });

  it("falls back to audit mode when the upstream cancel fails; an administrator approves later", async () => {
    const before = (await ok(sb, "GetUserData")).account.balance;
    const no = await newOrder();
    await ok(sb, "ApplySign", { order_no: no });
    await mgmt(sb, "PUT", "/config", { upstreamCancelFails: true });
    try {
      const d = await ok(sb, "CancelOrder", { order_no: no });
      expect(d).toMatchObject({ refund_mode: "audit", refund_status: 0, upstream_cancel: { skipped: false, success: false } });
      expect(d).not.toHaveProperty("refund_order_no");
      expect((await mgmt(sb, "GET", `/orders/${no}`)).body).toMatchObject({ orderStatus: 2, certStatus: 6 });
      expect((await ok(sb, "GetUserData")).account.balance).not.toBe(before);
      const pending = await call(sb, "CancelOrder", { order_no: no });
      expect(pending.message).toMatch(/pending refund request/);
    } finally {
      await mgmt(sb, "PUT", "/config", { upstreamCancelFails: false });
    }
    const approved = await mgmt(sb, "POST", `/orders/${no}/approve-refund`);
    expect(approved.body).toMatchObject({ orderStatus: 4, certStatus: 5, refund: { status: 3 } });
    expect((await ok(sb, "GetUserData")).account.balance).toBe(before);
  });

  it("is refused after the refund window, in a revoked state, and for another account", async () => {
    const late = await newOrder();
    const other = await newOrder();
    expect((await call(sb, "CancelOrder", { order_no: other }, { key: keyB() })).code).toBe(404);
    const revoked = await newOrder();
    await ok(sb, "ApplySign", { order_no: revoked });
    await mgmt(sb, "POST", `/orders/${revoked}/issue`);
    expect((await mgmt(sb, "POST", `/orders/${revoked}/revoke`)).status).toBe(200);
    expect((await call(sb, "CancelOrder", { order_no: revoked })).message).toMatch(/cert_status 5/);
    await mgmt(sb, "POST", "/clock/advance", { seconds: 7 * 86_400 + 1 });
    const env = await call(sb, "CancelOrder", { order_no: late });
    expect(env.code).toBe(400);
    expect(env.message).toMatch(/refund window of 7 days/);
  });
});

describe("management API", () => {
  it("creates and tops up accounts, lists orders with prices, and serves the CA", async () => {
    const created = await mgmt(sb, "POST", "/accounts", { username: "mgmt-user", balance: 12.5, creditLine: "3" });
    expect(created.body).toMatchObject({ username: "mgmt-user", balance: "12.50", creditLine: "3.00" });
    expect((await mgmt(sb, "POST", "/accounts", { username: "mgmt-user" })).status).toBe(409);
    expect((await mgmt(sb, "POST", "/accounts", { username: "x", balance: -1 })).status).toBe(400);
    const topped = await mgmt(sb, "POST", "/accounts/mgmt-user/topup", { amount: "100", creditLine: 50 });
    expect(topped.body).toMatchObject({ balance: "112.50", creditLine: "50.00" });
    const orders = (await mgmt(sb, "GET", "/orders")).body as any[];
    expect(orders.length).toBeGreaterThan(5);
    expect(orders[0]).toHaveProperty("amount");
    expect(orders[0]).toHaveProperty("username", "a");
    expect(await ManagementClient.of(sb).rootPem()).toBe(sb.caCertificatePem);
    expect(await ManagementClient.of(sb).chainPem()).toContain("BEGIN CERTIFICATE");
    expect((await mgmt(sb, "GET", "/health")).body).toEqual({ ok: true });
    expect((await mgmt(sb, "PUT", "/config", { validation: "nope" })).status).toBe(400);
    expect((await mgmt(sb, "PUT", "/config", { bogus: 1 })).status).toBe(400);
    expect((await mgmt(sb, "POST", "/clock/advance", { seconds: -5 })).status).toBe(400);
    expect((await mgmt(sb, "GET", "/nothing")).status).toBe(404);
  });

  it("forces issue, failure and revocation", async () => {
    const no = await newOrder();
    const issued = await mgmt(sb, "POST", `/orders/${no}/issue`);
    expect(issued.body.certStatus).toBe(1);
    expect((await mgmt(sb, "POST", `/orders/${no}/fail`)).status).toBe(409);
    const failing = await newOrder();
    expect((await mgmt(sb, "POST", `/orders/${failing}/fail`)).body.certStatus).toBe(3);
    expect((await mgmt(sb, "POST", "/orders/CERT0/issue")).status).toBe(404);
  });

  it("an ipv6 order issues a certificate for the address, validated by file at its bracketed URL", async () => {
    const { order_no } = await ok(sb, "CreateOrder", { product_code: "sandbox-dv-ipv6", domain: "2606:4700:4700::1111" });
    const [rec] = (await ok(sb, "ApplySign", { order_no })).http_records;
    expect(rec.path).toBe(`http://[2606:4700:4700::1111]/.well-known/pki-validation/${rec.label}`);
    const d = await ok(sb, "DownloadCertificate", { order_no });
    const san = opensslSync(["x509", "-noout", "-ext", "subjectAltName"], { input: d.certificate.certificate_leaf });
    expect(san).toMatch(/IP Address:2606:4700:4700:(0:0:0:0:|:)1111/i);
  });

  it("an OV order's certificate carries the organisation", async () => {
    const { order_no } = await ok(sb, "CreateOrder", { product_code: "sandbox-ov-single", domain: "example.com", company_info: COMPANY });
    await ok(sb, "ApplySign", { order_no });
    const d = await ok(sb, "DownloadCertificate", { order_no });
    const subject = opensslSync(["x509", "-noout", "-subject"], { input: d.certificate.certificate_leaf });
    expect(subject).toContain(COMPANY.company_name);
  });
});
