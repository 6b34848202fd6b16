import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../src/provider/index.js";
import { normalizeOrder } from "../../src/rules/index.js";

describe("normalizeOrder", () => {
  it("applies product-independent defaults and canonical forms", () => {
    const { values, failures } = normalizeOrder({ productCode: " p ", domain: "WWW.Example.com.", sanDomains: ["b.example.com", "A.example.com"], signatureAlgorithm: "ECC" });
    expect(failures).toEqual([]);
    expect(values).toMatchObject({
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
  it("keeps placeholders and skips the rules that depend on them", () => {
    const { values, unknown, failures } = normalizeOrder({ productCode: "p", domain: "example.com", signatureAlgorithm: UNKNOWN, keySpec: "p-384", months: UNKNOWN });
    expect(failures).toEqual([]);
    expect(values.signatureAlgorithm).toBe(UNKNOWN);
    expect(values.months).toBe(UNKNOWN);
    expect([...unknown].sort()).toEqual(["months", "signatureAlgorithm"]);
  });
  it("names the field and rule for wrongly typed values from untyped programs", () => {
    const { failures } = normalizeOrder({ productCode: 5, domain: ["x"], sanDomains: "a.example.com", months: "12", companyId: -1, couponCode: "" });
    expect(failures.map((f) => f.property)).toEqual(["productCode", "domain", "sanDomains", "months", "companyId", "couponCode"]);
    expect(failures.find((f) => f.property === "months")?.reason).toBe('must be a whole number from 1 to 120, got "12"');
  });
  it("normalises CSR line endings so the same CSR pasted on Windows is no change", () => {
    const { values } = normalizeOrder({ productCode: "p", domain: "example.com", customCsr: "-----BEGIN CERTIFICATE REQUEST-----\r\nAAA\r\n-----END CERTIFICATE REQUEST-----\r\n" });
    expect(values.customCsr).toBe("-----BEGIN CERTIFICATE REQUEST-----\nAAA\n-----END CERTIFICATE REQUEST-----\n");
  });
});
