// A `terraform apply` SIGKILLed with its provider after CreateOrder answered
// and before ApplySign did, for OpenTofu and Terraform: the state knows
// nothing of the order, the purchase journal holds its number. The next
// `plan` says it resumes that order and buys nothing; the next `apply`
// takes it over and issues; one order in all, counted at the sandbox.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openJournal } from "../../../sdk/src/journal/index.js";
import { TOOL_NAMES } from "../../../scripts/terraform/index.js";
import { ordersFor } from "../harness/kill-points.js";
import { until } from "../harness/waiting.js";
import { providedTerraform, shownResources } from "./harness.js";
import { siteProgram } from "./programs.js";
import { sandboxWorld, useSandbox, type SandboxWorld } from "./stack.js";

const terraform = providedTerraform();
const APPLY_SIGN_LATENCY_MS = 20_000;

describe.skipIf(!terraform)("apply killed between CreateOrder and ApplySign", () => {
  const sandbox = useSandbox();

  describe.each(TOOL_NAMES)("%s", (name) => {
    const domain = `killed.${name}.e2e.example.com`;
    const vars = ["-var", `domain=${domain}`];
    let world: SandboxWorld;

    beforeAll(async () => {
      world = sandboxWorld(terraform!, name, sandbox(), { "main.tf": siteProgram(terraform!.providerVersion) });
      await world.init();
    });

    afterAll(async () => {
      await sandbox().management.clearFaults();
      if (world?.state()?.resources?.length) await world.destroy(vars, { allowFailure: true });
      world?.dispose();
    });

    it("the kill leaves the order in the journal and none in the state", async () => {
      await sandbox().management.setFaults({ ApplySign: { latencyMs: APPLY_SIGN_LATENCY_MS } });
      const apply = world.startApply(vars);
      const journaled = async () => (await openJournal({ journalDir: world.journalDir }).list()).some((e) => e.entry?.orderNo !== undefined);
      await Promise.race([
        // The sandbox stores the order before its answer reaches the provider: wait for the number in the journal.
        until("the order number is journaled", async () => (await ordersFor(sandbox(), domain)).length > 0 && (await journaled()), 120_000),
        apply.exited.then(() => {
          throw new Error(`the apply finished before the kill point:\n${apply.output()}`);
        }),
      ]);
      const killed = apply.kill();
      expect((await apply.exited).signal).toBe("SIGKILL");
      expect(killed.length, "the CLI and its provider process").toBeGreaterThan(1);
      await sandbox().management.clearFaults();
      expect(await ordersFor(sandbox(), domain)).toHaveLength(1);
      expect(world.state()?.resources ?? []).toEqual([]);
    });

    it("the next plan resumes the journaled order and buys nothing", async () => {
      const [order] = await ordersFor(sandbox(), domain);
      const { stdout } = await world.plan(vars);
      expect(stdout).toContain(`will resume order ${order!.orderNo}`);
      expect(stdout).not.toMatch(/will buy/);
      expect(await ordersFor(sandbox(), domain)).toHaveLength(1);
    });

    it("the next apply takes the order over and issues: one order in all", async () => {
      const [order] = await ordersFor(sandbox(), domain);
      await world.apply(vars);
      const shown = shownResources(await world.show());
      expect(shown["certreseller_order.site"].values.order_no).toBe(order!.orderNo);
      expect(String(shown["certreseller_certificate.site"].values.full_chain_pem)).toContain("BEGIN CERTIFICATE");
      expect(await ordersFor(sandbox(), domain)).toHaveLength(1);
    });

    it("destroy refunds it", async () => {
      await world.destroy(vars);
      const orders = await ordersFor(sandbox(), domain);
      expect(orders).toHaveLength(1);
      expect(orders[0]!.orderStatusLabel).toBe("refunded");
    });
  });
});
