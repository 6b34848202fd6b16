import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { opensslSync, opensslVerify } from "../../../tests/support/openssl.js";
import { CABF_LIMITS, installmentsAtPurchase, limitOn, renewalOpensAtMs } from "../../src/catalogue/lifetimes.js";
import type { RunningSandbox } from "../../src/index.js";
import { call, mgmt, ok, withSandbox } from "../support/sandbox.js";

const DAY = 86_400_000;
const SINGLE = { product_code: "sandbox-dv-single", verification_method: "dns", months: 12 };
/** The service's `YYYY-MM-DD HH:MM:SS` (UTC) as ms. */
const wireMs = (s: string): number => Date.parse(`${s.replace(" ", "T")}Z`);

describe("the CA/B lifetime schedule (pure)", () => {
  it("picks the limit by issue date, at UTC midnight of each step", () => {
    expect(limitOn(Date.parse("2026-03-14T23:59:59Z"))).toMatchObject({ maxDays: 398, reuseDays: 398 });
    expect(limitOn(Date.parse("2026-03-15T00:00:00Z"))).toMatchObject({ maxDays: 200, reuseDays: 200 });
    expect(limitOn(Date.parse("2027-03-14T23:59:59Z"))).toMatchObject({ maxDays: 200, reuseDays: 200 });
    expect(limitOn(Date.parse("2027-03-15T00:00:00Z"))).toMatchObject({ maxDays: 100, reuseDays: 100 });
    expect(limitOn(Date.parse("2029-03-15T00:00:00Z"))).toMatchObject({ maxDays: 47, reuseDays: 10 });
    expect(CABF_LIMITS).toHaveLength(4);
  });

  it("counts installments at purchase as ceil(term / lifetime at purchase)", () => {
    // Before the first step a 12-month brand issues 12 months: one certificate.
    expect(installmentsAtPurchase(Date.parse("2026-01-10T00:00:00Z"), 12, 12)).toBe(1);
    // 36 months on the 36-month brand, 398-day cap: 1096 / 398 → 3.
    expect(installmentsAtPurchase(Date.parse("2026-01-10T00:00:00Z"), 36, 36)).toBe(3);
    expect(installmentsAtPurchase(Date.parse("2026-06-01T00:00:00Z"), 12, 12)).toBe(2); // 365 / 200
    expect(installmentsAtPurchase(Date.parse("2026-06-01T00:00:00Z"), 24, 12)).toBe(4); // 731 / 200
    expect(installmentsAtPurchase(Date.parse("2026-06-01T00:00:00Z"), 36, 36)).toBe(6); // 1096 / 200
    expect(installmentsAtPurchase(Date.parse("2027-06-01T00:00:00Z"), 12, 12)).toBe(4); // 366 / 100
    expect(installmentsAtPurchase(Date.parse("2029-06-01T00:00:00Z"), 12, 12)).toBe(8); // 365 / 47
  });

  it("opens the renewal window the configured days before expiry, at most half the lifetime", () => {
    const nb = Date.parse("2026-06-01T00:00:00Z");
    expect(renewalOpensAtMs(nb, nb + 200 * DAY, 30)).toBe(nb + 170 * DAY);
    expect(renewalOpensAtMs(nb, nb + 200 * DAY, 0)).toBe(nb + 200 * DAY);
    expect(renewalOpensAtMs(nb, nb + 47 * DAY, 30)).toBe(nb + 23.5 * DAY);
  });
});

describe("installments on the sandbox clock (bought 2026-06-01, published records)", () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await withSandbox({ clockStart: "2026-06-01T00:00:00Z", validation: "published" });
  });
  afterAll(async () => {
    await sb.stop();
  });

  const now = async (): Promise<number> => Date.parse((await mgmt(sb, "GET", "/clock")).body.now);
  const advanceTo = async (ms: number): Promise<void> => {
    const seconds = (ms - (await now())) / 1000;
    expect(seconds).toBeGreaterThan(0);
    await mgmt(sb, "POST", "/clock/advance", { seconds });
  };
  const order = async (no: string) => (await mgmt(sb, "GET", `/orders/${no}`)).body;
  const publish = async (records: Array<{ label: string; domain: string; value: string }>): Promise<void> => {
    for (const r of records) expect((await mgmt(sb, "POST", "/dns-records", { fqdn: `${r.label}.${r.domain}`, type: "TXT", value: r.value })).status).toBe(201);
  };
  /** notBefore/notAfter as openssl reads them from the leaf, after openssl verified the chain at the sandbox's time. */
  const opensslDates = async (d: any): Promise<{ notBefore: number; notAfter: number }> => {
    const leaf: string = d.certificate.certificate_leaf;
    expect(opensslVerify(`${leaf}\n${d.certificate.intermediate_certificate}`, sb.caCertificatePem, { attime: (await now()) / 1000 })).toContain("OK");
    const out = opensslSync(["x509", "-noout", "-startdate", "-enddate"], { input: leaf });
    return {
      notBefore: Date.parse(/notBefore=(.*)/.exec(out)![1]!),
      notAfter: Date.parse(/notAfter=(.*)/.exec(out)![1]!),
    };
  };

  let a: string; // renews inside the window, within the reuse period
  let b: string; // renews after the reuse period
  let first: any;
  let firstRecords: any[];
  let firstRequestId: string;
  let bRecords: any[];

  it("a 12-month order counts two installments; the first lives 200 days from its issue date (openssl)", async () => {
    const created = await ok(sb, "CreateOrder", { ...SINGLE, domain: "a.example.com" });
    expect(created.installments_count).toBe(2);
    a = created.order_no;
    b = (await ok(sb, "CreateOrder", { ...SINGLE, domain: "b.example.com" })).order_no;
    const signed = await ok(sb, "ApplySign", { order_no: a });
    firstRecords = signed.dns_records;
    firstRequestId = signed.request_id;
    bRecords = (await ok(sb, "ApplySign", { order_no: b })).dns_records;
    // Published mode: nothing issues before the records are out.
    expect((await ok(sb, "GetCertificateStatus", { order_no: a })).cert_status).toBe(2);
    await publish([...firstRecords, ...bRecords]);
    const status = await ok(sb, "GetCertificateStatus", { order_no: a });
    expect(status.cert_status).toBe(1);
    expect((await ok(sb, "GetCertificateStatus", { order_no: b })).cert_status).toBe(1);
    expect(wireMs(status.end_date) - wireMs(status.start_date)).toBe(200 * DAY);
    expect(status.start_date).toMatch(/^2026-06-01 /);
    first = await ok(sb, "DownloadCertificate", { order_no: a });
    expect(first).toMatchObject({ installment_no: 1, installments_count: 2, valid_from: "2026-06-01", valid_to: "2026-12-18" });
    const dates = await opensslDates(first);
    expect(dates.notBefore).toBe(wireMs(first.start_date));
    expect(dates.notAfter).toBe(wireMs(first.end_date));
    expect(dates.notAfter - dates.notBefore).toBe(200 * DAY);
  });

  it("the next installment is not submittable before the window (30 days before expiry), with a 400 that says when", async () => {
    const refused = await call(sb, "ApplySign", { order_no: a });
    expect(refused.code).toBe(400);
    expect(refused.data.field).toBe("order_no");
    expect(refused.message).toContain("next installment can be submitted from 2026-11-18");
    const opens = Date.parse((await order(a)).certificates[0].renewalOpensAt);
    expect(opens).toBe(wireMs(first.end_date) - 30 * DAY);
    await advanceTo(opens - 3_600_000);
    expect((await ok(sb, "GetRecord", { order_no: a })).cert_status).toBe(1);
    expect((await call(sb, "ApplySign", { order_no: a })).code).toBe(400);
  });

  it("inside the window the current certificate is installment 2 in cert_status 0; the first stays the default download", async () => {
    await advanceTo(Date.parse((await order(a)).certificates[0].renewalOpensAt) + 3_600_000);
    const rec = await ok(sb, "GetRecord", { order_no: a });
    expect(rec).toMatchObject({ cert_status: 0, dns_records: [], http_records: [], email_records: [] });
    const status = await ok(sb, "GetCertificateStatus", { order_no: a });
    expect(status).toMatchObject({ cert_status: 0, start_date: null, end_date: null, request_id: null, order_status: 1 });
    expect(status.cert_id).not.toBe(first.cert_id);
    expect((await ok(sb, "DownloadCertificate", { order_no: a })).cert_id).toBe(first.cert_id);
    const notIssued = await call(sb, "DownloadCertificate", { order_no: a, installment_no: 2 });
    expect(notIssued.code).toBe(400);
    expect(notIssued.message).toMatch(/cert_status 0/);
    expect((await call(sb, "DownloadCertificate", { order_no: a, installment_no: 3 })).data.field).toBe("installment_no");
  });

  it("within the reuse period ApplySign submits installment 2 with the same (verified) records and it issues without publishing", async () => {
    await mgmt(sb, "DELETE", "/dns-records");
    const signed = await ok(sb, "ApplySign", { order_no: a });
    expect(signed.cert_status).toBe(2);
    expect(signed.request_id).toMatch(/^SIG-/);
    expect(signed.request_id).not.toBe(firstRequestId);
    expect(signed.dns_records.map((r: any) => r.value)).toEqual(firstRecords.map((r) => r.value));
    const status = await ok(sb, "GetCertificateStatus", { order_no: a });
    expect(status).toMatchObject({ cert_status: 1, all_dcv_verified: true });
    const second = await ok(sb, "DownloadCertificate", { order_no: a, installment_no: 2 });
    const view = await order(a);
    expect(second).toMatchObject({ installment_no: 2, installments_count: 2, cert_id: status.cert_id });
    expect(second.serial_number).not.toBe(first.serial_number);
    // Issued 2026-11-18 + 200 days would pass the term: the last installment ends with the term.
    expect(second.valid_from).toBe("2026-11-18");
    expect(second.valid_to).toBe("2027-06-01");
    expect(wireMs(second.end_date)).toBe(Date.parse(view.termEndsAt));
    const dates = await opensslDates(second);
    expect(dates.notBefore).toBe(wireMs(second.start_date));
    expect(dates.notAfter).toBe(Date.parse(view.termEndsAt));
    // The first is still downloadable, by number and by cert_id.
    expect((await ok(sb, "DownloadCertificate", { order_no: a, installment_no: 1 })).serial_number).toBe(first.serial_number);
    expect((await ok(sb, "DownloadCertificate", { order_no: a, cert_id: first.cert_id })).serial_number).toBe(first.serial_number);
    expect((await call(sb, "DownloadCertificate", { order_no: a, certificate_id: "nope" })).code).toBe(404);
  });

  it("after the reuse period (200 days since validation) installment 2 needs fresh records, and published mode waits for them", async () => {
    // b's first certificate was validated on 2026-06-01; its 200 days of reuse end with its expiry.
    const firstB = await ok(sb, "DownloadCertificate", { order_no: b });
    await advanceTo(wireMs(firstB.end_date) + DAY);
    expect((await ok(sb, "GetRecord", { order_no: b })).cert_status).toBe(0);
    const signed = await ok(sb, "ApplySign", { order_no: b });
    expect(signed.dns_records).toHaveLength(1);
    expect(signed.dns_records[0].value).not.toBe(bRecords[0].value);
    await publish(bRecords); // the old token no longer counts
    const pending = await ok(sb, "GetCertificateStatus", { order_no: b });
    expect(pending).toMatchObject({ cert_status: 2, all_dcv_verified: false, domain_statuses: [{ domain: "b.example.com", verified: false }] });
    expect((await ok(sb, "GetRecord", { order_no: b })).dns_records[0].value).toBe(signed.dns_records[0].value);
    await publish(signed.dns_records);
    expect((await ok(sb, "GetCertificateStatus", { order_no: b })).cert_status).toBe(1);
    const second = await ok(sb, "DownloadCertificate", { order_no: b, installment_no: 2 });
    expect(second.valid_from).toBe("2026-12-19");
    expect(second.valid_to).toBe("2027-06-01");
    expect((await ok(sb, "DownloadCertificate", { order_no: b })).installment_no).toBe(1);
  });

  it("past the order's term nothing more is submittable; the count stays two", async () => {
    // Inside the last certificate's window: it reaches the term's end, so no third installment starts.
    await advanceTo(Date.parse((await order(a)).termEndsAt) - 10 * DAY);
    expect((await ok(sb, "GetRecord", { order_no: a })).cert_status).toBe(1);
    const last = await call(sb, "ApplySign", { order_no: a });
    expect(last.code).toBe(400);
    expect(last.message).toMatch(/last certificate: the term ends 2027-06-01/);
    await advanceTo(Date.parse((await order(a)).termEndsAt) + DAY);
    expect((await call(sb, "ApplySign", { order_no: a })).code).toBe(400);
    const view = await order(a);
    expect(view.certificates).toHaveLength(2);
    expect(view.installmentsCount).toBe(2);
    expect((await ok(sb, "DownloadCertificate", { order_no: a, installment_no: 2 })).installments_count).toBe(2);
  });

  it("a certificate issued from 2027-03-15 lives 100 days (openssl); a 12-month order then counts four", async () => {
    // The clock is past 2027-06-01 now.
    const created = await ok(sb, "CreateOrder", { ...SINGLE, domain: "c.example.com" });
    expect(created.installments_count).toBe(4);
    const signed = await ok(sb, "ApplySign", { order_no: created.order_no });
    await publish(signed.dns_records);
    const d = await ok(sb, "DownloadCertificate", { order_no: created.order_no });
    expect(wireMs(d.start_date)).toBeGreaterThan(Date.parse("2027-03-15T00:00:00Z"));
    const dates = await opensslDates(d);
    expect(dates.notAfter - dates.notBefore).toBe(100 * DAY);
    expect(dates.notAfter).toBe(wireMs(d.end_date));
  });
});

describe("a limit change during an order", () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await withSandbox({ clockStart: "2026-12-01T00:00:00Z" });
  });
  afterAll(() => sb.stop());

  it("a later installment lives the limit of its own issue date, reuse follows the limit on its submission date, and the count grows", async () => {
    const advanceTo = async (iso: string | number): Promise<void> => {
      const target = typeof iso === "number" ? iso : Date.parse(iso);
      const clock = Date.parse((await mgmt(sb, "GET", "/clock")).body.now);
      await mgmt(sb, "POST", "/clock/advance", { seconds: (target - clock) / 1000 });
    };
    const { order_no, installments_count } = await ok(sb, "CreateOrder", { ...SINGLE, domain: "d.example.com" });
    expect(installments_count).toBe(2); // 365 days / 200
    const r1 = (await ok(sb, "ApplySign", { order_no })).dns_records;
    const first = await ok(sb, "DownloadCertificate", { order_no });
    expect(first.valid_to).toBe("2027-06-19");
    // The window opens 2027-05-20, after the 100-day step: installment 2 lives 100 days, and
    // the validation of 2026-12-01 (170 days ago) is past the 100-day reuse: fresh records.
    await advanceTo("2027-05-21T00:00:00Z");
    const r2 = (await ok(sb, "ApplySign", { order_no })).dns_records;
    expect(r2[0].value).not.toBe(r1[0].value);
    const second = await ok(sb, "DownloadCertificate", { order_no, installment_no: 2 });
    expect(wireMs(second.end_date) - wireMs(second.start_date)).toBe(100 * DAY);
    expect(second.installments_count).toBe(2);
    // It ends before the term (2027-12-01): a third installment starts in its window and the count grows.
    await advanceTo(wireMs(second.end_date) - 29 * DAY);
    expect((await ok(sb, "GetCertificateStatus", { order_no })).cert_status).toBe(0);
    // Within 100 days of the last validation: reused.
    const r3 = (await ok(sb, "ApplySign", { order_no })).dns_records;
    expect(r3[0].value).toBe(r2[0].value);
    const third = await ok(sb, "DownloadCertificate", { order_no, installment_no: 3 });
    expect(third).toMatchObject({ installment_no: 3, installments_count: 3 });
    expect((await ok(sb, "DownloadCertificate", { order_no })).installments_count).toBe(3);
  });

  it("renewalWindowDays is a runtime knob", async () => {
    const cfg = await mgmt(sb, "PUT", "/config", { renewalWindowDays: 60 });
    expect(cfg.body.renewalWindowDays).toBe(60);
    const { order_no } = await ok(sb, "CreateOrder", { ...SINGLE, domain: "e.example.com" });
    await ok(sb, "ApplySign", { order_no });
    const d = await ok(sb, "DownloadCertificate", { order_no });
    const view = (await mgmt(sb, "GET", `/orders/${order_no}`)).body;
    expect(Date.parse(view.certificates[0].renewalOpensAt)).toBe(wireMs(d.end_date) - 50 * DAY); // 100-day certificate: at most half
    await mgmt(sb, "PUT", "/config", { renewalWindowDays: 10 });
    expect(Date.parse((await mgmt(sb, "GET", `/orders/${order_no}`)).body.certificates[0].renewalOpensAt)).toBe(wireMs(d.end_date) - 10 * DAY);
    expect((await mgmt(sb, "PUT", "/config", { renewalWindowDays: -1 })).status).toBe(400);
    await mgmt(sb, "PUT", "/config", { renewalWindowDays: 30 });
  });
});
