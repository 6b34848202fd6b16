/**
 * Spec 2.3, one block per domain type: the names each type takes are
 * accepted, and each shape it refuses fails naming the property at fault.
 * (The catalogue-backed cases run through `check` in test/resources/order/check.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { DOMAIN_TYPE_CODES, type Product } from "../../src/client/types.js";
import { checkDomainType, checkNames, type OrderNames } from "../../src/rules/index.js";

function product(domainTypeCode: string, maxSingleDomains: number, maxWildcards: number): Product {
  return {
    productName: domainTypeCode,
    productCode: `p-${domainTypeCode}`,
    verificationTypeCode: "dv",
    domainTypeCode,
    signatureAlgorithms: [],
    hashAlgorithms: [],
    validYears: [{ years: 1, months: 12, price: "100.00", sanPrice: "20.00", wildcardPrice: "300.00" }],
    basePrice: "100.00",
    sanPrice: "20.00",
    wildcardPrice: "300.00",
    maxSingleDomains,
    maxWildcards,
  };
}

/** Every failure as `property: reason`, name rules first, as `checkOrder` reports them. */
function judge(p: Product, domain: string, sanDomains: string[] = [], wildcardDomains: string[] = []) {
  const names: OrderNames = { domain, sanDomains, wildcardDomains };
  const { failures, counts } = checkNames(names);
  const typed = failures.length === 0 ? checkDomainType(p, names, counts) : { failures: [] };
  return [...failures, ...typed.failures].map((f) => `${f.property}: ${f.reason}`);
}

const V4 = "8.8.8.8";
const V6 = "2606:4700:4700::1111";

type Case = [title: string, names: [string, string[]?, string[]?], property?: string, reason?: RegExp];

const TABLE: Record<(typeof DOMAIN_TYPE_CODES)[number], { product: Product; cases: Case[] }> = {
  single: {
    product: product("single", 1, 0),
    cases: [
      ["one plain domain", ["example.com"]],
      ["a wildcard as domain", ["*.example.com"], "domain", /single product .*: domain must be a plain domain name, not a wildcard/],
      ["an IPv4 address", [V4], "domain", /domain must be a plain domain name, not an IPv4 address/],
      ["an IPv6 address", [V6], "domain", /domain must be a plain domain name, not an IPv6 address/],
      ["sanDomains", ["example.com", ["www.example.com"]], "sanDomains", /sanDomains must be empty/],
      ["wildcardDomains", ["example.com", [], ["*.example.com"]], "wildcardDomains", /wildcardDomains must be empty/],
    ],
  },
  wildcard: {
    product: product("wildcard", 0, 1),
    cases: [
      ["one wildcard", ["*.example.com"]],
      ["a plain domain", ["example.com"], "domain", /wildcard product .*: domain must be a wildcard, not a plain domain name/],
      ["an IP address", [V4], "domain", /domain must be a wildcard, not an IPv4 address/],
      ["sanDomains", ["*.example.com", ["www.example.com"]], "sanDomains", /sanDomains must be empty/],
      ["a second wildcard", ["*.example.com", [], ["*.api.example.com"]], "wildcardDomains", /wildcardDomains must be empty/],
    ],
  },
  "multiple-single": {
    product: product("multiple-single", 3, 0),
    cases: [
      ["plain domains up to the count", ["example.com", ["a.example.com", "b.example.com"]]],
      ["a wildcard as domain", ["*.example.com"], "domain", /multiple-single product .*: domain must be a plain domain name, not a wildcard/],
      ["a wildcard among the extra names", ["example.com", [], ["*.example.com"]], "wildcardDomains", /wildcards are not supported\).*wildcardDomains must be empty/],
      ["a wildcard in sanDomains", ["example.com", ["*.example.com"]], "sanDomains", /is a wildcard; list wildcards in wildcardDomains/],
      ["an IPv4 address as domain", [V4], "domain", /domain must be a plain domain name, not an IPv4 address/],
      ["an address in sanDomains", ["example.com", [V6]], "sanDomains", /is an IPv6 address; sanDomains takes plain domain names only/],
      ["more plain names than max_single_domains", ["example.com", ["a.example.com", "b.example.com", "c.example.com"]], "sanDomains", /at most 3 plain domain names in total \(domain included\), got 4/],
    ],
  },
  "multiple-wildcard": {
    product: product("multiple-wildcard", 0, 2),
    cases: [
      ["wildcards up to the count", ["*.example.com", [], ["*.api.example.com"]]],
      ["a plain domain as domain", ["example.com", [], ["*.example.com"]], "domain", /multiple-wildcard product .*: domain must be a wildcard, not a plain domain name/],
      ["sanDomains", ["*.example.com", ["www.example.com"]], "sanDomains", /sanDomains must be empty/],
      ["an IPv6 address as domain", [V6], "domain", /domain must be a wildcard, not an IPv6 address/],
      ["more wildcards than max_wildcards", ["*.example.com", [], ["*.a.example.com", "*.b.example.com"]], "wildcardDomains", /at most 2 wildcards in total \(domain included\), got 3/],
    ],
  },
  "multiple-mix": {
    product: product("multiple-mix", 2, 2),
    cases: [
      ["plain and wildcard names mixed", ["example.com", ["www.example.com"], ["*.example.com", "*.api.example.com"]]],
      ["a wildcard as domain", ["*.example.com", ["www.example.com", "api.example.com"], ["*.api.example.com"]]],
      ["an IPv4 address as domain", [V4], "domain", /multiple-mix product .*: domain must be a plain domain name or a wildcard, not an IPv4 address/],
      ["an IPv6 address as domain", [V6], "domain", /domain must be a plain domain name or a wildcard, not an IPv6 address/],
      ["more plain names than max_single_domains", ["example.com", ["a.example.com", "b.example.com"]], "sanDomains", /at most 2 plain domain names .* got 3/],
      ["more wildcards than max_wildcards (the main one counts)", ["*.example.com", [], ["*.a.example.com", "*.b.example.com"]], "wildcardDomains", /at most 2 wildcards .* got 3/],
    ],
  },
  ipv4: {
    product: product("ipv4", 1, 0),
    cases: [
      ["one public IPv4 address", [V4]],
      ["an IPv6 address", [V6], "domain", /ipv4 product .*: domain must be an IPv4 address, not an IPv6 address/],
      ["a domain name", ["example.com"], "domain", /domain must be an IPv4 address, not a plain domain name/],
      ["a wildcard", ["*.example.com"], "domain", /domain must be an IPv4 address, not a wildcard/],
      ["a private address", ["10.1.2.3"], "domain", /"10.1.2.3" is not a public IP address/],
      ["sanDomains", [V4, ["www.example.com"]], "sanDomains", /sanDomains must be empty/],
      ["wildcardDomains", [V4, [], ["*.example.com"]], "wildcardDomains", /wildcardDomains must be empty/],
    ],
  },
  ipv6: {
    product: product("ipv6", 1, 0),
    cases: [
      ["one public IPv6 address", [V6]],
      ["an IPv4 address", [V4], "domain", /ipv6 product .*: domain must be an IPv6 address, not an IPv4 address/],
      ["a domain name", ["example.com"], "domain", /domain must be an IPv6 address, not a plain domain name/],
      ["a loopback address", ["::1"], "domain", /"::1" is not a public IP address/],
      ["sanDomains", [V6, ["www.example.com"]], "sanDomains", /sanDomains must be empty/],
    ],
  },
};

describe("spec 2.3 domain types", () => {
  it("covers every domain type code of the vocabulary", () => {
    expect(Object.keys(TABLE).sort()).toEqual([...DOMAIN_TYPE_CODES].sort());
  });
  for (const [type, { product: p, cases }] of Object.entries(TABLE)) {
    describe(type, () => {
      for (const [title, [domain, sans, wildcards], property, reason] of cases) {
        if (property === undefined) {
          it(`accepts ${title}`, () => expect(judge(p, domain, sans, wildcards)).toEqual([]));
        } else {
          it(`refuses ${title}, naming ${property}`, () => {
            const failures = judge(p, domain, sans, wildcards);
            expect(failures, JSON.stringify(failures)).toHaveLength(1);
            expect(failures[0]).toMatch(new RegExp(`^${property}: `));
            expect(failures[0]).toMatch(reason!);
          });
        }
      }
    });
  }
});

describe("a domain type outside the specification's seven", () => {
  it("judges nothing of the type and says what was not checked, naming the type", () => {
    const odd = product("ipv4-multi", 0, 0);
    const names = { domain: "example.com", sanDomains: ["a.example.com", "b.example.com"], wildcardDomains: ["*.example.com"] };
    const result = checkDomainType(odd, names, checkNames(names).counts);
    expect(result.failures).toEqual([]);
    expect(result.unchecked).toMatch(/product p-ipv4-multi has domain type "ipv4-multi", which is not one of the specification's \(single, .*ipv6\)/);
    expect(result.unchecked).toMatch(/domain-type rules were NOT checked .* nor the name counts \(max_single_domains, max_wildcards\)/);
  });
  it("still applies the product-independent name rules", () => {
    expect(judge(product("ipv4-multi", 5, 5), "example.com", ["*.example.com"])).toEqual([
      expect.stringMatching(/^sanDomains: "\*.example.com" is a wildcard/),
    ]);
  });
});
