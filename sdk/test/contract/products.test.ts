import { describe, expect, it } from "vitest";
import { DOMAIN_TYPE_CODES, isDomainTypeCode, isVerificationTypeCode } from "../../src/client/index.js";
import { ok } from "../support/partner-api/index.js";
import { answerFrom, expectSpecRequest, fieldsOf, getPath, useContractClients, type FieldRow } from "./support/contract.js";

// Spec 4.2 (product list: path, fields and answer "not shown" by the
// specification; the service's documentation gives GetUserProduct and the
// item fields) and spec 2.3 (the seven domain type codes).

const contract = useContractClients();

// Every documented item field: wire field, value, public field, value read (money as numbers).
const ITEM_FIELDS: FieldRow[] = [
  ["product_name", "Acme DV Multi-Domain", "productName", "Acme DV Multi-Domain"],
  ["product_code", "acme-dv-multi", "productCode", "acme-dv-multi"],
  ["product_type", "SSL证书", "productType", "SSL证书"],
  ["product_type_code", "ssl", "productTypeCode", "ssl"],
  ["verification_type", "域名验证", "verificationType", "域名验证"],
  ["verification_type_code", "dv", "verificationTypeCode", "dv"],
  ["domain_type", "多域名", "domainType", "多域名"],
  ["domain_type_code", "multiple-single", "domainTypeCode", "multiple-single"],
  ["brand", "Acme CA", "brand", "Acme CA"],
  ["brand_code", "acme", "brandCode", "acme"],
  [
    "signature_algorithms",
    [{ name: "RSA", code: "rsa", category: "international", description: "RSA keys", encryption_strengths: [{ name: "RSA 2048", code: "rsa-2048" }, { name: "RSA 4096", code: "rsa-4096" }] }],
    "signatureAlgorithms",
    [{ name: "RSA", code: "rsa", category: "international", description: "RSA keys", encryptionStrengths: [{ name: "RSA 2048", code: "rsa-2048" }, { name: "RSA 4096", code: "rsa-4096" }] }],
  ],
  ["hash_algorithms", [{ name: "SHA-256", code: "sha256" }, { name: "SHA-384", code: "sha384" }], "hashAlgorithms", [{ name: "SHA-256", code: "sha256" }, { name: "SHA-384", code: "sha384" }]],
  [
    "valid_years",
    [{ years: 1, months: 12, price: 100, price_source: "user", san_price: 20, wildcard_price: 80.5 }],
    "validYears",
    [{ years: 1, months: 12, price: "100.00", priceSource: "user", sanPrice: "20.00", wildcardPrice: "80.50" }],
  ],
  ["price_source", "partner", "priceSource", "partner"],
  ["has_custom_price", true, "hasCustomPrice", true],
  ["base_price", 100, "basePrice", "100.00"],
  ["original_price", 150, "originalPrice", "150.00"],
  ["retail_price", 149.9, "retailPrice", "149.90"],
  ["san_price", 20, "sanPrice", "20.00"],
  ["wildcard_price", 80.5, "wildcardPrice", "80.50"],
  ["max_single_domains", 100, "maxSingleDomains", 100],
  ["max_wildcards", 0, "maxWildcards", 0],
];

const ITEM = answerFrom(ITEM_FIELDS);

function page(items: unknown[], extra: Record<string, unknown> = {}) {
  return {
    user: { username: "acme-ops" },
    query: { page: 1, limit: 100 },
    products: { total: items.length, page: 1, limit: 100, total_pages: 1, items },
    ...extra,
  };
}

describe("product list: the request", () => {
  it("POST /partner/GetUserProduct/ with apikey; no filters unless given", async () => {
    contract.server.answer(ok(page([ITEM])));
    await contract.client().listProducts();
    const request = contract.only();
    expectSpecRequest(request, "GetUserProduct");
    expect(fieldsOf(request)).toEqual([]);
  });

  it("every documented filter under its wire name", async () => {
    contract.server.answer(ok(page([ITEM])));
    await contract.client().listProducts({
      domainType: "multiple-mix", brandCode: "acme", verificationType: "ov", productName: "Multi", productCode: "acme-dv-multi", page: 2, limit: 500,
    });
    expect(fieldsOf(contract.only())).toEqual([
      ["domain_type", "multiple-mix"], ["brand_code", "acme"], ["verification_type", "ov"], ["product_name", "Multi"],
      ["product_code", "acme-dv-multi"], ["page", "2"], ["limit", "500"],
    ]);
  });
});

describe("product list: every documented item field of an answer", () => {
  it.each(ITEM_FIELDS)("%s = %j → %s", async (_wire, _value, camel, expected) => {
    contract.server.answer(ok(page([ITEM])));
    const { items } = await contract.client().listProducts();
    expect(getPath(items[0], camel)).toEqual(expected);
  });

  it("page fields; user and query as sent", async () => {
    contract.server.answer(ok({ ...page([ITEM]), products: { total: 7, page: 2, limit: 1, total_pages: 7, items: [ITEM] } }));
    const result = await contract.client().listProducts({ page: 2, limit: 1 });
    expect(result).toMatchObject({ total: 7, page: 2, limit: 1, totalPages: 7, user: { username: "acme-ops" }, query: { page: 1, limit: 100 } });
    expect(contract.warnings).toEqual([]);
  });

  it("max_domains is read as max_single_domains (the service documents them as equal)", async () => {
    const { max_single_domains: _, ...rest } = ITEM;
    contract.server.answer(ok(page([{ ...rest, max_domains: 50 }])));
    expect((await contract.client().listProducts()).items[0]!.maxSingleDomains).toBe(50);
  });
});

describe("spec 2.3: the domain type codes round-trip", () => {
  it.each(DOMAIN_TYPE_CODES)("%s: sent as the filter and read back from an item", async (code) => {
    contract.server.answer(ok(page([{ ...ITEM, domain_type_code: code }])));
    const { items } = await contract.client().listProducts({ domainType: code });
    expect(fieldsOf(contract.only())).toEqual([["domain_type", code]]);
    expect(items[0]!.domainTypeCode).toBe(code);
    expect(isDomainTypeCode(items[0]!.domainTypeCode)).toBe(true);
  });

  it("the list is exactly the specification's seven codes", () => {
    expect(DOMAIN_TYPE_CODES).toEqual(["single", "wildcard", "multiple-single", "multiple-wildcard", "multiple-mix", "ipv4", "ipv6"]);
  });

  it("an unlisted code in an answer passes through (no error); the guard tells", async () => {
    contract.server.answer(ok(page([{ ...ITEM, domain_type_code: "multiple-ip" }, { ...ITEM, product_code: "p2", verification_type_code: "iv" }])));
    const { items } = await contract.client().listProducts();
    expect(items.map((p) => p.domainTypeCode)).toEqual(["multiple-ip", "multiple-single"]);
    expect(isDomainTypeCode(items[0]!.domainTypeCode)).toBe(false);
    expect(isVerificationTypeCode(items[1]!.verificationTypeCode)).toBe(false);
    expect(contract.warnings).toEqual([]);
  });

  it("an unlisted code is refused as a filter before sending", async () => {
    await expect(contract.client().listProducts({ domainType: "multi" as never })).rejects.toMatchObject({
      kind: "invalid_argument",
      field: "domainType",
    });
    expect(contract.server.requests).toHaveLength(0);
  });
});

describe("tolerance: one bad product does not fail the list", () => {
  it("the bad item is skipped and reported through logger.warn naming the item and the field; the rest is returned", async () => {
    const bad = { ...ITEM, product_code: "broken-one", base_price: "a lot" };
    const noCode = { ...ITEM, domain_type_code: undefined, product_code: "no-type" };
    contract.server.answer(ok(page([ITEM, bad, noCode, { ...ITEM, product_code: "last", future_field: { x: 1 } }])));
    const c = contract.client();
    const { items } = await c.listProducts();
    expect(items.map((p) => p.productCode)).toEqual(["acme-dv-multi", "last"]);
    expect(items[1]).not.toHaveProperty("futureField");
    expect(contract.warnings).toHaveLength(2);
    expect(contract.warnings[0]).toMatch(/^GetUserProduct: skipped data\.products\.items\[1\] \(product_code "broken-one"\): data\.products\.items\[1\]\.base_price: expected an amount/);
    expect(contract.warnings[1]).toMatch(/items\[2\] \(product_code "no-type"\).*domain_type_code: is missing/);
  });

  it("a bad price term inside a product drops that term only", async () => {
    contract.server.answer(ok(page([{ ...ITEM, valid_years: [{ years: 1, months: 12, price: 100, san_price: 20, wildcard_price: null }, { years: 2 }] }])));
    const { items } = await contract.client().listProducts();
    expect(items[0]!.validYears).toEqual([{ years: 1, months: 12, price: "100.00", sanPrice: "20.00", wildcardPrice: null }]);
    expect(contract.warnings).toEqual([expect.stringContaining("skipped data.products.items[0].valid_years[1]")]);
  });

  it("listAllProducts walks the pages and keeps the readable items of each", async () => {
    contract.server.answer((r) => {
      const n = Number(new URLSearchParams(r.body).get("page"));
      return ok({ products: { total: 4, page: n, limit: 2, total_pages: 2, items: [{ ...ITEM, product_code: `p${n}a` }, n === 1 ? { broken: true } : { ...ITEM, product_code: `p${n}b` }] } });
    });
    const all = await contract.client().listAllProducts({ limit: 2 });
    expect(all.map((p) => p.productCode)).toEqual(["p1a", "p2a", "p2b"]);
    expect(contract.warnings).toHaveLength(1);
  });
});
