// A failure after payment does not taint, for OpenTofu and Terraform:
// ApplySign failing at the sandbox leaves the apply with a warning and the
// paid order in state, not tainted (a tainted Order is replaced: a refund
// and a second purchase). The next plan shows an update, not a replace; the
// next apply resumes the order (ApplySign) with CreateOrder still 1.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOL_NAMES } from "../../../scripts/terraform/index.js";
import { ordersFor } from "../harness/kill-points.js";
import { providedTerraform, shownResources, type TerraformWorld } from "./harness.js";
import { siteProgram } from "./programs.js";
import { sandboxWorld, useSandbox } from "./stack.js";

const terraform = providedTerraform();

describe.skipIf(!terraform)("a failure after payment does not taint", () => {
  const sandbox = useSandbox();

  const count = async (operation: string) => (await sandbox().management.requests()).filter((r) => r.operation === operation).length;

  describe.each(TOOL_NAMES)("%s", (name) => {
    const domain = `applysign.${name}.e2e.example.com`;
    const vars = ["-var", `domain=${domain}`];
    let world: TerraformWorld;

    beforeAll(async () => {
      world = sandboxWorld(terraform!, name, sandbox(), { "main.tf": siteProgram(terraform!.providerVersion, { certificate: false }) });
      await world.init();
      await sandbox().management.clearRequests();
    });

    afterAll(async () => {
      await sandbox().management.clearFaults();
      if (world?.state()?.resources?.length) await world.destroy(vars, { allowFailure: true });
      world?.dispose();
    });

    it("ApplySign failing: the apply warns, the order is in state and not tainted", async () => {
      await sandbox().management.setFaults({ ApplySign: { errorRate: 1, errorCode: 500 } });
      const applied = await world.apply(vars, { allowFailure: true });
      const output = applied.stdout + applied.stderr;
      await sandbox().management.clearFaults();
      const orders = await ordersFor(sandbox(), domain);
      expect(orders).toHaveLength(1);
      // A warning, not an error: Terraform saves an errored create as tainted.
      expect(applied.code, output).toBe(0);
      expect(output).toMatch(/Warning: .*bought and kept in state, but a later step failed/);
      expect(output).toContain("does NOT buy again");
      expect(output).toMatch(/ApplySign/);
      const order = shownResources(await world.show())["certreseller_order.site"];
      expect(order?.values.order_no).toBe(orders[0]!.orderNo);
      expect(order?.tainted ?? false).toBe(false);
      expect(JSON.stringify(world.state())).not.toMatch(/"status":\s*"tainted"/);
      expect(await count("CreateOrder")).toBe(1);
    });

    it("the next plan shows an update, not a replace, and buys nothing", async () => {
      const plan = await world.planJson(vars);
      const changes = (plan.resource_changes as { address: string; change: { actions: string[] } }[]).filter((c) => c.address === "certreseller_order.site");
      expect(changes.map((c) => c.change.actions)).toEqual([["update"]]);
      expect(await count("CreateOrder")).toBe(1);
    });

    it("the next apply resumes it: ApplySign again, CreateOrder still 1", async () => {
      const [before] = await ordersFor(sandbox(), domain);
      const signsBefore = await count("ApplySign");
      await world.apply(vars);
      expect(await count("CreateOrder")).toBe(1);
      expect(await count("ApplySign")).toBe(signsBefore + 1);
      const [after, ...others] = await ordersFor(sandbox(), domain);
      expect(others).toEqual([]);
      expect(after!.orderNo).toBe(before!.orderNo);
      expect((await sandbox().management.order(after!.orderNo)).certStatus).not.toBe(0);
      const again = await world.plan([...vars, "-detailed-exitcode"], { allowFailure: true });
      expect(again.code, again.stdout + again.stderr).toBe(0);
    });

    it("destroy refunds it", async () => {
      await world.destroy(vars);
      const [order] = await ordersFor(sandbox(), domain);
      expect(order?.orderStatusLabel).toBe("refunded");
      expect(await count("CreateOrder")).toBe(1);
    });
  });
});
