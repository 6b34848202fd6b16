import { describe, expect, it } from "vitest";
import { knowledgeFrom, needsStatusRead, planRenewal } from "../../../src/resources/order/renewal.js";
import type { OrderState } from "../../../src/resources/order/state.js";
import type { CertificateStatus } from "../../../src/client/types.js";

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

// An adopted order: the API reports no term (only CreateOrder's answer carries `months`), so
// `termEndsAt`, `paidAt` and the installment numbers are absent; the certificate's notAfter is known.
describe("renewal plan of an adopted order (the term's end unknown)", () => {
  const { termEndsAt: _t, paidAt: _p, installmentsCount: _c, installmentNo: _n, requestId: _r, ...rest } = issued;
  const adopted = { ...rest, certStatus: 1, adopted: true } as OrderState;
  const inWindow = at("2027-05-20T00:00:00Z");

  it("never plans a purchase inside the window: nothing waiting → none, with a warning naming the unknown term, the notAfter and what to do", () => {
    const plan = planRenewal(adopted, { renewBeforeDays: 30 }, inWindow, { certId: "c1", certStatus: 1, notAfter: issued.certNotAfter, notBefore: issued.certNotBefore, nextWaiting: false });
    expect(plan.kind).toBe("none");
    const warning = plan.kind === "none" ? plan.warning : undefined;
    expect(warning).toMatch(/certificate c1 of order CERT1 expires 2027-06-11 \(notAfter 2027-06-11T00:00:00.000Z\)/);
    expect(warning).toMatch(/end of the order's term is unknown \(the order was adopted.*no later certificate awaiting submission\. Nothing is bought/);
    expect(warning).toMatch(/remove `adoptOrderNo`.*pulumi up --replace 'proj\/dev\/site'.*retainOnDelete/);
    // From the stored knowledge alone (no status read), and from percentages: still no purchase.
    expect(planRenewal(adopted, { renewBeforeDays: 30 }, inWindow).kind).toBe("none");
    expect(planRenewal(adopted, { renewBeforePercentage: 25 }, inWindow).kind).toBe("none");
    // Even the day before notAfter.
    expect(planRenewal(adopted, { renewBeforeDays: 30 }, at("2027-06-10T00:00:00Z")).kind).toBe("none");
  });

  it("the service shows the next installment waiting: reissue in place (nothing bought)", () => {
    const waiting = knowledgeFrom(adopted, { certId: "c2", certStatus: 0, startDate: null, endDate: null, requestId: null } as CertificateStatus);
    expect(waiting.nextWaiting).toBe(true);
    const plan = planRenewal(adopted, { renewBeforeDays: 30 }, inWindow, waiting);
    expect(plan.kind).toBe("reissue");
    expect(plan.kind === "reissue" && plan.reason).toMatch(/nothing is bought/);
  });

  it("outside the window: none, and no warning", () => {
    expect(planRenewal(adopted, { renewBeforeDays: 30 }, at("2027-05-01T00:00:00Z"))).toEqual({ kind: "none", opensAt: Date.parse("2027-05-12T00:00:00Z") });
  });

  it("nothing known about the certificate and no term: none (the term-end branch needs the term)", () => {
    const { certId: _i, certNotAfter: _a, certNotBefore: _b, ...blank } = adopted;
    expect(planRenewal(blank as OrderState, { renewBeforeDays: 30 }, inWindow)).toEqual({ kind: "none", unknown: true });
  });

  it("a bought order's last certificate still renews (the term is known)", () => {
    const last = { ...issued, installmentNo: 2, certId: "c2", certNotBefore: "2027-05-20T00:00:00.000Z", certNotAfter: "2027-11-22T23:59:30.000Z" };
    expect(planRenewal(last, { renewBeforeDays: 30 }, at("2027-10-25T00:00:00Z")).kind).toBe("renew");
  });

  it("a refresh that stored the waiting certificate's cert_status 0 over the issued one still sees the next installment (ApplySign answered: requestId)", () => {
    const refreshed = { ...order, certStatus: 0 } as OrderState;
    expect(knowledgeFrom(refreshed, { certId: "c2", certStatus: 0, startDate: null, endDate: null, requestId: null } as CertificateStatus).nextWaiting).toBe(true);
    // A bought order whose first ApplySign never answered: its cert_status 0 is the first certificate.
    const unsubmitted = { ...order, certStatus: 0, requestId: undefined } as OrderState;
    expect(knowledgeFrom(unsubmitted, { certId: "c1", certStatus: 0, startDate: null, endDate: null, requestId: null } as CertificateStatus).nextWaiting).toBe(false);
  });
});
