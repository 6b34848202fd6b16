// The one "are we under CI" of the test suites (tests/support/ci.ts): the
// usual truthy forms of CI count, so a runner with CI=1 fails on a missing
// prerequisite instead of skipping the files that need it.
import { describe, expect, it } from "vitest";
import { skipWithout, underCi } from "../../../tests/support/ci.js";

describe("underCi", () => {
  it("takes true, 1 and yes in any case; not false, 0, no, empty or unset", () => {
    for (const CI of ["true", "TRUE", "True", "1", "yes", "YES", " true "]) expect(underCi({ CI }), CI).toBe(true);
    for (const CI of ["false", "FALSE", "0", "no", "", " "]) expect(underCi({ CI }), JSON.stringify(CI)).toBe(false);
    expect(underCi({})).toBe(false);
  });
});

describe("skipWithout", () => {
  it("runs a file whose prerequisite is there, skips it outside CI, and fails it under CI", () => {
    expect(skipWithout(undefined, { CI: "1" })).toBe(false);
    expect(skipWithout("no BIND 9", {})).toBe(true);
    expect(() => skipWithout("no BIND 9", { CI: "1" })).toThrow(/^no BIND 9 \(under CI a missing prerequisite fails the run instead of skipping\)$/);
    expect(() => skipWithout("no BIND 9", { CI: "yes" })).toThrow(/no BIND 9/);
  });
});
