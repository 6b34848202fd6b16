/**
 * A property declared without a parse rule is held to its declared type, so
 * a new input is checked the moment it is declared (a plain-JavaScript or
 * YAML program may send any value).
 */
import { describe, expect, it } from "vitest";
import { checkInputs } from "../../src/resources/shared/inputs.js";
import * as t from "../../src/schema/property.js";

describe("parseByType", () => {
  const cases: [t.SchemaType, unknown, string | undefined][] = [
    [t.string, "a", undefined],
    [t.string, 7, "x must be a string, not 7"],
    [t.integer, 3, undefined],
    [t.integer, 1.5, "x must be a whole number, not 1.5"],
    [t.number, Number.NaN, "x must be a number, not null"],
    [t.boolean, "true", 'x must be true or false, not "true"'],
    [t.enumOf("Color", ["red", "blue"], "a colour"), "green", 'x must be one of red, blue, not "green"'],
    [t.listOf(t.string), ["a", 1], 'x must be a list whose every item is a string, not ["a",1]'],
    [t.mapOf(t.integer), { a: 1, b: "2" }, 'x must be a map whose every value is a whole number, not {"a":1,"b":"2"}'],
    [t.anyValue, { anything: [1] }, undefined],
  ];
  for (const [type, value, reason] of cases) {
    it(`${JSON.stringify(type)} ${JSON.stringify(value)}`, () => {
      const parsed = t.parseByType(type, value, "x");
      if (reason === undefined) expect(parsed).toEqual({ value });
      else expect(parsed.failures).toEqual([{ property: "x", reason }]);
    });
  }

  it("never quotes a secret's value, only its kind", () => {
    const declared = { description: "A password.", type: t.string, secret: true } as const;
    expect(t.parseDeclared(declared, 12345678, "pfxPassword").failures).toEqual([{ property: "pfxPassword", reason: "pfxPassword must be a string, not a number" }]);
    expect(t.parseDeclared(declared, ["hunter2"], "pfxPassword").failures?.[0]!.reason).not.toContain("hunter2");
  });

  it("is what checkInputs applies to a declared input without a parse rule", () => {
    const table = { label: { description: "A label.", type: t.string, change: "update" } } as const satisfies t.PropertyTable;
    expect(checkInputs(table, { label: 7 }).failures).toEqual([{ property: "label", reason: "label must be a string, not 7" }]);
    expect(checkInputs(table, { label: "ok" }).values).toEqual({ label: "ok" });
  });
});
