// `terraform import` of an Order the state lost (`state rm`), for OpenTofu
// and Terraform: the order is adopted, nothing is bought; the next plan only
// updates in place (the imported Order has no `adopt_order_no` in the
// configuration, its Certificate no request id), the apply buys nothing, and
// the plan after it has no changes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOL_NAMES } from "../../../scripts/terraform/index.js";
import { ordersFor } from "../harness/kill-points.js";
import { providedTerraform, shownResources, type TerraformWorld } from "./harness.js";
import { siteProgram } from "./programs.js";
import { sandboxWorld, useSandbox } from "./stack.js";

const terraform = providedTerraform();

describe.skipIf(!terraform)("import of an Order the state lost", () => {
  const sandbox = useSandbox();

  describe.each(TOOL_NAMES)("%s", (name) => {
    const domain = `imported.${name}.e2e.example.com`;
    const vars = ["-var", `domain=${domain}`];
    let world: TerraformWorld;
    let orderNo: string;

    beforeAll(async () => {
      world = sandboxWorld(terraform!, name, sandbox(), { "main.tf": siteProgram(terraform!.providerVersion) });
      await world.init();
      await world.apply(vars);
      orderNo = shownResources(await world.show())["certreseller_order.site"].values.order_no;
      await world.run(["state", "rm", "-no-color", "certreseller_order.site"]);
    });

    afterAll(async () => {
      if (world?.state()?.resources?.length) await world.destroy(vars, { allowFailure: true });
      world?.dispose();
    });

    it("import adopts the order and buys nothing", async () => {
      expect(shownResources(await world.show())["certreseller_order.site"]).toBeUndefined();
      await world.import("certreseller_order.site", orderNo, { env: { TF_VAR_domain: domain } });
      const order = shownResources(await world.show())["certreseller_order.site"];
      expect(order.values).toMatchObject({ order_no: orderNo, domain, adopted: true });
      expect(await ordersFor(sandbox(), domain)).toHaveLength(1);
    });

    it("the next plan only updates in place; its apply buys nothing; then no changes", async () => {
      const planned = await world.planJson(vars);
      const actions = planned.resource_changes.map((change: any) => change.change.actions.join(","));
      expect(actions.every((action: string) => action === "update" || action === "no-op"), actions.join(" ")).toBe(true);
      await world.apply(vars);
      expect(await ordersFor(sandbox(), domain)).toHaveLength(1);
      const again = await world.plan([...vars, "-detailed-exitcode"], { allowFailure: true });
      expect(again.code, again.stdout + again.stderr).toBe(0);
    });

    it("destroy refunds the imported order", async () => {
      await world.destroy(vars);
      const orders = await ordersFor(sandbox(), domain);
      expect(orders.map((o) => [o.orderNo, o.orderStatusLabel])).toEqual([[orderNo, "refunded"]]);
    });
  });
});
