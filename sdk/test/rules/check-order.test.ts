import { describe, expect, it } from "vitest";
import { checkOrder } from "../../src/rules/index.js";

describe("checkOrder without a product (catalogue unreachable)", () => {
  it("still refuses file validation of a wildcard", async () => {
    const { failures } = await checkOrder({ productCode: "p", domain: "*.example.com", verificationMethod: "https" }, undefined);
    expect(failures).toEqual([{ property: "verificationMethod", reason: expect.stringMatching(/"https" validation cannot prove control of a wildcard name/) }]);
  });
  it("quotes nothing and leaves the method unset", async () => {
    const { values, quote, failures } = await checkOrder({ productCode: "p", domain: "example.com" }, undefined);
    expect(failures).toEqual([]);
    expect(quote).toBeUndefined();
    expect(values.verificationMethod).toBeUndefined();
  });
});
