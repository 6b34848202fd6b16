/**
 * The spend summary behind `certreseller-preview-money`, tested against the
 * sdk's own sources. (The command's other cases, and the step adapters, are
 * in ./update-money.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { ORDER_TYPE, PLUGIN_ORDER_TYPE, checkSpend, headline, report, summarize, type MoneyStep } from "../../src/money/summary.js";

const NOW = new Date("2026-11-25T12:00:00.000Z");
/** What `pulumi preview --json` shows for an input another resource computes. */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const urn = (name: string) => `urn:pulumi:dev::shop::${ORDER_TYPE}::${name}`;
const create = (name: string, inputs: Record<string, unknown>): MoneyStep => ({
  op: "create",
  urn: urn(name),
  type: ORDER_TYPE,
  new: { domain: `${name}.example.com`, ...inputs },
});

describe("Orders of either front end", () => {
  it("counts an Order served by the provider plugin (its schema token) like a TypeScript one", () => {
    const steps: MoneyStep[] = [
      create("ts", { quotedPrice: "100.00" }),
      { op: "create", urn: `urn:pulumi:dev::shop::${PLUGIN_ORDER_TYPE}::yaml`, type: PLUGIN_ORDER_TYPE, new: { domain: "yaml.example.com", quotedPrice: "140.00" } },
    ];
    const s = summarize(steps, NOW);
    expect(s.buys.map((b) => b.name).sort()).toEqual(["ts", "yaml"]);
    expect(s.spend).toBe(240);
  });
});

describe("an adoptOrderNo unknown at preview", () => {
  // If the Output resolves to undefined at `up`, the Order buys at full price.
  const steps = [create("site", { adoptOrderNo: UNKNOWN, quotedPrice: "900.00" })];

  it("is a possible purchase at its quoted price, not a free adoption", () => {
    const s = summarize(steps, NOW);
    expect(s.adopts).toEqual([]);
    expect(s.buys).toEqual([]);
    expect(s.maybeBuys).toEqual([{ name: "site", price: 900 }]);
    expect(s.spend).toBe(900);
  });

  it("says it may be either", () => {
    const s = summarize(steps, NOW);
    expect(headline(s)).toBe("buys up to 1 (900.00) — or adopts it if adoptOrderNo resolves to an order number, cancels nothing");
    expect(report(s)).toContain("  buy?    site: 900.00 unless adoptOrderNo resolves to an order number (then adopted, 0.00)");
  });

  it("counts against the spend cap at its quoted price (the worst case)", () => {
    const s = summarize(steps, NOW);
    expect(checkSpend(s, { maxSpend: 0 })).toEqual([
      "this update may buy up to 900.00, above the cap of 0.00 (site 900.00 unless adoptOrderNo resolves to an order number)",
    ]);
    expect(checkSpend(s, { maxSpend: 900 })).toEqual([]);
  });

  it("adds to what the update surely buys", () => {
    const s = summarize([create("a", { quotedPrice: "100.00" }), ...steps], NOW);
    expect(s.spend).toBe(1000);
    expect(headline(s)).toBe(
      "buys 1 certificate (100.00) and up to 1 more (900.00) — or adopts it if adoptOrderNo resolves to an order number, cancels nothing",
    );
    expect(checkSpend(s, { maxSpend: 999 })).toEqual([
      "this update may buy up to 1000.00, above the cap of 999.00 (a 100.00, site 900.00 unless adoptOrderNo resolves to an order number)",
    ]);
  });

  it("without a quote is unpriced, like any purchase without one", () => {
    const s = summarize([create("site", { adoptOrderNo: UNKNOWN })], NOW);
    expect(s.maybeBuys).toEqual([{ name: "site", price: undefined }]);
    expect(s.unpriced).toEqual(["site"]);
    expect(checkSpend(s, { maxSpend: 1000 })[0]).toMatch(/^site: no quoted price at preview/);
  });

  it("a known adoptOrderNo is still an adoption that buys nothing", () => {
    const s = summarize([create("site", { adoptOrderNo: "CERT9", quotedPrice: "0.00" })], NOW);
    expect(s.adopts).toEqual([{ name: "site", orderNo: "CERT9" }]);
    expect(s.maybeBuys).toEqual([]);
    expect(checkSpend(s, { maxSpend: 0 })).toEqual([]);
    expect(headline(s)).toBe("buys nothing, adopts 1 (no charge), cancels nothing");
  });

  it("a replacement with an unknown adoptOrderNo may buy, replacing the old order", () => {
    const old = { orderNo: "CERT1", paidAt: "2026-11-24T12:00:00.000Z", price: { total: "100.00" } };
    const s = summarize(
      ["create-replacement", "replace", "delete-replaced"].map((op) => ({
        op,
        urn: urn("site"),
        type: ORDER_TYPE,
        old,
        ...(op === "delete-replaced" ? {} : { new: { adoptOrderNo: UNKNOWN, quotedPrice: "900.00" } }),
      })),
      NOW,
    );
    expect(s.maybeBuys).toEqual([{ name: "site", price: 900, replaces: "CERT1" }]);
    expect(s.cancels).toHaveLength(1);
  });
});
