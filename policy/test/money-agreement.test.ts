// The guardrails and `certreseller-preview-money` read an Order's money the
// same way: one reading in the SDK (pulumi-certreseller/dist/money), so a
// purchase the one counts cannot be free to the other.
import { createRequire } from "node:module";
import { ORDER_TYPE, checkSpend, readOrderMoney, summarize, type MoneyStep } from "pulumi-certreseller/dist/money/index.js";
import { describe, expect, it } from "vitest";
import { DEFAULTS } from "../src/config";
import { readOrder, type OrderProps } from "../src/order";
import { checkOrderPrice, checkStackPrice } from "../src/rules/price";

/** Pulumi's placeholder for a string another resource computes, as the preview sends it. */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const NOW = new Date("2026-11-25T12:00:00.000Z");

// The analyzer wraps an Order's props in this proxy (it throws UnknownValueError
// when an unknown is read); @pulumi/policy does not declare it, hence the cast.
const { unknownCheckingProxy } = createRequire(require.resolve("@pulumi/policy/package.json"))("./proxy") as {
  unknownCheckingProxy: <T extends object>(props: T) => T;
};

/** One Order seen both ways: by the policy pack (analyzer props) and by the CLI (a create step of the preview). */
function both(inputs: Record<string, unknown>) {
  const props = { productCode: "sandbox-dv-single", domain: "site.example.com", verificationMethod: "dns", ...inputs };
  const step: MoneyStep = { op: "create", urn: `urn:pulumi:dev::shop::${ORDER_TYPE}::site`, type: ORDER_TYPE, new: props };
  return { facts: readOrder(unknownCheckingProxy(props as OrderProps)), summary: summarize([step], NOW) };
}

describe("the policy pack and the CLI agree on an Order's money", () => {
  it("an adoptOrderNo unknown at preview: both count a possible purchase at the quoted price and both flag it", () => {
    const { facts, summary } = both({ adoptOrderNo: UNKNOWN, quotedPrice: "900.00" });
    expect(facts.kind).toBe("maybe-buys");
    expect(facts.adopted).toBe(false);
    expect(summary.maybeBuys.map((b) => b.price)).toEqual([facts.price]);
    expect(facts.price).toBe(900);
    expect(summary.spend).toBe(900);

    expect(checkOrderPrice(facts, { ...DEFAULTS.orderPrice, maxOrderPrice: 899 })).toEqual(["quotedPrice 900.00 exceeds the per-order maximum of 899.00."]);
    expect(checkStackPrice([{ name: "site", order: facts }], { maxStackPrice: 0 })).toEqual([
      "Orders in this stack total 900.00, above the stack maximum of 0.00 (site 900.00).",
    ]);
    expect(checkSpend(summary, { maxSpend: 0 })).toHaveLength(1);
  });

  it("the analyzer's proxy and the preview's placeholder are read alike", () => {
    const inputs = { adoptOrderNo: UNKNOWN, quotedPrice: "900.00" };
    expect(readOrderMoney(unknownCheckingProxy(inputs))).toEqual(readOrderMoney(inputs));
    expect(readOrderMoney(inputs)).toEqual({ kind: "maybe-buys", price: 900 });
  });

  it("a known adoptOrderNo: both charge nothing", () => {
    const { facts, summary } = both({ adoptOrderNo: "CERT9", quotedPrice: "0.00" });
    expect(facts).toMatchObject({ kind: "adopts", adopted: true });
    expect(summary.adopts).toEqual([{ name: "site", orderNo: "CERT9" }]);
    expect(checkOrderPrice(facts, { ...DEFAULTS.orderPrice, maxOrderPrice: 0 })).toEqual([]);
    expect(checkSpend(summary, { maxSpend: 0 })).toEqual([]);
  });

  it("a plain purchase: both count its quoted price", () => {
    const { facts, summary } = both({ quotedPrice: "140.00" });
    expect(facts).toMatchObject({ kind: "buys", price: 140, adopted: false });
    expect(summary.buys).toEqual([{ name: "site", price: 140 }]);
    expect(checkOrderPrice(facts, { ...DEFAULTS.orderPrice, maxOrderPrice: 139 })).toHaveLength(1);
    expect(checkSpend(summary, { maxSpend: 139 })).toHaveLength(1);
  });
});
