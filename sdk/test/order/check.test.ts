import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../src/provider/index.js";
import { createContext } from "../../src/provider/index.js";
import { handlers } from "../../src/resources/order/handlers.js";
import type { OrderInputs } from "../../src/resources/order/types.js";
import { makeCsr } from "./csr-fixtures.js";
import { useHarness } from "./harness.js";

const h = useHarness();

const company = {
  companyName: "Acme GmbH",
  registrationNumber: "HRB 1",
  country: "de",
  state: "BE",
  city: "Berlin",
  address: "Main St 1",
  postalCode: "10115",
  contactName: "Ops",
  contactEmail: "ops@acme.test",
  contactPhone: "+49 30 1234",
};

async function check(raw: Record<string, unknown>) {
  const result = await handlers.check!(h.ctx, {} as OrderInputs, { journalKey: "proj/dev/c", ...raw } as unknown as OrderInputs);
  return { inputs: result.inputs as OrderInputs, failures: result.failures ?? [] };
}
function failuresOf(result: { failures: { property: string; reason: string }[] }) {
  return result.failures.map((f) => `${f.property}: ${f.reason}`);
}

describe("Order check: normalisation and price", () => {
  it("lower-cases and sorts names, applies defaults, adds the quoted price", async () => {
    const { inputs, failures } = await check({
      productCode: "sandbox-dv-flex",
      domain: "Example.COM.",
      sanDomains: ["www.example.com", "API.example.com"],
      wildcardDomains: ["*.Dev.example.com"],
    });
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject({
      domain: "example.com",
      sanDomains: ["api.example.com", "www.example.com"],
      wildcardDomains: ["*.dev.example.com"],
      months: 12,
      signatureAlgorithm: "rsa",
      keySpec: "rsa-2048",
      hashAlgorithm: "sha256",
      paymentMethod: "balance",
      verificationMethod: "dns",
      // 150 base + 2 extra FQDNs × 20 + 1 wildcard × 300
      quotedPrice: "490.00",
    });
  });

  it("prices the term the user picked", async () => {
    const { inputs } = await check({ productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["a.example.com"], months: 24 });
    expect(inputs.quotedPrice).toBe("228.00"); // 190 + 38
  });

  it("tolerates the preview placeholder anywhere and still checks the rest", async () => {
    const { inputs, failures } = await check({ productCode: "sandbox-dv-single", domain: UNKNOWN, sanDomains: [UNKNOWN], months: 7 });
    expect(inputs.domain).toBe(UNKNOWN);
    expect(inputs.quotedPrice).toBeUndefined();
    expect(failuresOf({ failures })).toEqual([expect.stringMatching(/^months: sandbox-dv-single is not sold for 7 months; available terms: 12, 24, 36/)]);
    const unknownProduct = await check({ productCode: UNKNOWN, domain: "example.com" });
    expect(unknownProduct.failures).toEqual([]);
  });
});

describe("Order check: one failure per rule, naming the property", () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["productCode missing", { domain: "example.com" }, /^productCode: is required/],
    ["unknown product", { productCode: "nope", domain: "example.com" }, /^productCode: "nope" is not in this account's product list/],
    ["domain malformed", { productCode: "sandbox-dv-single", domain: "exa mple.com" }, /^domain: "exa mple.com" has an invalid label/],
    ["domain not fully qualified", { productCode: "sandbox-dv-single", domain: "localhost" }, /^domain: "localhost" is not a fully qualified/],
    ["private IP", { productCode: "sandbox-dv-ip", domain: "10.1.2.3", verificationMethod: "file" }, /^domain: "10.1.2.3" is not a public IP/],
    ["duplicate across lists", { productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["example.com"] }, /^sanDomains: "example.com" is already listed in domain/],
    ["wildcard in sanDomains", { productCode: "sandbox-dv-flex", domain: "example.com", sanDomains: ["*.example.com"] }, /^sanDomains: "\*.example.com" is a wildcard; list wildcards in wildcardDomains/],
    ["FQDN in wildcardDomains", { productCode: "sandbox-dv-flex", domain: "example.com", wildcardDomains: ["www.example.com"] }, /^wildcardDomains: "www.example.com" is not a wildcard/],
    ["single product with SANs", { productCode: "sandbox-dv-single", domain: "example.com", sanDomains: ["www.example.com"] }, /^sanDomains: sandbox-dv-single is a single-domain product .*: sanDomains must be empty/],
    ["wildcard product with an FQDN", { productCode: "sandbox-dv-wildcard", domain: "example.com" }, /^domain: sandbox-dv-wildcard is a wildcard product .*: domain must be a wildcard/],
    ["multi product over its count", { productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: Array.from({ length: 10 }, (_, i) => `s${i}.example.com`) }, /^sanDomains: .*at most 10 domain names in total \(domain included\), got 11/],
    ["multi-wildcard over its count", { productCode: "sandbox-dv-multi-wildcard", domain: "*.example.com", wildcardDomains: ["*.a.example.com", "*.b.example.com", "*.c.example.com", "*.d.example.com", "*.e.example.com"] }, /^wildcardDomains: .*at most 5 wildcards .* got 6/],
    ["IP product with a name", { productCode: "sandbox-dv-ip", domain: "example.com", verificationMethod: "file" }, /^domain: sandbox-dv-ip is an IP product .*: domain must be a public IP address/],
    ["term not sold", { productCode: "sandbox-dv-ip", domain: "8.8.8.8", months: 24 }, /^months: sandbox-dv-ip is not sold for 24 months; available terms: 12/],
    ["months not a whole number", { productCode: "sandbox-dv-single", domain: "example.com", months: 12.5 }, /^months: must be a whole number from 1 to 120/],
    ["algorithm not supported", { productCode: "sandbox-ev-single", domain: "example.com", signatureAlgorithm: "ecc", companyInfo: company }, /^signatureAlgorithm: sandbox-ev-single does not support "ecc"; supported: "rsa"/],
    ["unknown algorithm", { productCode: "sandbox-dv-single", domain: "example.com", signatureAlgorithm: "dsa" }, /^signatureAlgorithm: must be one of "rsa", "ecc", "sm2", got "dsa"/],
    ["key spec does not fit the algorithm", { productCode: "sandbox-dv-single", domain: "example.com", signatureAlgorithm: "ecc", keySpec: "rsa-2048" }, /^keySpec: "rsa-2048" does not fit signatureAlgorithm "ecc"/],
    ["key spec not supported by the product", { productCode: "example-dv-single", domain: "example.com", keySpec: "rsa-3072" }, /^keySpec: example-dv-single does not support "rsa-3072" with rsa; supported: "rsa-2048", "rsa-4096"/],
    ["hash not supported", { productCode: "sandbox-dv-ip", domain: "8.8.8.8", hashAlgorithm: "sha384" }, /^hashAlgorithm: sandbox-dv-ip does not support "sha384"/],
    ["method not supported", { productCode: "sandbox-dv-wildcard", domain: "*.example.com", verificationMethod: "file" }, /^verificationMethod: sandbox-dv-wildcard does not support "file" validation; supported: "dns", "cname", "email"/],
    ["unknown method", { productCode: "sandbox-dv-single", domain: "example.com", verificationMethod: "carrier-pigeon" }, /^verificationMethod: must be one of "dns", "cname", "file", "https", "email"/],
    ["email suffix without email", { productCode: "sandbox-dv-single", domain: "example.com", verificationMethod: "dns", emailSuffix: "admin" }, /^emailSuffix: is only used with verificationMethod "email"/],
    ["payment method", { productCode: "sandbox-dv-single", domain: "example.com", paymentMethod: "cash" }, /^paymentMethod: must be one of "balance", "credit", got "cash"/],
    ["OV without company", { productCode: "sandbox-ov-single", domain: "example.com" }, /^companyInfo: sandbox-ov-single is OV: give companyInfo \(all of companyName, .*\) or companyId/],
    ["company field missing", { productCode: "sandbox-ov-single", domain: "example.com", companyInfo: { ...company, city: " " } }, /^companyInfo.city: is required for OV\/EV orders/],
    ["company country not ISO", { productCode: "sandbox-ov-single", domain: "example.com", companyInfo: { ...company, country: "Germany" } }, /^companyInfo.country: "Germany" is not an ISO 3166 alpha-2/],
    ["company id and info both", { productCode: "sandbox-ov-single", domain: "example.com", companyId: 7, companyInfo: company }, /^companyInfo: give either companyId or companyInfo, not both/],
    ["renewal window as long as the term", { productCode: "sandbox-dv-single", domain: "example.com", renewBeforeDays: 400 }, /^renewBeforeDays: 400 days is not shorter than the 12-month term/],
    ["adoptOrderNo malformed", { productCode: "sandbox-dv-single", domain: "example.com", adoptOrderNo: "CERT 1; drop" }, /^adoptOrderNo: must be an order number/],
    ["CSR not a CSR", { productCode: "sandbox-dv-single", domain: "example.com", customCsr: "hello" }, /^customCsr: is not a PEM certificate signing request/],
  ];
  for (const [rule, raw, expected] of cases) {
    it(rule, async () => {
      const failures = failuresOf(await check(raw));
      expect(failures, JSON.stringify(failures)).toContainEqual(expect.stringMatching(expected));
    });
  }

  it("accepts a valid OV order and upper-cases the country", async () => {
    const { inputs, failures } = await check({ productCode: "sandbox-ov-single", domain: "example.com", companyInfo: company });
    expect(failures).toEqual([]);
    expect(inputs.companyInfo?.country).toBe("DE");
    expect(inputs.quotedPrice).toBe("600.00");
  });
});

describe("Order check: custom CSR against the order", () => {
  it("accepts a CSR naming exactly the ordered names with the ordered key", async () => {
    const customCsr = await makeCsr({ commonName: "example.com", altNames: ["example.com", "www.example.com"] });
    const { failures } = await check({ productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["www.example.com"], customCsr });
    expect(failures).toEqual([]);
  });
  it("names the missing and the extra names", async () => {
    const customCsr = await makeCsr({ commonName: "example.com", altNames: ["example.com", "other.example.com"] });
    const failures = failuresOf(await check({ productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["www.example.com"], customCsr }));
    expect(failures).toContainEqual(expect.stringMatching(/^customCsr: does not name www.example.com/));
    expect(failures).toContainEqual(expect.stringMatching(/^customCsr: names other.example.com, which the order does not cover/));
  });
  it("refuses a key of another type than ordered", async () => {
    const customCsr = await makeCsr({ commonName: "example.com", key: "p-256" });
    const failures = failuresOf(await check({ productCode: "sandbox-dv-single", domain: "example.com", customCsr }));
    expect(failures).toContainEqual(expect.stringMatching(/^customCsr: holds a ecc key but the order says signatureAlgorithm "rsa"/));
    const matching = await check({ productCode: "sandbox-dv-single", domain: "example.com", signatureAlgorithm: "ecc", customCsr });
    expect(matching.failures).toEqual([]);
  });
  it("refuses an organisation that differs from companyInfo", async () => {
    const customCsr = await makeCsr({ commonName: "example.com", organization: "Other Corp" });
    const failures = failuresOf(await check({ productCode: "sandbox-ov-single", domain: "example.com", companyInfo: company, customCsr }));
    expect(failures).toContainEqual(expect.stringMatching(/^customCsr: names organisation "Other Corp" but companyInfo.companyName is "Acme GmbH"/));
  });
});

describe("Order check without the API", () => {
  it("runs the local rules and warns about what it could not check", async () => {
    const lines: string[] = [];
    const ctx = createContext({
      type: "Order",
      settings: { apiKey: "ak_x:y", baseUrl: "http://127.0.0.1:1", journalDir: h.journalDir },
      sink: (_level, line) => lines.push(line),
    });
    const result = await handlers.check!(ctx, {} as OrderInputs, {
      journalKey: "p/s/offline",
      productCode: "sandbox-dv-single",
      domain: "bad domain",
    } as unknown as OrderInputs);
    expect(result.failures?.map((f) => f.property)).toEqual(["domain"]);
    expect(result.inputs?.quotedPrice).toBeUndefined();
    expect(lines.join("\n")).toMatch(/could not read the product list .*NOT the domain type, term, algorithms, verification method, company requirement or price/);
  });
  it("without a key, says how to configure it and still checks locally", async () => {
    const lines: string[] = [];
    const ctx = createContext({ type: "Order", settings: { journalDir: h.journalDir }, sink: (_l, line) => lines.push(line) });
    const result = await handlers.check!(ctx, {} as OrderInputs, { journalKey: "p/s/nokey", productCode: "x", domain: "example.com", months: 0 } as unknown as OrderInputs);
    expect(result.failures?.map((f) => f.property)).toEqual(["months"]);
    expect(lines.join("\n")).toMatch(/certreseller:apiKey.*CERTRESELLER_API_KEY/);
  });
});
