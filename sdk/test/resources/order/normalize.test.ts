import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../src/provider/index.js";
import { normalizeOrder } from "../../../src/resources/order/normalize.js";

const base = { productCode: "p", domain: "example.com" };
const company = { companyName: "Acme GmbH", countryCode: "de", contactFirst: "Muster", contactLast: "Erika", email: "ops@acme.test" };
const failuresOf = (raw: Record<string, unknown>) => normalizeOrder(raw).failures.map((f) => `${f.property}: ${f.reason}`);

describe("normalizeOrder", () => {
  it("applies product-independent defaults and canonical forms", () => {
    const { values, failures } = normalizeOrder({ productCode: " p ", domain: "WWW.Example.com.", sanDomains: ["b.example.com", "A.example.com"], signatureAlgorithm: "ECC" });
    expect(failures).toEqual([]);
    expect(values).toEqual({
      productCode: "p",
      domain: "www.example.com",
      sanDomains: ["a.example.com", "b.example.com"],
      wildcardDomains: [],
      months: 12,
      signatureAlgorithm: "ecc",
      keySpec: "p-256",
      hashAlgorithm: "sha256",
      paymentMethod: "balance",
    });
  });
  it("keeps placeholders and skips the rules that depend on them; a default that depends on one is unknown too", () => {
    const { values, unknown, failures } = normalizeOrder({ ...base, signatureAlgorithm: UNKNOWN, years: UNKNOWN });
    expect(failures).toEqual([]);
    expect(values.signatureAlgorithm).toBe(UNKNOWN);
    expect(values.keySpec).toBe(UNKNOWN);
    expect(values.months).toBe(UNKNOWN);
    expect([...unknown].sort()).toEqual(["keySpec", "months", "signatureAlgorithm", "years"]);
  });
  it("names the field and rule for wrongly typed values from untyped programs", () => {
    const { failures } = normalizeOrder({ productCode: 5, domain: ["x"], sanDomains: "a.example.com", months: "12", companyId: -1, couponCode: "" });
    expect(failures.map((f) => f.property)).toEqual(["productCode", "domain", "sanDomains", "months", "companyId", "couponCode"]);
    expect(failures.find((f) => f.property === "months")?.reason).toBe('must be a whole number from 1 to 120, got "12"');
  });
  it("normalises CSR line endings so the same CSR pasted on Windows is no change", () => {
    const { values } = normalizeOrder({ ...base, customCsr: "-----BEGIN CERTIFICATE REQUEST-----\r\nAAA\r\n-----END CERTIFICATE REQUEST-----\r\n" });
    expect(values.customCsr).toBe("-----BEGIN CERTIFICATE REQUEST-----\nAAA\n-----END CERTIFICATE REQUEST-----\n");
  });
  it("keeps the internal inputs but not a stale quote", () => {
    const { values } = normalizeOrder({ ...base, journalKey: "urn:x", __provider: "text", quotedPrice: "1.00" });
    expect(values).toMatchObject({ journalKey: "urn:x", __provider: "text" });
    expect(values.quotedPrice).toBeUndefined();
  });
});

describe("years and months", () => {
  it("years alone is a term of years * 12 months", () => {
    expect(normalizeOrder({ ...base, years: 2 }).values).toMatchObject({ years: 2, months: 24 });
  });
  it("both, agreeing, pass", () => {
    expect(normalizeOrder({ ...base, years: 1, months: 12 }).failures).toEqual([]);
  });
  it("both, disagreeing, fail on years: the service would use months", () => {
    expect(failuresOf({ ...base, years: 2, months: 12 })).toEqual([
      "years: 2 years are 24 months but months is 12: the service uses months when both are given (spec 4.3 CreateOrder); give one",
    ]);
  });
  it("neither is 12 months", () => {
    expect(normalizeOrder(base).values.months).toBe(12);
  });
  it("years must be a whole number of years", () => {
    expect(failuresOf({ ...base, years: 1.5 })).toEqual(["years: must be a whole number from 1 to 10, got 1.5"]);
    expect(failuresOf({ ...base, years: 0 })).toEqual(["years: must be a whole number from 1 to 10, got 0"]);
  });
});

describe("verification methods", () => {
  it("takes the specification's codes, in any case", () => {
    for (const method of ["dns", "cname", "file", "email-admin", "email-postmaster", "email-webmaster", "email-hostmaster", "dcv"]) {
      expect(normalizeOrder({ ...base, verificationMethod: method.toUpperCase() }).values.verificationMethod).toBe(method);
    }
  });
  it('refuses "email" and names the four mailbox codes', () => {
    expect(failuresOf({ ...base, verificationMethod: "email" })).toEqual([
      expect.stringMatching(/^verificationMethod: "email" is not a method code of the specification .*"email-admin", "email-postmaster", "email-webmaster", "email-hostmaster"/),
    ]);
  });
  it('refuses "https" and points at "file"', () => {
    expect(failuresOf({ ...base, verificationMethod: "https" })).toEqual([expect.stringMatching(/^verificationMethod: "https" is not a method code .*"file"/)]);
  });
  it("refuses the removed emailSuffix input, naming the codes that replace it", () => {
    expect(failuresOf({ ...base, verificationMethod: "dns", emailSuffix: "admin" })).toEqual([
      expect.stringMatching(/^emailSuffix: was removed: the method code names the mailbox; set verificationMethod to one of "email-admin"/),
    ]);
  });
  it("refuses any other key the Order does not take", () => {
    expect(failuresOf({ ...base, sanDomain: ["www.example.com"] })).toEqual([expect.stringMatching(/^sanDomain: is not an input of Order; inputs: productCode, domain, sanDomains/)]);
  });
});

describe("companyInfo (spec 2.4)", () => {
  it("trims, upper-cases the country code and drops empty optional members", () => {
    const { values, failures } = normalizeOrder({ ...base, companyInfo: { ...company, companyName: " Acme GmbH ", phone: "", province: "Berlin" } });
    expect(failures).toEqual([]);
    expect(values.companyInfo).toEqual({ ...company, countryCode: "DE", province: "Berlin" });
  });
  it.each(["companyName", "countryCode", "contactFirst", "contactLast", "email"])("requires %s", (member) => {
    expect(failuresOf({ ...base, companyInfo: { ...company, [member]: " " } })).toEqual([`companyInfo.${member}: is required (spec 2.4) and must be a non-empty string`]);
  });
  it("refuses a country that is not two letters and an e-mail that is not an address", () => {
    expect(failuresOf({ ...base, companyInfo: { ...company, countryCode: "Germany", email: "ops" } })).toEqual([
      'companyInfo.countryCode: "Germany" is not a two-letter country/region code (e.g. "DE")',
      'companyInfo.email: is not an e-mail address (name@domain)',
    ]);
  });
  it.each([
    ["registrationNumber", /use registrationNo/],
    ["country", /use countryCode/],
    ["state", /use province/],
    ["contactName", /use contactFirst \(the contact's family name\) and contactLast/],
    ["contactEmail", /use email/],
    ["contactPhone", /use phone/],
  ])("refuses the former member %s, naming its replacement", (member, replacement) => {
    const failures = failuresOf({ ...base, companyInfo: { ...company, [member]: "x" } });
    expect(failures).toEqual([expect.stringMatching(new RegExp(`^companyInfo.${member}: is not a member of company_info \\(spec 2.4\\): `))]);
    expect(failures[0]).toMatch(replacement);
  });
  it("refuses an unknown member and a non-string member", () => {
    expect(failuresOf({ ...base, companyInfo: { ...company, fax: "1", postalCode: 10115 } })).toEqual([
      expect.stringMatching(/^companyInfo.fax: is not a member of company_info \(spec 2.4\); members: companyName, /),
      "companyInfo.postalCode: must be a string, got a number",
    ]);
  });
  it.each([
    ["idNumber", 42010119900307, "a number"],
    ["phone", { country: "+49", number: "30123456" }, "an object"],
    ["email", ["ops@acme.test"], "a list"],
    ["contactTitle", true, "a boolean"],
  ])("describes a non-string %s by its kind, never its value (companyInfo is a secret)", (member, value, kind) => {
    const failures = failuresOf({ ...base, companyInfo: { ...company, [member]: value } });
    expect(failures).toEqual([`companyInfo.${member}: must be a string, got ${kind}`]);
    for (const text of [JSON.stringify(value), "42010119900307", "30123456", "ops@acme.test"]) expect(failures.join("\n")).not.toContain(text);
  });
  it("refuses companyId and companyInfo together", () => {
    expect(failuresOf({ ...base, companyId: 7, companyInfo: company })).toEqual(["companyInfo: give either companyId or companyInfo, not both"]);
  });
});
