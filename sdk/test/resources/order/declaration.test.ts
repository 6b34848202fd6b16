/**
 * The Order's properties are declared once (src/resources/order/inputs.ts and
 * outputs.ts); `OrderArgs`, the class's outputs, the schema and the reference
 * table are generated from them (test/codegen checks they are current). What
 * the declaration itself must say is checked here.
 */
import { describe, expect, it } from "vitest";
import { ORDER } from "../../../src/resources/order/declaration.js";
import { INPUT_DECLARATIONS, REPLACE_KEYS, UPDATE_KEYS } from "../../../src/resources/order/inputs.js";
import { isInput, isOutput } from "../../../src/schema/property.js";
import { purchaseDigest } from "../../../src/journal/digest.js";
import { purchaseInputsOf } from "../../../src/resources/order/journal-entry.js";

describe("keys derived from the declaration", () => {
  it("update in place: the verification method only; replace: every purchase input", () => {
    expect(UPDATE_KEYS).toEqual(["verificationMethod"]);
    expect(REPLACE_KEYS).not.toContain("renewBeforeDays");
    expect(REPLACE_KEYS).toEqual(expect.arrayContaining(["productCode", "domain", "years", "months", "companyInfo", "adoptOrderNo"]));
  });
});

describe("the Order's declaration", () => {
  const properties = Object.entries(ORDER.properties);

  it("every input is an output too", () => {
    for (const [name, p] of properties) if (isInput(p)) expect(isOutput(p), name).toBe(true);
  });

  it("every input says what a change does; no output-only property does", () => {
    for (const [name, p] of properties) expect(p.change !== undefined, name).toBe(isInput(p));
  });

  it("each input has a rule (parse), and the rule table is the input table", () => {
    expect(INPUT_DECLARATIONS.map(([name]) => name)).toEqual(properties.filter(([, p]) => isInput(p)).map(([name]) => name));
    for (const [name, d] of INPUT_DECLARATIONS) expect(typeof d.parse, name).toBe("function");
  });

  it("every property has a description that ends a sentence", () => {
    for (const [name, p] of properties) expect(p.description, name).toMatch(/[.)]$/);
  });
});

describe("what reaches the service", () => {
  it("every purchase input is sent with CreateOrder (a purchase input the journal digests but the request leaves out would buy something else than declared)", () => {
    const purchase = INPUT_DECLARATIONS.filter(([name, d]) => d.change === "replace" && name !== "adoptOrderNo");
    expect(purchase.filter(([, d]) => d.sentAs === undefined).map(([name]) => name)).toEqual([]);
  });

  it("inputs that only steer the provider are never sent", () => {
    for (const name of ["renewBeforeDays", "renewBeforePercentage", "adoptOrderNo", "caaCheck", "caaIssuerDomains"] as const) {
      expect(INPUT_DECLARATIONS.find(([n]) => n === name)?.[1].sentAs, name).toBeUndefined();
    }
  });

  it("the CAA check's inputs are not part of the purchase: the journal's digest is the same with or without them", () => {
    const purchase = { productCode: "sandbox-dv-single", domain: "example.com", sanDomains: [], wildcardDomains: [], months: 12 };
    const withCaa = { ...purchase, caaCheck: false, caaIssuerDomains: ["sectigo.com"] };
    expect(purchaseDigest(withCaa, purchaseInputsOf(withCaa))).toBe(purchaseDigest(purchase, purchaseInputsOf(purchase)));
    expect(REPLACE_KEYS).not.toEqual(expect.arrayContaining(["caaCheck"]));
    expect(REPLACE_KEYS).not.toEqual(expect.arrayContaining(["caaIssuerDomains"]));
  });
});
