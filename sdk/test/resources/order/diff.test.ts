import { describe, expect, it } from "vitest";
import { createContext, UNKNOWN } from "../../../src/provider/index.js";
import { handlers } from "../../../src/resources/order/handlers.js";
import type { OrderInputs } from "../../../src/resources/order/inputs.js";
import type { OrderState } from "../../../src/resources/order/state.js";

const lines: string[] = [];
const now = new Date("2026-11-22T12:00:00Z");
const ctx = createContext({
  type: "Order",
  settings: { journalDir: "/nonexistent/journal" },
  sink: (_l, line) => lines.push(line),
  now: () => now,
});

const inputs: OrderInputs = {
  productCode: "sandbox-dv-multi",
  domain: "example.com",
  sanDomains: ["api.example.com", "www.example.com"],
  wildcardDomains: [],
  months: 12,
  verificationMethod: "dns",
  signatureAlgorithm: "rsa",
  keySpec: "rsa-2048",
  hashAlgorithm: "sha256",
  paymentMethod: "balance",
  journalKey: "proj/dev/site",
  quotedPrice: "140.00",
};
const olds: OrderState = {
  ...inputs,
  orderNo: "CERT1",
  certStatus: 2,
  requestId: "SIG-1",
  termEndsAt: "2027-11-22T09:00:00.000Z",
};

async function diff(news: Partial<OrderInputs>, old: Partial<OrderState> = {}) {
  return handlers.diff!(ctx, "CERT1", { ...olds, ...old }, { ...inputs, ...news } as OrderInputs);
}

describe("Order diff", () => {
  it("no change for identical inputs", async () => {
    expect(await diff({})).toEqual({ changes: false });
  });

  const replacing: [string, Partial<OrderInputs>][] = [
    ["productCode", { productCode: "longlife-dv-multi" }],
    ["domain", { domain: "example.org" }],
    ["sanDomains", { sanDomains: ["api.example.com"] }],
    ["wildcardDomains", { wildcardDomains: ["*.example.com"] }],
    ["months", { months: 24 }],
    ["signatureAlgorithm", { signatureAlgorithm: "ecc", keySpec: "p-256" }],
    ["keySpec", { keySpec: "rsa-4096" }],
    ["hashAlgorithm", { hashAlgorithm: "sha384" }],
    ["paymentMethod", { paymentMethod: "credit" }],
    ["years", { years: 2, months: 24 }],
    ["companyId", { companyId: 7 }],
    ["companyInfo", { companyInfo: { companyName: "A", countryCode: "DE", contactFirst: "Muster", contactLast: "Erika", email: "c@a.de" } }],
    ["customCsr", { customCsr: "-----BEGIN CERTIFICATE REQUEST-----\n...\n" }],
    ["couponCode", { couponCode: "WELCOME" }],
  ];
  for (const [key, news] of replacing) {
    it(`replaces on ${key}`, async () => {
      const result = await diff(news);
      expect(result.changes).toBe(true);
      expect(result.replaces).toContain(key);
      expect(result.deleteBeforeReplace).toBe(false);
    });
  }

  it("replaces when a purchase input is unknown at preview", async () => {
    expect((await diff({ domain: UNKNOWN })).replaces).toEqual(["domain"]);
  });

  it("updates in place for verificationMethod", async () => {
    expect(await diff({ verificationMethod: "cname" })).toEqual({ changes: true });
    expect(await diff({ verificationMethod: "email-hostmaster" }, { verificationMethod: "email-admin" })).toEqual({ changes: true });
    expect(await diff({ verificationMethod: UNKNOWN as never })).toEqual({ changes: true });
  });

  it("the service's plain `email` matches every email-… method: no perpetual diff", async () => {
    expect(await diff({ verificationMethod: "email-admin" }, { verificationMethod: "email" })).toEqual({ changes: false });
    expect(await diff({ verificationMethod: "email-webmaster" }, { verificationMethod: "email" })).toEqual({ changes: false });
    expect(await diff({ verificationMethod: "dns" }, { verificationMethod: "email" })).toEqual({ changes: true });
  });

  it("the term is what is bought: months and the same term in years are no change", async () => {
    expect(await diff({ years: 1 })).toEqual({ changes: false });
    expect(await diff({ years: undefined, months: 12 }, { years: 1 })).toEqual({ changes: false });
    expect((await diff({ years: 2, months: 24 })).replaces?.sort()).toEqual(["months", "years"]);
  });

  it("an order bought with the former companyInfo members is the same company under the new members", async () => {
    const former = { companyName: "Acme GmbH", registrationNumber: "HRB 1", country: "de", state: "Berlin", city: "Berlin", address: "Main St 1", postalCode: "10115", contactName: "Erika Muster", contactEmail: "ops@acme.test", contactPhone: "+49 30 1234" };
    const current = { companyName: "Acme GmbH", registrationNo: "HRB 1", countryCode: "DE", province: "Berlin", city: "Berlin", address: "Main St 1", postalCode: "10115", contactFirst: "Muster", contactLast: "Erika", email: "ops@acme.test", phone: "+49 30 1234" };
    const old = { companyInfo: former as never };
    expect(await diff({ companyInfo: current }, old)).toEqual({ changes: false });
    expect((await diff({ companyInfo: { ...current, companyName: "Other Corp" } }, old)).replaces).toEqual(["companyInfo"]);
    expect((await diff({ companyInfo: { ...current, contactFirst: "Schmidt" } }, old)).replaces).toEqual(["companyInfo"]);
    expect((await diff({ companyInfo: { ...current, idNumber: "X1" } }, old)).replaces).toEqual(["companyInfo"]);
  });

  it("no change for SAN order, case, quoted price, renewBeforeDays outside the window, journal key, an unset method", async () => {
    expect(await diff({ sanDomains: ["www.example.com", "API.example.com"] })).toEqual({ changes: false });
    expect(await diff({ quotedPrice: "999.00" })).toEqual({ changes: false });
    expect(await diff({ renewBeforeDays: 30 })).toEqual({ changes: false });
    expect(await diff({ journalKey: "proj/dev/renamed" })).toEqual({ changes: false });
    expect(await diff({ verificationMethod: undefined })).toEqual({ changes: false });
  });

  it("adoptOrderNo: the held order is no change, another order replaces", async () => {
    expect(await diff({ adoptOrderNo: "CERT1" })).toEqual({ changes: false });
    expect((await diff({ adoptOrderNo: "CERT2" })).replaces).toEqual(["adoptOrderNo"]);
  });

  it("refuses a replacement while adoptOrderNo still names the held order (it would re-adopt, then cancel, that order)", async () => {
    await expect(diff({ months: 24, adoptOrderNo: "CERT1" })).rejects.toThrow(
      /months needs a new purchase, but adoptOrderNo still names the order this resource holds \(CERT1\)\. Remove adoptOrderNo/,
    );
    await expect(diff({ renewBeforeDays: 30, adoptOrderNo: "CERT1" }, { termEndsAt: "2026-12-10T00:00:00.000Z" })).rejects.toThrow(/\(renewal\) needs a new purchase/);
  });

  it("renewal: inside the window the order is replaced and the reason is logged", async () => {
    lines.length = 0;
    const result = await diff({ renewBeforeDays: 30 }, { termEndsAt: "2026-12-10T00:00:00.000Z" });
    expect(result).toEqual({ changes: true, replaces: ["renewBeforeDays"], deleteBeforeReplace: false });
    expect(lines.join("\n")).toMatch(/renewal due: order CERT1's term ends 2026-12-10, within renewBeforeDays=30; a new order will be bought \(quoted 140.00\); the old one is deleted once the new one is in place/);
    // One day before the window opens: nothing.
    expect(await diff({ renewBeforeDays: 17 }, { termEndsAt: "2026-12-10T00:00:00.000Z" })).toEqual({ changes: false });
  });
});
