// The price rules (sdk/src/money/price.ts): amounts as integer cents, and
// what CreateOrder will charge for a product, a term and the names.
import { describe, expect, it } from "vitest";
import type { Product } from "../../src/client/types.js";
import { fromCents, quote, toCents } from "../../src/money/price.js";
import { checkNames } from "../../src/rules/index.js";

const TERM = { years: 1, months: 12, price: "150.00", sanPrice: "20.00", wildcardPrice: "300.00" };
const product = (over: Partial<Product> = {}): Product => ({
  ...{ productName: "P", productCode: "p", verificationTypeCode: "dv", domainTypeCode: "multiple-mix", signatureAlgorithms: [], hashAlgorithms: [] },
  ...{ validYears: [TERM], basePrice: "150.00", sanPrice: "20.00", wildcardPrice: "300.00", maxSingleDomains: 3, maxWildcards: 2 },
  ...over,
});

describe("money and quotes", () => {
  it("converts decimal strings exactly", () => {
    expect(toCents("199.9")).toBe(19990);
    expect(toCents("0.07")).toBe(7);
    expect(toCents(12.5)).toBe(1250);
    expect(fromCents(19990)).toBe("199.90");
    expect(fromCents(7)).toBe("0.07");
    expect(() => toCents("1,5")).toThrow(/not a decimal amount/);
  });
  it("a wildcard main name is covered by the base price; extra names are priced per kind", () => {
    const counts = checkNames({ domain: "*.example.com", sanDomains: ["a.example.com"], wildcardDomains: ["*.b.example.com"] }).counts;
    expect(quote(product(), 12, counts)).toEqual({
      basePrice: "150.00",
      sanCount: 1,
      sanPrice: "20.00",
      wildcardCount: 1,
      wildcardPrice: "300.00",
      total: "470.00",
    });
    expect(quote(product(), 24, counts)).toBeUndefined();
  });
  it("sums many small amounts without float drift", () => {
    const p = product({ validYears: [{ years: 1, months: 12, price: "0.10", sanPrice: "0.20", wildcardPrice: "0.00" }], maxSingleDomains: 100 });
    const sans = Array.from({ length: 9 }, (_, i) => `s${i}.example.com`);
    expect(quote(p, 12, checkNames({ domain: "example.com", sanDomains: sans, wildcardDomains: [] }).counts)?.total).toBe("1.90");
  });
});
