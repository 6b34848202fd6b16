/**
 * The money of a saved Terraform/OpenTofu plan: `fromTerraformPlan` on
 * `tofu show -json` documents captured from real plans against the sandbox
 * (fixtures/terraform/, written by tests/e2e/terraform/plan-money.test.ts
 * with PLAN_MONEY_FIXTURES set), the same `summarize` and `checkSpend` the
 * Pulumi preview goes through, and the command's `--terraform` mode.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cmd/certreseller-preview-money.js";
import { fromTerraformPlan } from "../../src/money/steps.js";
import { TERRAFORM_ORDER_TYPE, checkSpend, summarize } from "../../src/money/summary.js";
import { typeName } from "../../src/terraform/names.js";

const FIXTURES = path.join(__dirname, "fixtures", "terraform");
const fixture = (name: string): string => path.join(FIXTURES, `${name}.json`);
const shown = (name: string): unknown => JSON.parse(fs.readFileSync(fixture(name), "utf8"));
/** A day after the fixtures' purchases (2026-11-28 17:09 UTC): inside the 7-day refund window. */
const INSIDE_WINDOW = new Date("2026-11-29T12:00:00Z");
const PAST_WINDOW = new Date("2026-12-10T12:00:00Z");

describe("a saved plan's show -json, captured from OpenTofu", () => {
  it("names the Order's type as the provider serves it", () => {
    expect(typeName("Order")).toBe(TERRAFORM_ORDER_TYPE);
  });

  it("a plan that buys: each create at its quoted_price, named by address", () => {
    const summary = summarize(fromTerraformPlan(shown("create")), INSIDE_WINDOW);
    expect(summary.buys).toEqual([
      { name: "certreseller_order.multi", price: 120 },
      { name: "certreseller_order.site", price: 100 },
    ]);
    expect(summary).toMatchObject({ spend: 220, refunds: 0, cancels: [], resumes: [], unpriced: [] });
    expect(checkSpend(summary, { maxSpend: 219.99 })).toEqual([
      "this update buys 220.00, above the cap of 219.99 (certreseller_order.multi 120.00, certreseller_order.site 100.00)",
    ]);
    expect(checkSpend(summary, { maxSpend: 220 })).toEqual([]);
  });

  it("a replacement (delete, create) is a purchase that replaces the order and a refund of what it paid; a no-op moves nothing", () => {
    const summary = summarize(fromTerraformPlan(shown("replace")), INSIDE_WINDOW);
    expect(summary.buys).toEqual([{ name: "certreseller_order.multi", price: 120, replaces: "CERT202611281709010251" }]);
    expect(summary.cancels).toEqual([
      { name: "certreseller_order.multi", orderNo: "CERT202611281709010251", paid: 120, refundUntil: new Date("2026-12-05T17:09:01.489Z"), refund: "refund" },
    ]);
    expect(summary).toMatchObject({ spend: 120, refunds: 120 });
  });

  it("a destroy plan refunds within the window, and not past it", () => {
    const inside = summarize(fromTerraformPlan(shown("destroy")), INSIDE_WINDOW);
    expect(inside.buys).toEqual([]);
    expect(inside.cancels.map((c) => [c.name, c.paid, c.refund])).toEqual([
      ["certreseller_order.multi", 120, "refund"],
      ["certreseller_order.site", 100, "refund"],
    ]);
    expect(inside).toMatchObject({ spend: 0, refunds: 220 });
    const past = summarize(fromTerraformPlan(shown("destroy")), PAST_WINDOW);
    expect(past.cancels.map((c) => c.refund)).toEqual(["no-refund", "no-refund"]);
    expect(past.refunds).toBe(0);
  });

  it("a create whose order_no is planned known resumes the journaled order: no charge, whatever quoted_price says", () => {
    const summary = summarize(fromTerraformPlan(shown("resume")), INSIDE_WINDOW);
    expect(summary.resumes).toEqual([{ name: "certreseller_order.third", orderNo: "CERT202611281709510255" }]);
    expect(summary).toMatchObject({ buys: [], maybeBuys: [], spend: 0 });
    expect(checkSpend(summary, { maxSpend: 0 })).toEqual([]);
  });
});

describe("what a saved plan can say beyond the captured ones", () => {
  const plan = (changes: unknown[]) => ({ format_version: "1.2", planned_values: {}, resource_changes: changes });
  const order = (address: string, actions: string[], before: unknown, after: unknown, afterUnknown: unknown = {}, extra: Record<string, unknown> = {}) => ({
    address,
    mode: "managed",
    type: "certreseller_order",
    name: address.split(".")[1],
    change: { actions, before, after, after_unknown: afterUnknown },
    ...extra,
  });
  const held = { order_no: "CERT1", price: { total: "100.00" }, paid_at: "2026-11-28T10:00:00Z", quoted_price: "100.00" };

  it("create before destroy (create, delete) is the same purchase and refund", () => {
    const s = summarize(fromTerraformPlan(plan([order("certreseller_order.a", ["create", "delete"], held, { quoted_price: "90.00" }, { order_no: true })])), INSIDE_WINDOW);
    expect(s.buys).toEqual([{ name: "certreseller_order.a", price: 90, replaces: "CERT1" }]);
    expect(s.cancels.map((c) => c.orderNo)).toEqual(["CERT1"]);
  });

  it("a quoted_price unknown at plan is unpriced, and the cap refuses it unless allowed", () => {
    const s = summarize(fromTerraformPlan(plan([order("certreseller_order.a", ["create"], null, {}, { quoted_price: true, order_no: true })])), INSIDE_WINDOW);
    expect(s.buys).toEqual([{ name: "certreseller_order.a", price: undefined }]);
    expect(checkSpend(s, { maxSpend: 1000 })[0]).toMatch(/certreseller_order\.a: no quoted price at preview/);
    expect(checkSpend(s, { maxSpend: 1000, allowUnpriced: true })).toEqual([]);
  });

  it("an adopt_order_no unknown at plan may buy: counted at its quoted price; a known one adopts", () => {
    const s = summarize(
      fromTerraformPlan(
        plan([
          order("certreseller_order.maybe", ["create"], null, { quoted_price: "900.00" }, { adopt_order_no: true, order_no: true }),
          order("certreseller_order.known", ["create"], null, { quoted_price: "0.00", adopt_order_no: "CERT9" }, { order_no: true }),
        ]),
      ),
      INSIDE_WINDOW,
    );
    expect(s.maybeBuys).toEqual([{ name: "certreseller_order.maybe", price: 900 }]);
    expect(s.adopts).toEqual([{ name: "certreseller_order.known", orderNo: "CERT9" }]);
    expect(s.spend).toBe(900);
  });

  it("forget (a removed block with destroy = false) releases without a refund; a deposed object's delete is named apart", () => {
    const s = summarize(
      fromTerraformPlan(plan([order("certreseller_order.a", ["forget"], held, null), order("certreseller_order.b", ["delete"], { ...held, order_no: "CERT2" }, null, {}, { deposed: "00ab" })])),
      INSIDE_WINDOW,
    );
    expect(s.releases).toEqual([{ name: "certreseller_order.a", orderNo: "CERT1" }]);
    expect(s.cancels.map((c) => [c.name, c.orderNo])).toEqual([["certreseller_order.b (deposed object 00ab)", "CERT2"]]);
  });

  it("updates, no-ops, reads, data sources and other types move no money", () => {
    const s = summarize(
      fromTerraformPlan(
        plan([
          order("certreseller_order.a", ["update"], held, held),
          order("certreseller_order.b", ["no-op"], held, held),
          { ...order("data.certreseller_order.c", ["read"], null, {}), mode: "data" },
          { ...order("certreseller_certificate.d", ["create"], null, { quoted_price: "5.00" }), type: "certreseller_certificate" },
        ]),
      ),
      INSIDE_WINDOW,
    );
    expect(s).toMatchObject({ buys: [], cancels: [], releases: [], spend: 0 });
  });

  it("refuses what is not a saved plan's show -json, saying what it is", () => {
    expect(() => fromTerraformPlan({ resource_changes: [] })).toThrow(/not a saved Terraform plan: .*no format_version/);
    expect(() => fromTerraformPlan({ format_version: "1.0", values: {} })).toThrow(/it is a state, not a plan/);
    expect(() => fromTerraformPlan({ format_version: "1.2", planned_values: {}, errored: true })).toThrow(/the plan errored/);
    expect(fromTerraformPlan({ format_version: "1.2", planned_values: {} })).toEqual([]);
  });
});

describe("certreseller-preview-money --terraform", () => {
  const env = { CERTRESELLER_NOW: "2026-11-29T12:00:00Z" };

  it("prints the summary of a saved plan and exits 1 above --max-spend, naming the purchases", async () => {
    const outcome = await run(["--terraform", "--input", fixture("create"), "--max-spend", "150"], env);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe(
      [
        "This update buys 2 certificates (220.00), cancels nothing.",
        "  buy     certreseller_order.multi: 120.00",
        "  buy     certreseller_order.site: 100.00",
        "",
      ].join("\n"),
    );
    expect(outcome.stderr).toBe(
      "certreseller-preview-money: spend cap exceeded: this update buys 220.00, above the cap of 150.00 (certreseller_order.multi 120.00, certreseller_order.site 100.00)\n",
    );
  });

  it("within the cap: exit 0, refunds with their deadline", async () => {
    const outcome = await run(["--terraform", "--input", fixture("replace"), "--max-spend", "120"], env);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain("This update buys 1 certificate (120.00), cancels 1 (refund 120.00 if run before 2026-12-05 17:09 UTC).");
    expect(outcome.stdout).toContain("  buy     certreseller_order.multi: 120.00 (replaces order CERT202611281709010251)");
  });

  it("a resume passes a cap of 0", async () => {
    const outcome = await run(["--terraform", "--input", fixture("resume"), "--max-spend", "0"], env);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain("resume  certreseller_order.third: order CERT202611281709510255 from the purchase journal");
  });

  it("exits 2 naming what is wrong with the input or the arguments", async () => {
    const state = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tf-money-")), "state.json");
    fs.writeFileSync(state, JSON.stringify({ format_version: "1.0", values: { root_module: {} } }));
    expect(await run(["--terraform", "--input", state], env)).toMatchObject({ code: 2, stderr: expect.stringContaining("it is a state, not a plan") });
    const zip = state.replace("state.json", "tfplan");
    fs.writeFileSync(zip, "PK\u0003\u0004 not json");
    expect(await run(["--terraform", "--input", zip], env)).toMatchObject({ code: 2, stderr: expect.stringContaining("this looks like the plan file itself") });
    expect(await run(["--terraform", "--input", zip, "--", "-var", "x=1"], env)).toMatchObject({ code: 2, stderr: expect.stringContaining("--terraform reads a plan's `show -json`") });
  });
});
