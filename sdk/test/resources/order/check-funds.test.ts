import { describe, expect, it } from "vitest";
import { handlers } from "../../../src/resources/order/handlers.js";
import type { OrderInputs } from "../../../src/resources/order/inputs.js";
import { useHarness } from "./harness.js";

const h = useHarness({ accounts: [{ username: "thrifty", balance: "120.00", creditLine: "50.00" }] });

describe("Order check: can the account pay?", () => {
  it("warns (does not fail) when the quote exceeds what the chosen payment method has", async () => {
    h.lines.length = 0;
    const inputs = await h.plan({ productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["a.example.com", "b.example.com"] });
    expect(inputs.quotedPrice).toBe("140.00");
    expect(h.lines.join("\n")).toMatch(/this order costs 140.00 but the account has 120.00 available on its balance: `pulumi up` would be refused/);
  });
  it("says nothing for an existing order whose purchase is unchanged (olds are the old inputs)", async () => {
    const first = await h.plan({ productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["a.example.com", "b.example.com"] });
    h.lines.length = 0;
    const { __provider: _p, ...olds } = first;
    await handlers.check!(h.ctx, olds as OrderInputs, { ...olds, sanDomains: ["b.example.com", "a.example.com"] } as OrderInputs);
    expect(h.lines).toEqual([]);
    await handlers.check!(h.ctx, olds as OrderInputs, { ...olds, months: 24 } as OrderInputs);
    expect(h.lines.join("\n")).toMatch(/this order costs 266.00 but/);
  });

  it("compares against the credit line when paying by credit, and is silent when affordable", async () => {
    h.lines.length = 0;
    await h.plan({ productCode: "sandbox-dv-single", domain: "example.com", paymentMethod: "credit" });
    expect(h.lines.join("\n")).toMatch(/costs 100.00 but the account has 50.00 available on its credit line/);
    h.lines.length = 0;
    await h.plan({ productCode: "sandbox-dv-single", domain: "example.com" });
    expect(h.lines.filter((line) => line.startsWith("warn:"))).toEqual([]);
  });
});
