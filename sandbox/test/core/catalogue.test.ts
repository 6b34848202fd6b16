import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/index.js";
import { call, ok, withSandbox } from "./helpers.js";

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await withSandbox();
});
afterAll(() => sb.stop());

describe("GetUserData", () => {
  it("reports the account with money as decimal strings and total = balance + available credit", async () => {
    const d = await ok(sb, "GetUserData");
    expect(d.user).toMatchObject({ username: "acme-ops", status: 1, balance: "5000.00", credit_limit: "2000.00", credit_used: "0.00", credit_available: "2000.00", total_available: "7000.00", currency: "CNY" });
    expect(d.api_key.status).toBe(1);
    expect(d.api_key.expires_at).toBeNull();
    expect(JSON.stringify(d)).not.toContain(sb.accounts[0]!.apiKey.split(":")[1]);
  });
});

describe("GetUserProduct", () => {
  it("covers all seven domain types and DV, OV and EV, with per-term prices and methods", async () => {
    const d = await ok(sb, "GetUserProduct");
    const items = d.products.items as any[];
    expect(new Set(items.map((p) => p.domain_type_code))).toEqual(new Set(["single", "multi", "wildcard", "multi_wildcard", "flex", "ip", "ip_multi"]));
    expect(new Set(items.map((p) => p.verification_type_code))).toEqual(new Set(["dv", "ov", "ev"]));
    expect(new Set(items.map((p) => p.brand_code)).size).toBeGreaterThanOrEqual(3);
    const multi = items.find((p) => p.product_code === "sandbox-dv-multi");
    expect(multi).toMatchObject({ product_type_code: "ssl", max_single_domains: 10, max_domains: 10, max_wildcards: 0, max_months_per_certificate: 12, requires_company: false, default_verification_method: "dns" });
    expect(multi.valid_years.map((v: any) => v.months)).toEqual([12, 24, 36]);
    expect(multi.valid_years[0]).toMatchObject({ years: 1, price: "100.00", san_price: "20.00", price_source: "default" });
    expect(multi.signature_algorithms.map((a: any) => a.code)).toEqual(["rsa", "ecc"]);
    expect(multi.verification_methods.map((m: any) => m.code)).toEqual(["dns", "cname", "file", "https", "email"]);
    expect(items.find((p) => p.domain_type_code === "ip").verification_methods.map((m: any) => m.code)).toEqual(["file"]);
    expect(d.user.username).toBe("acme-ops");
  });

  it("filters by domain_type, brand_code, verification_type, fuzzy product_name and exact product_code", async () => {
    const by = async (f: Record<string, unknown>) => (await ok(sb, "GetUserProduct", f)).products;
    expect((await by({ domain_type: "wildcard" })).items.every((p: any) => p.domain_type_code === "wildcard")).toBe(true);
    expect((await by({ brand_code: "exampleca" })).items.every((p: any) => p.brand_code === "exampleca")).toBe(true);
    const ev = await by({ verification_type: "ev" });
    expect(ev.total).toBe(2);
    expect((await by({ product_name: "multi-DOMAIN" })).items.map((p: any) => p.product_code)).toContain("sandbox-dv-multi");
    expect((await by({ product_code: "sandbox-dv-multi" })).total).toBe(1);
    expect((await by({ product_code: "sandbox-dv" })).total).toBe(0);
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
