/** The one reading of an Order's cost, shared by the spend summary and the policy pack. */
import { describe, expect, it } from "vitest";
import { parseMoney, readOrderMoney } from "../../src/money/order-money.js";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Props that throw like the policy analyzer's proxy when `key` is read. */
function analyzerProps(values: Record<string, unknown>, unknownKey: string): Record<string, unknown> {
  class UnknownValueError extends Error {}
  return new Proxy(values, {
    get(target, key) {
      if (key === unknownKey) throw new UnknownValueError(`string value at .${unknownKey} can't be known during preview`);
      return target[key as string];
    },
  });
}

describe("readOrderMoney", () => {
  it("a plain Order buys at its quoted price, else at the recorded price.total", () => {
    expect(readOrderMoney({ quotedPrice: "140.00" })).toEqual({ kind: "buys", price: 140 });
    expect(readOrderMoney({ price: { total: "80.00" } })).toEqual({ kind: "buys", price: 80 });
    expect(readOrderMoney({ quotedPrice: UNKNOWN })).toEqual({ kind: "buys", price: undefined });
    expect(readOrderMoney(undefined)).toEqual({ kind: "buys", price: undefined });
  });

  it("a known adoptOrderNo, or `adopted` in the state, adopts", () => {
    expect(readOrderMoney({ adoptOrderNo: "CERT9", quotedPrice: "0.00" })).toEqual({ kind: "adopts", price: 0, orderNo: "CERT9" });
    expect(readOrderMoney({ adopted: true, price: { total: "80.00" } })).toEqual({ kind: "adopts", price: 80 });
    expect(readOrderMoney({ adoptOrderNo: "", quotedPrice: "10" }).kind).toBe("buys");
  });

  it("an adoptOrderNo unknown at preview may buy, in either shape the unknown arrives", () => {
    expect(readOrderMoney({ adoptOrderNo: UNKNOWN, quotedPrice: "900.00" })).toEqual({ kind: "maybe-buys", price: 900 });
    expect(readOrderMoney(analyzerProps({ quotedPrice: "900.00" }, "adoptOrderNo"))).toEqual({ kind: "maybe-buys", price: 900 });
  });

  it("an unknown read through the analyzer's proxy is unknown, other errors are not swallowed", () => {
    expect(readOrderMoney(analyzerProps({ price: { total: "80.00" } }, "quotedPrice"))).toEqual({ kind: "buys", price: 80 });
    const broken = new Proxy(
      {},
      {
        get() {
          throw new TypeError("boom");
        },
      },
    );
    expect(() => readOrderMoney(broken)).toThrow("boom");
  });
});

describe("parseMoney", () => {
  it("reads decimal strings and finite numbers, nothing else", () => {
    expect(parseMoney("199.00")).toBe(199);
    expect(parseMoney(12.5)).toBe(12.5);
    expect(parseMoney(Number.NaN)).toBeUndefined();
    expect(parseMoney(UNKNOWN)).toBeUndefined();
    expect(parseMoney("[secret]")).toBeUndefined();
  });
});
