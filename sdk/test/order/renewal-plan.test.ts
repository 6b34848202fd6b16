import { describe, expect, it } from "vitest";
import { knowledgeFrom, needsStatusRead, planRenewal } from "../../src/resources/order/renewal.js";
import type { OrderState } from "../../src/resources/order/types.js";
import type { CertificateStatus } from "../../src/client/types.js";

// A 12-month order bought 2026-11-23: the first certificate lives 200 days (to 2027-06-11).
const order = {
  productCode: "sandbox-dv-single",
  domain: "example.com",
  sanDomains: [],
  wildcardDomains: [],
  months: 12,
  signatureAlgorithm: "rsa",
  keySpec: "rsa-2048",
  hashAlgorithm: "sha256",
  paymentMethod: "balance",
  journalKey: "proj/dev/site",
  orderNo: "CERT1",
  certStatus: 2,
  requestId: "SIG-1",
  installmentsCount: 2,
  installmentNo: 1,
  paidAt: "2026-11-23T00:00:00.000Z",
  termEndsAt: "2027-11-23T00:00:00.000Z",
} as OrderState;
const issued = { ...order, certId: "c1", certNotBefore: "2026-11-23T00:00:00.000Z", certNotAfter: "2027-06-11T00:00:00.000Z" };
const at = (text: string) => new Date(text);

describe("renewal plan", () => {
  it("no setting: nothing, and no status read", () => {
    expect(planRenewal(issued, {}, at("2027-06-10T00:00:00Z")).kind).toBe("none");
    expect(needsStatusRead(issued, {}, at("2027-06-10T00:00:00Z"))).toBe(false);
  });

  it("the stored notAfter decides without a call outside the window", () => {
    expect(needsStatusRead(issued, { renewBeforeDays: 30 }, at("2027-05-11T23:00:00Z"))).toBe(false);
    expect(planRenewal(issued, { renewBeforeDays: 30 }, at("2027-05-11T23:00:00Z"))).toEqual({ kind: "none", opensAt: Date.parse("2027-05-12T00:00:00Z") });
    // Inside the window, or knowing nothing: one read.
    expect(needsStatusRead(issued, { renewBeforeDays: 30 }, at("2027-05-12T00:00:00Z"))).toBe(true);
    expect(needsStatusRead(order, { renewBeforeDays: 30 }, at("2026-11-24T00:00:00Z"))).toBe(true);
  });

  it("inside the window with another installment left: reissue in place, naming the certificate, its end, the window and k of n", () => {
    const plan = planRenewal(issued, { renewBeforeDays: 30 }, at("2027-05-20T00:00:00Z"));
    expect(plan.kind).toBe("reissue");
    expect(plan.kind === "reissue" && plan.reason).toMatch(
      /certificate c1 of order CERT1 \(installment 1 of 2\) expires 2027-06-11; the renewal window \(renewBeforeDays=30\) opened 2027-05-12.*reissue installment 2 of 2 in place.*nothing is bought/,
    );
  });

  it("a certificate ending before the term leaves another even when CreateOrder counted fewer (later certificates live shorter)", () => {
    const second = { ...issued, installmentNo: 2, certId: "c2", certNotBefore: "2027-05-20T00:00:00.000Z", certNotAfter: "2027-08-28T00:00:00.000Z" };
    const plan = planRenewal(second, { renewBeforeDays: 30 }, at("2027-08-01T00:00:00Z"));
    expect(plan.kind === "reissue" && [plan.next, plan.count]).toEqual([3, 3]);
  });

  it("the last certificate (it ends with the term): the window asks for a new purchase", () => {
    const last = { ...issued, installmentNo: 2, certId: "c2", certNotBefore: "2027-05-20T00:00:00.000Z", certNotAfter: "2027-11-22T23:59:30.000Z" };
    const plan = planRenewal(last, { renewBeforeDays: 30 }, at("2027-10-25T00:00:00Z"), undefined, "100.00");
    expect(plan.kind).toBe("renew");
    expect(plan.kind === "renew" && plan.reason).toMatch(/renewal due: order CERT1's last certificate \(installment 2 of 2\) expires 2027-11-22.*no installment is left: a new order will be bought \(quoted 100.00\)/);
    expect(planRenewal(last, { renewBeforeDays: 30 }, at("2027-10-20T00:00:00Z")).kind).toBe("none");
  });

  it("percentage and both", () => {
    // 25 % of 200 days = 50 days before 2027-06-11: 2027-04-22.
    expect(planRenewal(issued, { renewBeforePercentage: 25 }, at("2027-04-21T00:00:00Z")).kind).toBe("none");
    expect(planRenewal(issued, { renewBeforePercentage: 25 }, at("2027-04-22T00:00:00Z")).kind).toBe("reissue");
    expect(planRenewal(issued, { renewBeforeDays: 10, renewBeforePercentage: 25 }, at("2027-04-23T00:00:00Z")).kind).toBe("reissue");
  });

  it("learns from a status read: an issued certificate's dates; the next installment waiting", () => {
    const status = { certId: "c1", certStatus: 1, startDate: "2026-11-23 00:00:00", endDate: "2027-06-11 00:00:00", requestId: "SIG-1" } as CertificateStatus;
    const k = knowledgeFrom(order, status);
    expect(k).toMatchObject({ certId: "c1", notBefore: "2026-11-23T00:00:00.000Z", notAfter: "2027-06-11T00:00:00.000Z" });
    expect(planRenewal(order, { renewBeforeDays: 30 }, at("2027-01-01T00:00:00Z"), k).kind).toBe("none");
    expect(planRenewal(order, { renewBeforeDays: 30 }, at("2027-05-13T00:00:00Z"), k).kind).toBe("reissue");
    const waiting = knowledgeFrom(issued, { certId: "c2", certStatus: 0, startDate: null, endDate: null, requestId: null } as CertificateStatus);
    expect(waiting.nextWaiting).toBe(true);
    expect(planRenewal(issued, { renewBeforeDays: 30 }, at("2027-05-13T00:00:00Z"), waiting).kind).toBe("reissue");
  });

  it("after a reissue the lower bound keeps previews from asking until the new certificate's window may open", () => {
    const reissued = { ...order, installmentNo: 2, certNotBefore: "2027-05-20T00:00:00.000Z", certNotAfterAtLeast: "2027-08-28T00:00:00.000Z" };
    expect(needsStatusRead(reissued, { renewBeforeDays: 30 }, at("2027-07-28T00:00:00Z"))).toBe(false);
    expect(needsStatusRead(reissued, { renewBeforeDays: 30 }, at("2027-07-29T00:00:00Z"))).toBe(true);
  });
});
