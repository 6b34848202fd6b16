import { describe, expect, it } from "vitest";
import { caBrowserMaxDays, nextNotAfterAtLeast, renewalConfigured, windowOpensAt } from "../../src/rules/lifetime.js";

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const DAY = 86_400_000;

describe("CA/Browser Forum SC-081v3 lifetimes", () => {
  it("398 days before 2026-03-15, then 200, 100 and 47 days from the step dates (00:00 UTC)", () => {
    expect(caBrowserMaxDays(new Date("2026-03-14T23:59:59Z"))).toBe(398);
    expect(caBrowserMaxDays(new Date("2026-03-15T00:00:00Z"))).toBe(200);
    expect(caBrowserMaxDays(new Date("2026-11-23T00:00:00Z"))).toBe(200);
    expect(caBrowserMaxDays(new Date("2027-03-14T23:59:59Z"))).toBe(200);
    expect(caBrowserMaxDays(new Date("2027-03-15T00:00:00Z"))).toBe(100);
    expect(caBrowserMaxDays(new Date("2029-03-14T12:00:00Z"))).toBe(100);
    expect(caBrowserMaxDays(new Date("2029-03-15T00:00:00Z"))).toBe(47);
  });
});

describe("renewal window", () => {
  // A 200-day certificate issued 2026-11-23.
  const life = { notBefore: "2026-11-23T00:00:00.000Z", notAfter: "2027-06-11T00:00:00.000Z" };

  it("days: notAfter minus the days", () => {
    expect(iso(windowOpensAt(life, { renewBeforeDays: 30 }))).toBe("2027-05-12T00:00:00.000Z");
    expect(iso(windowOpensAt(life, { renewBeforeDays: 0 }))).toBe(life.notAfter);
  });

  it("percentage: the share of the lifetime left, as cert-manager's renewBeforePercentage", () => {
    // 200 days × 25 % = 50 days before notAfter.
    expect(iso(windowOpensAt(life, { renewBeforePercentage: 25 }))).toBe("2027-04-22T00:00:00.000Z");
    // Without notBefore the lifetime is not known: no window from the percentage alone.
    expect(windowOpensAt({ notAfter: life.notAfter }, { renewBeforePercentage: 25 })).toBeUndefined();
  });

  it("both: the earlier window wins", () => {
    expect(iso(windowOpensAt(life, { renewBeforeDays: 30, renewBeforePercentage: 25 }))).toBe("2027-04-22T00:00:00.000Z");
    expect(iso(windowOpensAt(life, { renewBeforeDays: 60, renewBeforePercentage: 25 }))).toBe("2027-04-12T00:00:00.000Z");
  });

  it("the term's end caps the anchor: a last certificate past the term renews before the term ends", () => {
    expect(iso(windowOpensAt({ ...life, termEndsAt: "2027-06-01T00:00:00.000Z" }, { renewBeforeDays: 30 }))).toBe("2027-05-02T00:00:00.000Z");
    expect(iso(windowOpensAt({ ...life, termEndsAt: "2027-11-23T00:00:00.000Z" }, { renewBeforeDays: 30 }))).toBe("2027-05-12T00:00:00.000Z");
  });

  it("no setting, or an unreadable date: no window", () => {
    expect(windowOpensAt(life, {})).toBeUndefined();
    expect(windowOpensAt({ notAfter: "soon" }, { renewBeforeDays: 30 })).toBeUndefined();
    expect(renewalConfigured({})).toBe(false);
    expect(renewalConfigured({ renewBeforePercentage: 10 })).toBe(true);
  });

  it("the next certificate's notAfter lower bound: min(previous lifetime, CA/B limit on the submission date, the term's end)", () => {
    const before = Date.parse("2027-03-01T00:00:00Z");
    expect(iso(nextNotAfterAtLeast(before, 200 * DAY))).toBe(iso(before + 200 * DAY));
    const after = Date.parse("2027-05-22T00:00:00Z");
    expect(iso(nextNotAfterAtLeast(after, 200 * DAY))).toBe(iso(after + 100 * DAY));
    expect(iso(nextNotAfterAtLeast(after, 200 * DAY, "2027-06-01T00:00:00.000Z"))).toBe("2027-06-01T00:00:00.000Z");
  });
});
