import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/index.js";
import { call, ok, withSandbox } from "../support/sandbox.js";

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await withSandbox();
});
afterAll(() => sb.stop());

describe("GetUserData", () => {
  it("never shows the API secret", async () => {
    const d = await ok(sb, "GetUserData");
    expect(JSON.stringify(d)).not.toContain(sb.accounts[0]!.apiKey.split(":")[1]);
  });
});

describe("GetUserProduct", () => {
  it("covers the seven domain types of spec 2.3 and DV, OV and EV, with per-term prices as numbers", async () => {
    const d = await ok(sb, "GetUserProduct");
    const items = d.products.items as any[];
    expect(new Set(items.map((p) => p.domain_type_code))).toEqual(new Set(["single", "wildcard", "multiple-single", "multiple-wildcard", "multiple-mix", "ipv4", "ipv6"]));
    expect(new Set(items.map((p) => p.verification_type_code))).toEqual(new Set(["dv", "ov", "ev"]));
    expect(new Set(items.map((p) => p.brand_code)).size).toBeGreaterThanOrEqual(3);
    const codes = Object.fromEntries(items.map((p) => [p.product_code, p.domain_type_code]));
    expect(codes).toMatchObject({
      "sandbox-dv-single": "single", "sandbox-dv-multi": "multiple-single", "sandbox-dv-wildcard": "wildcard",
      "sandbox-dv-multi-wildcard": "multiple-wildcard", "sandbox-dv-flex": "multiple-mix", "sandbox-dv-ip": "ipv4", "sandbox-dv-ipv6": "ipv6",
    });
    const multi = items.find((p) => p.product_code === "sandbox-dv-multi");
    expect(multi).toMatchObject({ product_type_code: "ssl", max_single_domains: 10, max_domains: 10, max_wildcards: 0, base_price: 100, san_price: 20 });
    expect(multi.valid_years.map((v: any) => v.months)).toEqual([12, 24, 36]);
    expect(multi.valid_years[0]).toEqual({ years: 1, months: 12, price: 100, price_source: "default", san_price: 20, wildcard_price: 0 });
    expect(multi.signature_algorithms.map((a: any) => a.code)).toEqual(["rsa", "ecc"]);
    // The list has no field for a product's methods: the sandbox keeps them internal.
    for (const p of items) for (const k of Object.keys(p)) expect(k).not.toMatch(/method|product_id/);
    expect(d.user.username).toBe("acme-ops");
  });

  it("filters by domain_type, brand_code, verification_type, fuzzy product_name and exact product_code", async () => {
    const by = async (f: Record<string, unknown>) => (await ok(sb, "GetUserProduct", f)).products;
    const wildcard = await by({ domain_type: "wildcard" });
    expect(wildcard.total).toBeGreaterThan(0);
    expect(wildcard.items.every((p: any) => p.domain_type_code === "wildcard")).toBe(true);
    expect((await by({ domain_type: "ipv6" })).items.map((p: any) => p.product_code)).toEqual(["sandbox-dv-ipv6"]);
    expect((await by({ brand_code: "exampleca" })).items.every((p: any) => p.brand_code === "exampleca")).toBe(true);
    const ev = await by({ verification_type: "ev" });
    expect(ev.total).toBe(2);
    expect((await by({ product_name: "multi-DOMAIN" })).items.map((p: any) => p.product_code)).toContain("sandbox-dv-multi");
    expect((await by({ product_code: "sandbox-dv-multi" })).total).toBe(1);
    expect((await by({ product_code: "sandbox-dv" })).total).toBe(0);
    // Empty filters are no filters.
    expect((await by({ domain_type: "", product_code: "" })).total).toBe((await by({})).total);
  });

  it("pages with page/limit and reports total_pages; limit above 500 is refused", async () => {
    const all = (await ok(sb, "GetUserProduct")).products;
    expect(all).toMatchObject({ page: 1, limit: 100, total_pages: 1 });
    const p1 = (await ok(sb, "GetUserProduct", { limit: 4 })).products;
    const p2 = (await ok(sb, "GetUserProduct", { limit: 4, page: 2 })).products;
    expect(p1.total_pages).toBe(Math.ceil(all.total / 4));
    expect(p1.items).toHaveLength(4);
    expect(p2.items[0].product_code).toBe(all.items[4].product_code);
    const far = (await ok(sb, "GetUserProduct", { limit: 4, page: 99 })).products;
    expect(far.items).toEqual([]);
    const bad = await call(sb, "GetUserProduct", { limit: 501 });
    expect(bad.code).toBe(400);
    expect(bad.data.field).toBe("limit");
    expect((await call(sb, "GetUserProduct", { page: 0 })).data.field).toBe("page");
  });
});
