// The rules behind `certreseller-preview-money` (sdk/src/money): what one
// update buys, adopts, cancels and refunds, judged from the engine's planned
// steps, and the cap on what it buys (the command: test/cmd). The policy pack
// reads an Order's money through the same code: policy/test/money-agreement.test.ts.
import { Order } from "../../src/resources/order.js";
import {
  ORDER_TYPE,
  checkSpend,
  fromEngineEvents,
  fromPreviewJson,
  headline,
  refundDeadline,
  report,
  summarize,
  type MoneyStep,
} from "../../src/money/index.js";
import { describe, expect, it } from "vitest";

const NOW = new Date("2026-11-25T12:00:00.000Z");
const urn = (name: string) => `urn:pulumi:dev::shop::${ORDER_TYPE}::${name}`;
const daysBefore = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();
const held = (orderNo: string, paidAt: string, total = "100.00") => ({
  orderNo,
  paidAt,
  price: { basePrice: total, total },
  quotedPrice: total,
});
const inputs = (quotedPrice: unknown = "100.00", extra: Record<string, unknown> = {}) => ({ domain: "x.example.com", quotedPrice, ...extra });

const create = (name: string, quotedPrice: unknown = "100.00", extra: Record<string, unknown> = {}): MoneyStep => ({
  op: "create",
  urn: urn(name),
  type: ORDER_TYPE,
  new: inputs(quotedPrice, extra),
});
/** The three steps the engine plans for a create-before-delete replacement. */
const replacement = (name: string, old: Record<string, unknown>, quotedPrice: unknown = "100.00"): MoneyStep[] =>
  ["create-replacement", "replace", "delete-replaced"].map((op) => ({
    op,
    urn: urn(name),
    type: ORDER_TYPE,
    old,
    ...(op === "delete-replaced" ? {} : { new: inputs(quotedPrice) }),
  }));
const removal = (name: string, old: Record<string, unknown>, retainOnDelete = false): MoneyStep => ({ op: "delete", urn: urn(name), type: ORDER_TYPE, old, retainOnDelete });

describe("summarize", () => {
  it("uses the Order's own type token", () => {
    expect(ORDER_TYPE).toBe(Order.__pulumiType);
  });

  it("a new Order is a purchase at its quoted price", () => {
    const s = summarize([create("site", "140.00")], NOW);
    expect(s.buys).toEqual([{ name: "site", price: 140 }]);
    expect(s.spend).toBe(140);
    expect(s.cancels).toEqual([]);
    expect(headline(s)).toBe("buys 1 certificate (140.00), cancels nothing");
  });

  it("an unchanged Order and an in-place update (verification method) move no money", () => {
    const old = held("CERT1", daysBefore(1));
    const s = summarize(
      [
        { op: "same", urn: urn("keep"), type: ORDER_TYPE, old, new: inputs() },
        { op: "update", urn: urn("method"), type: ORDER_TYPE, old, new: inputs() },
      ],
      NOW,
    );
    expect(s).toMatchObject({ buys: [], adopts: [], cancels: [], releases: [], spend: 0, refunds: 0 });
    expect(headline(s)).toBe("buys nothing, cancels nothing");
  });

  it("a replacement inside the refund window buys once and cancels the old order with a refund until paidAt + 7 days", () => {
    const paidAt = daysBefore(2);
    const s = summarize(replacement("site", held("CERT1", paidAt, "100.00"), "120.00"), NOW);
    expect(s.buys).toEqual([{ name: "site", price: 120, replaces: "CERT1" }]);
    expect(s.cancels).toHaveLength(1);
    expect(s.cancels[0]).toMatchObject({ name: "site", orderNo: "CERT1", paid: 100, refund: "refund" });
    expect(s.cancels[0]!.refundUntil!.toISOString()).toBe("2026-11-30T12:00:00.000Z");
    expect(s.refunds).toBe(100);
    expect(headline(s)).toBe("buys 1 certificate (120.00), cancels 1 (refund 100.00 if run before 2026-11-30 12:00 UTC)");
  });

  it("a replacement outside the refund window cancels without refund", () => {
    const s = summarize(replacement("site", held("CERT1", daysBefore(10))), NOW);
    expect(s.cancels[0]).toMatchObject({ orderNo: "CERT1", refund: "no-refund" });
    expect(s.refunds).toBe(0);
    expect(headline(s)).toBe("buys 1 certificate (100.00), cancels 1 (no refund: window closed 2026-11-22 12:00 UTC)");
  });

  it("the window is closed at exactly paidAt + 7 days", () => {
    expect(summarize([removal("a", held("CERT1", daysBefore(7)))], NOW).cancels[0]!.refund).toBe("no-refund");
    expect(summarize([removal("a", held("CERT1", new Date(NOW.getTime() - 7 * 86_400_000 + 1).toISOString()))], NOW).cancels[0]!.refund).toBe("refund");
  });

  it("a removed Order is a cancellation, and one kept by retainOnDelete is only released", () => {
    const s = summarize([removal("gone", held("CERT2", daysBefore(1))), removal("kept", held("CERT3", daysBefore(1)), true)], NOW);
    expect(s.buys).toEqual([]);
    expect(s.cancels.map((c) => c.orderNo)).toEqual(["CERT2"]);
    expect(s.releases).toEqual([{ name: "kept", orderNo: "CERT3" }]);
    expect(headline(s)).toBe("buys nothing, cancels 1 (refund 100.00 if run before 2026-12-01 12:00 UTC), releases 1 kept by retainOnDelete (no cancel)");
  });

  it("an adoption (adoptOrderNo, quoted 0.00) buys nothing", () => {
    const s = summarize([create("adopted", "0.00", { adoptOrderNo: "CERT9" })], NOW);
    expect(s.buys).toEqual([]);
    expect(s.adopts).toEqual([{ name: "adopted", orderNo: "CERT9" }]);
    expect(s.spend).toBe(0);
    expect(checkSpend(s, { maxSpend: 0 })).toEqual([]);
    expect(headline(s)).toBe("buys nothing, adopts 1 (no charge), cancels nothing");
  });

  it("cancelling an adopted order (no paidAt, no price recorded) says the refund is unknown", () => {
    const s = summarize([removal("adopted", { orderNo: "CERT9", adopted: true })], NOW);
    expect(s.cancels[0]).toMatchObject({ orderNo: "CERT9", paid: undefined, refund: "unknown" });
    expect(headline(s)).toContain("refund unknown: payment time not recorded");
  });

  it("an unknown price (no quote, or the preview's computed-value placeholder) is listed, not counted as 0", () => {
    const s = summarize([create("a"), create("b", null), create("c", "04da6b54-80e4-46f7-96ec-b56ff0331ba9")], NOW);
    expect(s.spend).toBe(100);
    expect(s.unpriced).toEqual(["b", "c"]);
    expect(headline(s)).toBe("buys 3 certificates (100.00 + 2 unpriced), cancels nothing");
    expect(report(s)).toContain("  buy     b: price unknown (no quote at preview)");
  });

  it("the issue's example: three purchases and one refundable cancellation", () => {
    const steps = [create("a"), create("b"), ...replacement("c", held("CERT1", "2026-11-23T09:30:00.000Z"))];
    expect(headline(summarize(steps, NOW))).toBe("buys 3 certificates (300.00), cancels 1 (refund 100.00 if run before 2026-11-30 09:30 UTC)");
  });

  it("a lone replace step (no create-replacement/delete-replaced halves) still counts once each way", () => {
    const s = summarize([{ op: "replace", urn: urn("r"), type: ORDER_TYPE, old: held("CERT1", daysBefore(1)), new: inputs() }], NOW);
    expect(s.buys).toHaveLength(1);
    expect(s.cancels).toHaveLength(1);
  });

  it("ignores every resource that is not an Order", () => {
    const s = summarize([{ op: "create", urn: "urn:pulumi:dev::shop::pulumi-nodejs:dynamic/certreseller:Certificate::site", type: "pulumi-nodejs:dynamic/certreseller:Certificate", new: { quotedPrice: "1.00" } }], NOW);
    expect(s.buys).toEqual([]);
  });

  it("refundDeadline is undefined without a parsable paidAt", () => {
    expect(refundDeadline(undefined)).toBeUndefined();
    expect(refundDeadline("yesterday")).toBeUndefined();
  });
});

describe("checkSpend", () => {
  const two = summarize([create("a"), create("b")], NOW);

  it("passes at the cap and fails above it, naming each purchase", () => {
    expect(checkSpend(two, { maxSpend: 200 })).toEqual([]);
    expect(checkSpend(two, { maxSpend: 150 })).toEqual(["this update buys 200.00, above the cap of 150.00 (a 100.00, b 100.00)"]);
  });

  it("counts only what the update buys: held orders and refunds do not offset it", () => {
    const s = summarize([{ op: "same", urn: urn("keep"), type: ORDER_TYPE, old: held("CERT1", daysBefore(1), "900.00"), new: inputs("900.00") }, ...replacement("r", held("CERT2", daysBefore(1)))], NOW);
    expect(s.spend).toBe(100);
    expect(checkSpend(s, { maxSpend: 100 })).toEqual([]);
    expect(checkSpend(s, { maxSpend: 99 })).toHaveLength(1);
  });

  it("fails an unpriced purchase unless allowed", () => {
    const s = summarize([create("a", null)], NOW);
    expect(checkSpend(s, { maxSpend: 1000 })[0]).toMatch(/^a: no quoted price at preview/);
    expect(checkSpend(s, { maxSpend: 1000, allowUnpriced: true })).toEqual([]);
  });
});

describe("step adapters", () => {
  const u = urn("site");

  it("reads `pulumi preview --json` steps: old outputs, new inputs, retainOnDelete", () => {
    const steps = fromPreviewJson({
      steps: [
        { op: "create", urn: u, newState: { type: ORDER_TYPE, inputs: { quotedPrice: "1.00" }, outputs: { quotedPrice: "1.00" } } },
        { op: "delete", urn: u, oldState: { type: ORDER_TYPE, outputs: { orderNo: "CERT1" }, inputs: { domain: "d" }, retainOnDelete: true } },
        { op: "same", urn: "not a step" },
        "junk",
      ],
    });
    expect(steps).toEqual([
      { op: "create", urn: u, type: ORDER_TYPE, old: undefined, new: { quotedPrice: "1.00" }, retainOnDelete: false },
      { op: "delete", urn: u, type: ORDER_TYPE, old: { orderNo: "CERT1" }, new: undefined, retainOnDelete: true },
      { op: "same", urn: "not a step", type: "", old: undefined, new: undefined, retainOnDelete: false },
    ]);
    expect(fromPreviewJson({})).toEqual([]);
    expect(fromPreviewJson(null)).toEqual([]);
  });

  it("reads Automation API engine events", () => {
    const steps = fromEngineEvents([
      { sequence: 1, timestamp: 0, preludeEvent: { config: {} } },
      { sequence: 2, timestamp: 0, resourcePreEvent: { metadata: { op: "delete-replaced", urn: u, type: ORDER_TYPE, old: { outputs: { orderNo: "CERT1" }, inputs: {} } } } },
    ]);
    expect(steps).toEqual([{ op: "delete-replaced", urn: u, type: ORDER_TYPE, old: { orderNo: "CERT1" }, new: undefined, retainOnDelete: false }]);
  });
});
