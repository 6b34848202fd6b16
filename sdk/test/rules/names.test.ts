import { describe, expect, it } from "vitest";
import type { Product } from "../../src/client/types.js";
import { canonicalName, checkDomainType, checkNames, classifyName } from "../../src/rules/index.js";

const product = (over: Partial<Product>): Product => ({
  productName: "P",
  productCode: "p",
  verificationTypeCode: "dv",
  domainTypeCode: "multiple-mix",
  signatureAlgorithms: [],
  hashAlgorithms: [],
  validYears: [{ years: 1, months: 12, price: "150.00", sanPrice: "20.00", wildcardPrice: "300.00" }],
  basePrice: "150.00",
  sanPrice: "20.00",
  wildcardPrice: "300.00",
  maxSingleDomains: 3,
  maxWildcards: 2,
  ...over,
});

describe("classifyName", () => {
  it.each([
    ["example.com", "fqdn"],
    ["*.example.com", "wildcard"],
    ["8.8.8.8", "ipv4"],
    ["2606:4700:4700::1111", "ipv6"],
  ])("%s is %s", (name, kind) => expect(classifyName(name)).toEqual({ kind }));
  it.each([
    ["192.168.1.1", /not a public IP/],
    ["::1", /not a public IP/],
    ["fd00::1", /not a public IP/],
    ["::ffff:8.8.8.8", /not a public IP/],
    ["203.0.113.7", /not a public IP/],
    ["a.*.example.com", /one leading `\*.` label/],
    ["-bad.example.com", /invalid label "-bad"/],
    ["example", /not a fully qualified/],
    ["example.123", /top-level label/],
  ])("%s is refused", (name, reason) => expect((classifyName(name) as { error: string }).error).toMatch(reason));
});

describe("canonical names", () => {
  it("lower-cases, trims, drops the root dot and writes IPv6 in one form", () => {
    expect(canonicalName(" WWW.Example.COM. ")).toBe("www.example.com");
    expect(canonicalName("2606:4700:4700:0:0:0:0:1111")).toBe("2606:4700:4700::1111");
    expect(canonicalName("2001:DB8:0::0:1")).toBe("2001:db8::1");
  });
});

describe("multiple-mix counts", () => {
  const names = (domain: string, sanDomains: string[] = [], wildcardDomains: string[] = []) => ({ domain, sanDomains, wildcardDomains });
  const run = (p: Product, n: ReturnType<typeof names>) => {
    const { failures, counts } = checkNames(n);
    return [...failures, ...checkDomainType(p, n, counts).failures].map((f) => `${f.property}: ${f.reason}`);
  };
  it("counts the main name against its own kind", () => {
    expect(run(product({}), names("*.example.com", ["a.example.com", "b.example.com", "c.example.com"], ["*.x.example.com"]))).toEqual([]);
    expect(run(product({}), names("example.com", ["a.example.com", "b.example.com", "c.example.com"]))).toEqual([
      expect.stringMatching(/^sanDomains: .*at most 3 plain domain names in total \(domain included\), got 4/),
    ]);
  });
});
