import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext, UNKNOWN } from "../../../src/provider/index.js";
import { handlers } from "../../../src/resources/order/handlers.js";
import type { OrderInputs } from "../../../src/resources/order/inputs.js";
import { makeCsr } from "../../support/csr.js";
import { useHarness } from "./harness.js";
import { byOperation, productList, ScriptedServer, wireProduct } from "../../support/partner-api/index.js";

const h = useHarness();

const company = {
  companyName: "Acme GmbH",
  countryCode: "de",
  contactFirst: "Muster",
  contactLast: "Erika",
  email: "ops@acme.test",
  registrationNo: "HRB 1",
  province: "Berlin",
  city: "Berlin",
  address: "Main St 1",
  postalCode: "10115",
  phone: "+49 30 1234",
};

async function check(raw: Record<string, unknown>) {
  const result = await handlers.check!(h.ctx, {} as OrderInputs, { journalKey: "proj/dev/c", ...raw } as unknown as OrderInputs);
  return { inputs: result.inputs as OrderInputs, failures: result.failures ?? [] };
}
function failuresOf(result: { failures: { property: string; reason: string }[] }) {
  return result.failures.map((f) => `${f.property}: ${f.reason}`);
}

describe("Order check: normalisation and price", () => {
  it("lower-cases and sorts names, applies defaults (not the method: the service applies the product's), adds the quoted price", async () => {
    const { inputs, failures } = await check({
      productCode: "sandbox-dv-flex",
      domain: "Example.COM.",
      sanDomains: ["www.example.com", "API.example.com"],
      wildcardDomains: ["*.Dev.example.com"],
    });
    expect(failures).toEqual([]);
    expect(inputs.verificationMethod).toBeUndefined();
    expect(inputs).toMatchObject({
      domain: "example.com",
      sanDomains: ["api.example.com", "www.example.com"],
      wildcardDomains: ["*.dev.example.com"],
      months: 12,
      signatureAlgorithm: "rsa",
      keySpec: "rsa-2048",
      hashAlgorithm: "sha256",
      paymentMethod: "balance",
      // 150 base + 2 extra FQDNs × 20 + 1 wildcard × 300
      quotedPrice: "490.00",
    });
  });

  it("prices the term the user picked, in months or in years", async () => {
    const { inputs } = await check({ productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["a.example.com"], months: 24 });
    expect(inputs.quotedPrice).toBe("228.00"); // 190 + 38
    const byYears = await check({ productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["a.example.com"], years: 2 });
    expect(byYears.failures).toEqual([]);
    expect(byYears.inputs).toMatchObject({ years: 2, months: 24, quotedPrice: "228.00" });
  });

  it("tolerates the preview placeholder anywhere and still checks the rest", async () => {
    const { inputs, failures } = await check({ productCode: "sandbox-dv-single", domain: UNKNOWN, sanDomains: [UNKNOWN], months: 7 });
    expect(inputs.domain).toBe(UNKNOWN);
    expect(inputs.quotedPrice).toBeUndefined();
    expect(failuresOf({ failures })).toEqual([expect.stringMatching(/^months: sandbox-dv-single is not sold for 7 months; available terms \(months\): 12, 24, 36/)]);
    const unknownProduct = await check({ productCode: UNKNOWN, domain: "example.com" });
    expect(unknownProduct.failures).toEqual([]);
  });
});

describe("Order check: one failure per rule, naming the property", () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["productCode missing", { domain: "example.com" }, /^productCode: is required/],
    ["unknown product", { productCode: "nope", domain: "example.com" }, /^productCode: "nope" is not in this account's product list\. List the products with getProducts\(\) \(in YAML, Go, Python or C#: the certreseller:index:getProducts function\)$/],
    ["unknown product near a code", { productCode: "sandbox-dv-singel", domain: "example.com" }, /^productCode: "sandbox-dv-singel" is not in this account's product list; nearest: sandbox-dv-single\b.*\. List the products with getProducts\(\)/],
    ["unknown product in another case", { productCode: "Sandbox-DV-Multi", domain: "example.com" }, /^productCode: "Sandbox-DV-Multi" is not in this account's product list; nearest: sandbox-dv-multi\b/],
    ["domain malformed", { productCode: "sandbox-dv-single", domain: "exa mple.com" }, /^domain: "exa mple.com" has an invalid label/],
    ["domain not fully qualified", { productCode: "sandbox-dv-single", domain: "localhost" }, /^domain: "localhost" is not a fully qualified/],
    ["private IP", { productCode: "sandbox-dv-ip", domain: "10.1.2.3" }, /^domain: "10.1.2.3" is not a public IP/],
    ["duplicate across lists", { productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["example.com"] }, /^sanDomains: "example.com" is already listed in domain/],
    ["wildcard in sanDomains", { productCode: "sandbox-dv-flex", domain: "example.com", sanDomains: ["*.example.com"] }, /^sanDomains: "\*.example.com" is a wildcard; list wildcards in wildcardDomains/],
    ["IP address in sanDomains", { productCode: "sandbox-dv-flex", domain: "example.com", sanDomains: ["8.8.8.8"] }, /^sanDomains: "8.8.8.8" is an IPv4 address; sanDomains takes plain domain names only/],
    ["FQDN in wildcardDomains", { productCode: "sandbox-dv-flex", domain: "example.com", wildcardDomains: ["www.example.com"] }, /^wildcardDomains: "www.example.com" is not a wildcard/],
    ["single product with SANs", { productCode: "sandbox-dv-single", domain: "example.com", sanDomains: ["www.example.com"] }, /^sanDomains: sandbox-dv-single is a single product .*: sanDomains must be empty/],
    ["wildcard product with a plain domain", { productCode: "sandbox-dv-wildcard", domain: "example.com" }, /^domain: sandbox-dv-wildcard is a wildcard product .*: domain must be a wildcard, not a plain domain name/],
    ["multiple-single product with a wildcard domain", { productCode: "sandbox-dv-multi", domain: "*.example.com" }, /^domain: sandbox-dv-multi is a multiple-single product .*: domain must be a plain domain name, not a wildcard/],
    ["multiple-single product with wildcardDomains", { productCode: "sandbox-dv-multi", domain: "example.com", wildcardDomains: ["*.example.com"] }, /^wildcardDomains: sandbox-dv-multi is a multiple-single product .*wildcards are not supported\): wildcardDomains must be empty/],
    ["multiple-single over its count", { productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: Array.from({ length: 10 }, (_, i) => `s${i}.example.com`) }, /^sanDomains: .*at most 10 plain domain names in total \(domain included\), got 11/],
    ["multiple-wildcard with sanDomains", { productCode: "sandbox-dv-multi-wildcard", domain: "*.example.com", sanDomains: ["www.example.com"] }, /^sanDomains: sandbox-dv-multi-wildcard is a multiple-wildcard product .*: sanDomains must be empty/],
    ["multiple-wildcard over its count", { productCode: "sandbox-dv-multi-wildcard", domain: "*.example.com", wildcardDomains: ["*.a.example.com", "*.b.example.com", "*.c.example.com", "*.d.example.com", "*.e.example.com"] }, /^wildcardDomains: .*at most 5 wildcards .* got 6/],
    ["multiple-mix with an IP address", { productCode: "sandbox-dv-flex", domain: "8.8.8.8" }, /^domain: sandbox-dv-flex is a multiple-mix product .*: domain must be a plain domain name or a wildcard, not an IPv4 address/],
    ["ipv4 product with a name", { productCode: "sandbox-dv-ip", domain: "example.com" }, /^domain: sandbox-dv-ip is an ipv4 product .*: domain must be an IPv4 address, not a plain domain name/],
    ["ipv4 product with an IPv6 address", { productCode: "sandbox-dv-ip", domain: "2606:4700:4700::1111" }, /^domain: sandbox-dv-ip is an ipv4 product .*: domain must be an IPv4 address, not an IPv6 address/],
    ["ipv6 product with an IPv4 address", { productCode: "sandbox-dv-ipv6", domain: "8.8.8.8" }, /^domain: sandbox-dv-ipv6 is an ipv6 product .*: domain must be an IPv6 address, not an IPv4 address/],
    ["term not sold", { productCode: "sandbox-dv-ip", domain: "8.8.8.8", months: 24 }, /^months: sandbox-dv-ip is not sold for 24 months; available terms \(months\): 12/],
    ["term in years not sold", { productCode: "sandbox-dv-ip", domain: "8.8.8.8", years: 2 }, /^years: sandbox-dv-ip is not sold for 24 months/],
    ["years and months disagree", { productCode: "sandbox-dv-single", domain: "example.com", years: 1, months: 24 }, /^years: 1 years are 12 months but months is 24: the service uses months when both are given \(spec 4.3 CreateOrder\); give one/],
    ["months not a whole number", { productCode: "sandbox-dv-single", domain: "example.com", months: 12.5 }, /^months: must be a whole number from 1 to 120/],
    ["algorithm not supported", { productCode: "sandbox-ev-single", domain: "example.com", signatureAlgorithm: "ecc", companyInfo: company }, /^signatureAlgorithm: sandbox-ev-single does not support "ecc"; supported: "rsa"/],
    ["unknown algorithm", { productCode: "sandbox-dv-single", domain: "example.com", signatureAlgorithm: "dsa" }, /^signatureAlgorithm: must be one of "rsa", "ecc", "sm2", got "dsa"/],
    ["key spec does not fit the algorithm", { productCode: "sandbox-dv-single", domain: "example.com", signatureAlgorithm: "ecc", keySpec: "rsa-2048" }, /^keySpec: "rsa-2048" does not fit signatureAlgorithm "ecc"; use one of "p-256", "p-384"/],
    ["key spec not supported by the product", { productCode: "example-dv-single", domain: "example.com", keySpec: "rsa-3072" }, /^keySpec: example-dv-single does not support "rsa-3072" with rsa; supported: "rsa-2048", "rsa-4096"/],
    ["hash not supported", { productCode: "sandbox-dv-ip", domain: "8.8.8.8", hashAlgorithm: "sha384" }, /^hashAlgorithm: sandbox-dv-ip does not support "sha384"/],
    ["file validation of a wildcard", { productCode: "sandbox-dv-wildcard", domain: "*.example.com", verificationMethod: "file" }, /^verificationMethod: "file" validation cannot prove control of a wildcard name/],
    ["unknown method", { productCode: "sandbox-dv-single", domain: "example.com", verificationMethod: "carrier-pigeon" }, /^verificationMethod: must be one of "dns", "cname", "file", "email-admin", "email-postmaster", "email-webmaster", "email-hostmaster", "dcv"/],
    ["the former email method", { productCode: "sandbox-dv-single", domain: "example.com", verificationMethod: "email" }, /^verificationMethod: "email" is not a method code of the specification/],
    ["the former https method", { productCode: "sandbox-dv-single", domain: "example.com", verificationMethod: "https" }, /^verificationMethod: "https" is not a method code of the specification/],
    ["the removed emailSuffix input", { productCode: "sandbox-dv-single", domain: "example.com", verificationMethod: "email-admin", emailSuffix: "admin" }, /^emailSuffix: was removed: the method code names the mailbox/],
    ["payment method", { productCode: "sandbox-dv-single", domain: "example.com", paymentMethod: "cash" }, /^paymentMethod: must be one of "balance", "credit", got "cash"/],
    ["OV without company", { productCode: "sandbox-ov-single", domain: "example.com" }, /^companyInfo: sandbox-ov-single is OV: give companyInfo \(at least companyName, countryCode, contactFirst, contactLast, email\) or companyId/],
    ["company member missing", { productCode: "sandbox-ov-single", domain: "example.com", companyInfo: { ...company, contactFirst: " " } }, /^companyInfo.contactFirst: is required \(spec 2.4\)/],
    ["company country not two letters", { productCode: "sandbox-ov-single", domain: "example.com", companyInfo: { ...company, countryCode: "Germany" } }, /^companyInfo.countryCode: "Germany" is not a two-letter country\/region code/],
    ["former company member", { productCode: "sandbox-ov-single", domain: "example.com", companyInfo: { ...company, contactName: "Ops" } }, /^companyInfo.contactName: is not a member of company_info \(spec 2.4\): use contactFirst/],
    ["company id and info both", { productCode: "sandbox-ov-single", domain: "example.com", companyId: 7, companyInfo: company }, /^companyInfo: give either companyId or companyInfo, not both/],
    ["renewal window as long as the term", { productCode: "sandbox-dv-single", domain: "example.com", renewBeforeDays: 400 }, /^renewBeforeDays: 400 days is not shorter than the 12-month term/],
    ["renewal window as long as a certificate lives (measured on the certificate since CA/B SC-081v3)", { productCode: "sandbox-dv-single", domain: "example.com", months: 24, renewBeforeDays: 400 }, /^renewBeforeDays: 400 days is not shorter than a certificate issued today may live \((200|100|47) days, CA\/Browser Forum ballot SC-081v3\)/],
    ["renewBeforePercentage outside 1-99", { productCode: "sandbox-dv-single", domain: "example.com", renewBeforePercentage: 100 }, /^renewBeforePercentage: must be a whole number from 1 to 99, got 100/],
    ["adoptOrderNo malformed", { productCode: "sandbox-dv-single", domain: "example.com", adoptOrderNo: "CERT 1; drop" }, /^adoptOrderNo: must be an order number/],
    ["CSR not a CSR", { productCode: "sandbox-dv-single", domain: "example.com", customCsr: "hello" }, /^customCsr: is not a PEM certificate signing request/],
  ];
  for (const [rule, raw, expected] of cases) {
    it(rule, async () => {
      const failures = failuresOf(await check(raw));
      expect(failures, JSON.stringify(failures)).toContainEqual(expect.stringMatching(expected));
    });
  }

  it("accepts each domain type's names against the catalogue", async () => {
    const accepted: Record<string, unknown>[] = [
      { productCode: "sandbox-dv-single", domain: "example.com" },
      { productCode: "sandbox-dv-wildcard", domain: "*.example.com" },
      { productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["www.example.com"] },
      { productCode: "sandbox-dv-multi-wildcard", domain: "*.example.com", wildcardDomains: ["*.api.example.com"] },
      { productCode: "sandbox-dv-flex", domain: "*.example.com", sanDomains: ["example.com"], wildcardDomains: ["*.api.example.com"] },
      { productCode: "sandbox-dv-ip", domain: "8.8.8.8" },
      { productCode: "sandbox-dv-ipv6", domain: "2606:4700:4700:0::1111" },
    ];
    for (const raw of accepted) expect((await check(raw)).failures, JSON.stringify(raw)).toEqual([]);
    expect((await check(accepted[6]!)).inputs.domain).toBe("2606:4700:4700::1111");
  });

  it("accepts a valid OV order and upper-cases the country code", async () => {
    const { inputs, failures } = await check({ productCode: "sandbox-ov-single", domain: "example.com", companyInfo: company });
    expect(failures).toEqual([]);
    expect(inputs.companyInfo?.countryCode).toBe("DE");
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
    expect(lines.join("\n")).toMatch(/could not read the product list .*NOT the domain type, name counts, term, algorithms, company requirement or price/);
  });
  it("without a key, fails naming the setting and still checks locally", async () => {
    const lines: string[] = [];
    const ctx = createContext({ type: "Order", settings: { journalDir: h.journalDir }, sink: (_l, line) => lines.push(line) });
    const result = await handlers.check!(ctx, {} as OrderInputs, { journalKey: "p/s/nokey", productCode: "x", domain: "example.com", months: 0 } as unknown as OrderInputs);
    expect(result.failures?.map((f) => f.property).sort()).toEqual(["", "months"]);
    expect(result.failures?.find((f) => f.property === "")?.reason).toMatch(/certreseller:apiKey.*CERTRESELLER_API_KEY.*Nothing is bought/);
  });
});

describe("Order check: a configuration error fails the preview naming the setting; an outage only warns", () => {
  let html: http.Server;
  let htmlUrl = "";
  beforeAll(async () => {
    html = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(404, { "content-type": "text/html" }).end("<html><body><h1>Not Found</h1></body></html>"));
    });
    await new Promise<void>((resolve) => html.listen(0, "127.0.0.1", resolve));
    htmlUrl = `http://127.0.0.1:${(html.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((resolve) => html?.close(() => resolve())));

  async function checkWith(settings: { apiKey?: string; baseUrl?: string }) {
    const lines: string[] = [];
    const ctx = createContext({ type: "Order", settings: { ...settings, journalDir: h.journalDir }, sink: (_l, line) => lines.push(line) });
    const result = await handlers.check!(ctx, {} as OrderInputs, { journalKey: "p/s/config", productCode: "sandbox-dv-single", domain: "example.com" } as unknown as OrderInputs);
    return { failures: (result.failures ?? []).map((f) => `${f.property}: ${f.reason}`), lines: lines.join("\n") };
  }

  it.each([
    ["no apiKey", () => ({ baseUrl: h.sandbox.url }), /certreseller:apiKey/],
    ["no baseUrl", () => ({ apiKey: h.sandbox.accounts[0]!.apiKey }), /certreseller:baseUrl/],
    ["a key the service refuses (401)", () => ({ apiKey: "ak_nobody:wrong", baseUrl: h.sandbox.url }), /refused the API key .*401.*set certreseller:apiKey \(or CERTRESELLER_API_KEY\)/],
    ["a base URL answering an HTML page", () => ({ apiKey: "ak_x:y", baseUrl: htmlUrl }), /base URL http:\/\/127\.0\.0\.1:\d+ does not answer as the Partner API .*set certreseller:baseUrl \(or CERTRESELLER_BASE_URL\)/],
    ["a base URL that is not a URL", () => ({ apiKey: "ak_x:y", baseUrl: "partner.example.com" }), /certreseller:baseUrl \/ CERTRESELLER_BASE_URL: PartnerClient: baseUrl must be an absolute/],
    [
      "https:// to the sandbox's plain-HTTP port (a TLS handshake failure)",
      () => ({ apiKey: h.sandbox.accounts[0]!.apiKey, baseUrl: h.sandbox.url.replace(/^http:/, "https:") }),
      /base URL https:\/\/127\.0\.0\.1:\d+ failed the TLS handshake \(.*the endpoint answered plain HTTP, not TLS.*\); set certreseller:baseUrl \(or CERTRESELLER_BASE_URL\)/,
    ],
  ])("%s", async (_title, settings, setting) => {
    const { failures, lines } = await checkWith(settings());
    expect(failures).toEqual([expect.stringMatching(/^: could not read the product list: /)]);
    expect(failures[0]).toMatch(setting);
    expect(failures[0]).toMatch(/Nothing is bought until the product list can be read\.$/);
    expect(lines).not.toMatch(/could not read the product list/);
  });

  it("an Order already bought and unchanged buys nothing: a refused key only warns, naming the setting", async () => {
    const raw = { journalKey: "p/s/config", productCode: "sandbox-dv-single", domain: "example.com" };
    const olds = (await handlers.check!(h.ctx, {} as OrderInputs, raw as unknown as OrderInputs)).inputs!;
    const lines: string[] = [];
    const ctx = createContext({ type: "Order", settings: { apiKey: "ak_nobody:wrong", baseUrl: h.sandbox.url, journalDir: h.journalDir }, sink: (_l, line) => lines.push(line) });
    const result = await handlers.check!(ctx, olds, raw as unknown as OrderInputs);
    expect(result.failures).toEqual([]);
    expect(lines.join("\n")).toMatch(/could not read the product list \(the service refused the API key .*set certreseller:apiKey.*\); this Order buys nothing in this update/);
  });

  it("connection refused (an outage) warns and passes", async () => {
    const { failures, lines } = await checkWith({ apiKey: "ak_x:y", baseUrl: "http://127.0.0.1:1" });
    expect(failures).toEqual([]);
    expect(lines).toMatch(/could not read the product list \(network: /);
  });
});

describe("Order check: one line per purchase naming the product, the names and the price", () => {
  it("says what a new purchase buys and at what price; says nothing when the Order buys nothing again", async () => {
    h.lines.length = 0;
    const raw = { journalKey: "p/s/plan", productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["www.example.com"] };
    const planned = await handlers.check!(h.ctx, {} as OrderInputs, raw as unknown as OrderInputs);
    expect(planned.failures).toEqual([]);
    expect(h.lines).toContainEqual(`info: certreseller Order "plan": will buy sandbox-dv-multi (12 months) for example.com, www.example.com: ${planned.inputs!.quotedPrice} (purchase journal ${h.ctx.settings.journalDir})`);
    h.lines.length = 0;
    await handlers.check!(h.ctx, planned.inputs!, raw as unknown as OrderInputs);
    expect(h.lines.join("\n")).not.toMatch(/will buy/);
  });
});

describe("Order check against a catalogue with a domain type outside the specification", () => {
  let api: ScriptedServer;
  beforeAll(async () => {
    api = await ScriptedServer.start(byOperation({ GetUserProduct: () => productList([wireProduct("future-multi-ip", "multiple-ip")]) }));
  });
  afterAll(async () => api?.close());

  it("does not fail the product: it warns naming the type and the rules not checked, and still prices it", async () => {
    const lines: string[] = [];
    const ctx = createContext({
      type: "Order",
      settings: { apiKey: "ak_scripted:secret", baseUrl: api.url, journalDir: h.journalDir },
      sink: (_level, line) => lines.push(line),
    });
    const result = await handlers.check!(ctx, {} as OrderInputs, {
      journalKey: "p/s/future",
      productCode: "future-multi-ip",
      domain: "8.8.8.8",
      sanDomains: ["www.example.com"],
    } as unknown as OrderInputs);
    expect(result.failures).toEqual([]);
    expect(result.inputs?.quotedPrice).toBe("90.00");
    expect(lines.join("\n")).toMatch(
      /product future-multi-ip has domain type "multiple-ip", which is not one of the specification's .*: the domain-type rules were NOT checked/,
    );
  });
});

describe("Order check: one failure per problem", () => {
  it("a malformed companyInfo is not also reported as missing", async () => {
    const failures = failuresOf(await check({ productCode: "sandbox-ov-single", domain: "example.com", companyInfo: { ...company, countryCode: "Germany" } }));
    expect(failures).toEqual([expect.stringMatching(/^companyInfo.countryCode: /)]);
  });
});
