import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PartnerApiError } from "../../src/client/index.js";
import { toMoney } from "../../src/client/money.js";
import { DEFAULT_RETRY, MIN_RETRY_BUDGET_MS, nextRetryDelay, resolveRetryPolicy } from "../../src/client/retry.js";
import { encodeForm, encodeJson } from "../../src/client/encoding.js";

describe("toMoney", () => {
  it.each([
    ["199", "199.00"], ["199.5", "199.50"], ["199.50", "199.50"], ["0199.000", "199.00"], ["-0.00", "0.00"], ["-5.1", "-5.10"], ["0.1", "0.10"],
    [199, "199.00"], [0.1 + 0.2, "0.30"], [120.5, "120.50"], [-0, "0.00"], [19.9, "19.90"], [99_999_999_999.99, "99999999999.99"],
  ] as const)("%j → %s", (input, expected) => {
    expect(toMoney(input)).toBe(expected);
  });

  it.each(["1.005", "", "abc", "1e3", "1,00", "--1", Number.NaN, Number.POSITIVE_INFINITY, 1.005, 0.125, 199.999, 1e11])("refuses %j", (input) => {
    expect(toMoney(input)).toBeUndefined();
  });

  it("a decimal string with up to 2 places keeps its exact value (cents arithmetic, no float)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), fc.integer({ min: 0, max: 2 }), (cents, places) => {
        const abs = cents < 0n ? -cents : cents;
        const whole = abs / 100n;
        const frac = (abs % 100n).toString().padStart(2, "0");
        const text = `${cents < 0n ? "-" : ""}${whole}${places === 0 ? (frac === "00" ? "" : `.${frac}`) : `.${frac}`}`;
        const out = toMoney(text)!;
        const [w, f] = out.replace("-", "").split(".");
        const back = (BigInt(w!) * 100n + BigInt(f!)) * (out.startsWith("-") ? -1n : 1n);
        expect(back).toBe(cents);
        expect(out).toMatch(/^-?\d+\.\d{2}$/);
      }),
    );
  });
});

describe("nextRetryDelay", () => {
  const error = (init: Partial<ConstructorParameters<typeof PartnerApiError>[1]>) =>
    new PartnerApiError("x", { kind: "server", operation: "GetRecord", code: 500, mayHaveReachedServer: true, ...init });
  const policy = resolveRetryPolicy({ maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1_000, maxTotalMs: 10_000 });

  it("full jitter under an exponentially growing ceiling, capped by maxDelayMs", () => {
    const at = (attempt: number, r: number) => nextRetryDelay(policy, { error: error({}), attempt, elapsedMs: 0, changesState: false }, () => r);
    expect([1, 2, 3, 4].map((a) => at(a, 0.999_999))).toEqual([100, 200, 400, 800]);
    expect(at(1, 0)).toBe(0);
    expect(nextRetryDelay({ ...policy, maxAttempts: 10 }, { error: error({}), attempt: 8, elapsedMs: 0, changesState: false }, () => 0.999_999)).toBe(1_000);
  });

  it("retry_after is a floor; past the total budget the error is surfaced", () => {
    const e = error({ kind: "rate_limited", code: 429, retryAfter: 3 });
    expect(nextRetryDelay(policy, { error: e, attempt: 1, elapsedMs: 0, changesState: false }, () => 0.5)).toBe(3_000);
    expect(nextRetryDelay(policy, { error: e, attempt: 1, elapsedMs: 7_500, changesState: false }, () => 0.5)).toBeUndefined();
  });

  it("a retry needs MIN_RETRY_BUDGET_MS of the total budget left: none starts with a 1 ms timeout", () => {
    const at = (elapsedMs: number) => nextRetryDelay(policy, { error: error({ kind: "timeout", code: undefined }), attempt: 1, elapsedMs, changesState: false }, () => 0);
    expect(at(10_000 - MIN_RETRY_BUDGET_MS)).toBe(0);
    expect(at(10_000 - MIN_RETRY_BUDGET_MS + 1)).toBeUndefined();
    expect(at(9_999)).toBeUndefined();
  });

  it("state-changing operations: only when provably never sent", () => {
    expect(nextRetryDelay(policy, { error: error({}), attempt: 1, elapsedMs: 0, changesState: true })).toBeUndefined();
    const refused = error({ kind: "network", code: undefined, mayHaveReachedServer: false });
    expect(nextRetryDelay(policy, { error: refused, attempt: 1, elapsedMs: 0, changesState: true })).toBeTypeOf("number");
  });

  it("an HTTP error page (not the API): retried when 5xx, not when 4xx", () => {
    const page = (httpStatus: number) => error({ kind: "http_error", code: undefined, httpStatus });
    expect(nextRetryDelay(policy, { error: page(502), attempt: 1, elapsedMs: 0, changesState: false })).toBeTypeOf("number");
    expect(nextRetryDelay(policy, { error: page(404), attempt: 1, elapsedMs: 0, changesState: false })).toBeUndefined();
    expect(nextRetryDelay(policy, { error: page(502), attempt: 1, elapsedMs: 0, changesState: true })).toBeUndefined();
  });

  it("never for 4xx, malformed answers, aborts; never past maxAttempts", () => {
    for (const kind of ["invalid_request", "not_found", "malformed_response", "aborted", "invalid_argument"] as const) {
      expect(nextRetryDelay(policy, { error: error({ kind, code: 400 }), attempt: 1, elapsedMs: 0, changesState: false })).toBeUndefined();
    }
    expect(nextRetryDelay(policy, { error: error({}), attempt: 5, elapsedMs: 0, changesState: false })).toBeUndefined();
    expect(nextRetryDelay(policy, { error: error({ code: 1001 }), attempt: 1, elapsedMs: 0, changesState: false })).toBeUndefined();
  });

  it("retry: false means one attempt", () => {
    expect(resolveRetryPolicy(false)).toEqual({ ...DEFAULT_RETRY, maxAttempts: 1 });
  });
});

describe("body encoding", () => {
  it("form: repeated keys, brackets for nested objects, undefined omitted, escaping", () => {
    expect(encodeForm({ a: "x y&z", n: 3, list: ["p", "q"], obj: { k: "v=1" }, gone: undefined }).body).toBe(
      "a=x+y%26z&n=3&list=p&list=q&obj%5Bk%5D=v%3D1",
    );
  });
  it("json: native arrays and objects, undefined omitted", () => {
    expect(JSON.parse(encodeJson({ list: ["p"], obj: { k: "v" }, gone: undefined }).body)).toEqual({ list: ["p"], obj: { k: "v" } });
  });
});

describe("isPartnerApiError", () => {
  it("recognises errors from another copy of the package by brand, and filters by kind", async () => {
    const { PartnerApiError: Other } = await import("../../src/client/errors.js?copy" as string);
    const foreign = new (Other as typeof PartnerApiError)("x", { kind: "not_found", operation: "GetRecord", mayHaveReachedServer: true });
    const { isPartnerApiError } = await import("../../src/client/index.js");
    expect(foreign instanceof PartnerApiError).toBe(false); // really another copy: only the brand can tell
    expect(isPartnerApiError(foreign)).toBe(true);
    expect(isPartnerApiError(foreign, "not_found")).toBe(true);
    expect(isPartnerApiError(foreign, "server")).toBe(false);
    expect(isPartnerApiError(new Error("plain"))).toBe(false);
    expect(isPartnerApiError({ name: "PartnerApiError", kind: "server" })).toBe(false);
  });
});
