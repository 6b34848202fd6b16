import { describe, expect, it } from "vitest";
import type { Product } from "../../../src/client/types.js";
import { normalizeOrder } from "../../../src/resources/order/normalize.js";
import { checkOrder } from "../../../src/resources/order/purchase-rules.js";
import type { OrderInputValues } from "../../../src/resources/order/properties.generated.js";

async function run(raw: Record<string, unknown>, product?: Product) {
  const { values, unknown, failures } = normalizeOrder(raw);
  const result = await checkOrder(values as unknown as OrderInputValues, unknown, product);
  return { values, failures: [...failures, ...result.failures], warnings: result.warnings, quote: result.quote };
}

const flex: Product = {
  productName: "Flex",
  productCode: "flex",
  verificationTypeCode: "ov",
  domainTypeCode: "multiple-mix",
  signatureAlgorithms: [{ name: "RSA", code: "rsa", encryptionStrengths: [{ name: "2048", code: "rsa-2048" }] }],
  hashAlgorithms: [{ name: "SHA-256", code: "sha256" }],
  validYears: [{ years: 1, months: 12, price: "150.00", sanPrice: "20.00", wildcardPrice: "300.00" }],
  basePrice: "150.00",
  sanPrice: "20.00",
  wildcardPrice: "300.00",
  maxSingleDomains: 5,
  maxWildcards: 2,
};
const company = { companyName: "Acme GmbH", countryCode: "DE", contactFirst: "Muster", contactLast: "Erika", email: "ops@acme.test" };

describe("checkOrder without a product (catalogue unreachable)", () => {
  it("still refuses file validation of a wildcard", async () => {
    const { failures } = await run({ productCode: "p", domain: "*.example.com", verificationMethod: "file" });
    expect(failures).toEqual([{ property: "verificationMethod", reason: expect.stringMatching(/"file" validation cannot prove control of a wildcard name/) }]);
  });
  it("quotes nothing and leaves the method unset (the service applies the product's default)", async () => {
    const { values, quote, failures } = await run({ productCode: "p", domain: "example.com" });
    expect(failures).toEqual([]);
    expect(quote).toBeUndefined();
    expect(values.verificationMethod).toBeUndefined();
  });
  it("accepts an IP address as domain (only the product can refuse it)", async () => {
    expect((await run({ productCode: "p", domain: "2606:4700:4700::1111" })).failures).toEqual([]);
  });
});

describe("checkOrder with a product", () => {
  it("prices the names the way CreateOrder's answer breaks them down", async () => {
    const { quote, failures } = await run(
      { productCode: "flex", domain: "example.com", sanDomains: ["www.example.com"], wildcardDomains: ["*.example.com"], companyInfo: company },
      flex,
    );
    expect(failures).toEqual([]);
    expect(quote).toEqual({ basePrice: "150.00", sanCount: 1, sanPrice: "20.00", wildcardCount: 1, wildcardPrice: "300.00", total: "470.00" });
  });
  it("requires the company for OV unless companyId", async () => {
    expect((await run({ productCode: "flex", domain: "example.com" }, flex)).failures).toEqual([
      { property: "companyInfo", reason: "flex is OV: give companyInfo (at least companyName, countryCode, contactFirst, contactLast, email) or companyId" },
    ]);
    expect((await run({ productCode: "flex", domain: "example.com", companyId: 7 }, flex)).failures).toEqual([]);
  });
  it("names years when the term given in years is not sold, months when months is", async () => {
    const byYears = await run({ productCode: "flex", domain: "example.com", companyId: 7, years: 2 }, flex);
    expect(byYears.failures).toEqual([{ property: "years", reason: 'flex is not sold for 24 months; available terms (months): 12' }]);
    expect(byYears.quote).toBeUndefined();
    const byMonths = await run({ productCode: "flex", domain: "example.com", companyId: 7, months: 24 }, flex);
    expect(byMonths.failures.map((f) => f.property)).toEqual(["months"]);
  });
  it("checks the algorithms the product lists, and none when it lists none", async () => {
    const failures = (await run({ productCode: "flex", domain: "example.com", companyId: 7, signatureAlgorithm: "ecc", hashAlgorithm: "sha384" }, flex)).failures;
    expect(failures.map((f) => f.property)).toEqual(["signatureAlgorithm", "hashAlgorithm"]);
    const silent = { ...flex, signatureAlgorithms: [], hashAlgorithms: [] };
    expect((await run({ productCode: "flex", domain: "example.com", companyId: 7, signatureAlgorithm: "ecc" }, silent)).failures).toEqual([]);
  });
  it("warns instead of failing when the product's domain type is unknown", async () => {
    const odd = { ...flex, verificationTypeCode: "dv", domainTypeCode: "multiple-ip" };
    const { failures, warnings, quote } = await run({ productCode: "flex", domain: "8.8.8.8" }, odd);
    expect(failures).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/domain type "multiple-ip".*NOT checked/)]);
    expect(quote?.total).toBe("150.00");
  });
});
