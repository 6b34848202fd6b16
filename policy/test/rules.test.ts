import { VERIFICATION_METHODS } from "pulumi-certreseller";
import { describe, expect, it } from "vitest";
import { DEFAULTS, SCHEMAS, withDefaults } from "../src/config";
import { readOrder, type OrderProps } from "../src/order";
import { checkDomains } from "../src/rules/domains";
import { checkMethod } from "../src/rules/methods";
import { checkOrderPrice, checkStackPrice } from "../src/rules/price";
import { checkProductionGuard, isProductionStack } from "../src/rules/production";
import { checkProduct } from "../src/rules/products";
import { checkTerm } from "../src/rules/term";
import { checkWildcards } from "../src/rules/wildcards";

const order = (props: OrderProps = {}) =>
  readOrder({ productCode: "sandbox-dv-single", domain: "shop.example.com", verificationMethod: "dns", quotedPrice: "100.00", ...props });

describe("readOrder", () => {
  it("collects every ordered name, defaults the term and parses the quoted price", () => {
    const facts = readOrder({
      productCode: "p",
      domain: "example.com",
      sanDomains: ["www.example.com"],
      wildcardDomains: ["*.api.example.com"],
      quotedPrice: "199.50",
    });
    expect(facts.names).toEqual(["example.com", "www.example.com", "*.api.example.com"]);
    expect(facts.months).toBe(12);
    expect(facts.price).toBe(199.5);
  });

  it("reads a term given in years when months is not set", () => {
    expect(readOrder({ years: 2 }).months).toBe(24);
    expect(readOrder({ years: 2, months: 24 }).months).toBe(24);
  });

  it("falls back to the recorded price.total of a bought order", () => {
    expect(readOrder({ price: { total: "80.00" } }).price).toBe(80);
  });

  it("treats a value the analyzer reports as unknown as absent instead of failing every rule", () => {
    class UnknownValueError extends Error {}
    const props = new Proxy({ productCode: "p", months: 24 } as OrderProps, {
      get(target, key) {
        if (key === "domain") throw new UnknownValueError("unknown during preview");
        return target[key as string];
      },
    });
    const facts = readOrder(props);
    expect(facts.names).toEqual([]);
    expect(facts.months).toBe(24);
  });

  it("does not swallow other errors", () => {
    const props = new Proxy({} as OrderProps, {
      get() {
        throw new TypeError("boom");
      },
    });
    expect(() => readOrder(props)).toThrow("boom");
  });
});

describe("certreseller-allowed-products", () => {
  const config = withDefaults(DEFAULTS.products, { allowedProductCodes: ["sandbox-dv-*"], allowedBrands: ["sandbox"] });
  it("passes a product matching a pattern", () => {
    expect(checkProduct(order(), config)).toEqual([]);
  });
  it("names the product outside the list", () => {
    expect(checkProduct(order({ productCode: "sandbox-ev-multi" }), config)).toEqual([
      'productCode "sandbox-ev-multi" is not an allowed product (allowed: sandbox-dv-*).',
    ]);
  });
  it("checks the brand when the Order records one", () => {
    expect(checkProduct(order({ brandCode: "other" }), config)[0]).toContain('brand "other"');
    expect(checkProduct(order({ brandCode: "SANDBOX" }), config)).toEqual([]);
  });
  it("allows everything with the default (empty) lists", () => {
    expect(checkProduct(order({ productCode: "anything" }), DEFAULTS.products)).toEqual([]);
  });
});

describe("certreseller-max-term", () => {
  it("passes the default term", () => {
    expect(checkTerm(order(), DEFAULTS.term)).toEqual([]);
  });
  it("fails a longer term, in months or in years", () => {
    expect(checkTerm(order({ months: 24 }), DEFAULTS.term)).toEqual(["months 24 exceeds the maximum term of 12 months."]);
    expect(checkTerm(order({ years: 3 }), DEFAULTS.term)).toEqual(["months 36 exceeds the maximum term of 12 months."]);
  });
});

describe("certreseller-max-order-price", () => {
  it("passes a price within the cap", () => {
    expect(checkOrderPrice(order({ quotedPrice: "1000.00" }), DEFAULTS.orderPrice)).toEqual([]);
  });
  it("fails a price above the cap", () => {
    expect(checkOrderPrice(order({ quotedPrice: "1000.01" }), DEFAULTS.orderPrice)).toEqual([
      "quotedPrice 1000.01 exceeds the per-order maximum of 1000.00.",
    ]);
  });
  it("skips an adopted order, which spends nothing", () => {
    expect(checkOrderPrice(order({ quotedPrice: "5000", adoptOrderNo: "CERT1" }), DEFAULTS.orderPrice)).toEqual([]);
    expect(checkOrderPrice(order({ quotedPrice: "5000", adopted: true }), DEFAULTS.orderPrice)).toEqual([]);
  });
  it("fails a missing quote only when a quote is required", () => {
    const unquoted = order({ quotedPrice: undefined });
    expect(checkOrderPrice(unquoted, DEFAULTS.orderPrice)).toEqual([]);
    expect(checkOrderPrice(unquoted, { ...DEFAULTS.orderPrice, requireQuotedPrice: true })[0]).toMatch(/quotedPrice is missing/);
  });
});

describe("certreseller-max-stack-price", () => {
  const orders = (...prices: string[]) => prices.map((p, i) => ({ name: `o${i}`, order: order({ quotedPrice: p }) }));
  it("passes a stack within its budget", () => {
    expect(checkStackPrice(orders("2500", "2500"), DEFAULTS.stackPrice)).toEqual([]);
  });
  it("fails a stack above its budget and lists the orders", () => {
    expect(checkStackPrice(orders("2500", "2500.01"), DEFAULTS.stackPrice)).toEqual([
      "Orders in this stack total 5000.01, above the stack maximum of 5000.00 (o0 2500.00, o1 2500.01).",
    ]);
  });
});

describe("certreseller-allowed-validation-methods", () => {
  it("allows the specification's non-e-mail codes by default, taken from the SDK's vocabulary", () => {
    expect(DEFAULTS.methods.allowedMethods).toEqual(["dns", "cname", "file", "dcv"]);
    expect((SCHEMAS.methods.properties.allowedMethods as { items: { enum: string[] } }).items.enum).toEqual([...VERIFICATION_METHODS]);
  });
  it("passes DNS", () => {
    expect(checkMethod(order(), DEFAULTS.methods)).toEqual([]);
  });
  it("fails each e-mail method by default", () => {
    for (const method of ["email-admin", "email-postmaster", "email-webmaster", "email-hostmaster"]) {
      expect(checkMethod(order({ verificationMethod: method }), DEFAULTS.methods)).toEqual([
        `verificationMethod "${method}" is not allowed (allowed: dns, cname, file, dcv).`,
      ]);
    }
  });
  it("allows an e-mail method a stack's config lists", () => {
    expect(checkMethod(order({ verificationMethod: "email-hostmaster" }), { ...DEFAULTS.methods, allowedMethods: ["dns", "email-hostmaster"] })).toEqual([]);
  });
  it("judges only a method the program sets; an unset one fails only when an explicit one is required", () => {
    const implicit = order({ verificationMethod: undefined });
    expect(checkMethod(implicit, DEFAULTS.methods)).toEqual([]);
    expect(checkMethod(implicit, { ...DEFAULTS.methods, requireExplicitMethod: true })[0]).toMatch(
      /verificationMethod is not set: the service then applies the product's default, which cannot be known at preview/,
    );
  });
});

describe("certreseller-domain-allow-list", () => {
  const config = { allowedSuffixes: ["example.com"] };
  it("passes the suffix itself, names under it and wildcards under it", () => {
    expect(checkDomains(order({ domain: "example.com", sanDomains: ["a.b.example.com"], wildcardDomains: ["*.example.com"] }), config)).toEqual([]);
  });
  it("respects label boundaries and names every name outside", () => {
    expect(checkDomains(order({ domain: "badexample.com", sanDomains: ["example.com.evil.net", "www.example.com"] }), config)).toEqual([
      '"badexample.com", "example.com.evil.net" are outside the allowed domain suffixes (example.com).',
    ]);
  });
});

describe("certreseller-wildcards", () => {
  const wild = order({ domain: "*.example.com", wildcardDomains: ["*.api.example.com"] });
  it("passes wildcards when allowed (the default)", () => {
    expect(checkWildcards(wild, DEFAULTS.wildcards)).toEqual([]);
  });
  it("fails wildcards when forbidden, and passes plain names", () => {
    expect(checkWildcards(wild, { allowWildcards: false })).toEqual([
      "wildcard names are not allowed in this stack: *.example.com, *.api.example.com.",
    ]);
    expect(checkWildcards(order(), { allowWildcards: false })).toEqual([]);
  });
});

describe("certreseller-production-orders-protected", () => {
  const prod = new Map([["environment", "Production"]]);
  it("recognises production by tag or by config", () => {
    expect(isProductionStack(prod, DEFAULTS.production)).toBe(true);
    expect(isProductionStack(new Map([["environment", "dev"]]), DEFAULTS.production)).toBe(false);
    expect(isProductionStack(new Map(), { ...DEFAULTS.production, treatAsProduction: true })).toBe(true);
  });
  it("passes a protected Order in production and any Order elsewhere", () => {
    expect(checkProductionGuard({ name: "site", protect: true }, prod, DEFAULTS.production)).toEqual([]);
    expect(checkProductionGuard({ name: "site", protect: false }, new Map(), DEFAULTS.production)).toEqual([]);
  });
  it("warns about an unprotected Order in production unless exempted", () => {
    expect(checkProductionGuard({ name: "site", protect: false }, prod, DEFAULTS.production)[0]).toMatch(/Order "site" in a production stack can be deleted/);
    expect(checkProductionGuard({ name: "site", protect: false }, prod, { ...DEFAULTS.production, exemptResources: ["site"] })).toEqual([]);
  });
});
