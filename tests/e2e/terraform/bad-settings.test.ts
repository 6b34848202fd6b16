// A wrong API key, and an HTML 404 page in front of the API (a misrouted
// base URL), for OpenTofu and Terraform, with an order held in state:
// `refresh`, `plan` and `destroy` each fail with an error saying what is wrong,
// the state keeps the order (a refused or misrouted read is never "the order
// is gone"), nothing is bought and nothing refunded. With the right settings
// again, the plan has no changes and `destroy` refunds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOL_NAMES } from "../../../scripts/terraform/index.js";
import { startHtml404 } from "../harness/html-404.js";
import { ordersFor } from "../harness/kill-points.js";
import { providedTerraform, type TerraformWorld } from "./harness.js";
import { siteProgram } from "./programs.js";
import { sandboxWorld, useSandbox } from "./stack.js";

const terraform = providedTerraform();

/** A key of the sandbox's shape that no account holds. */
const WRONG_KEY = "ak_nobody:0000000000000000";

describe.skipIf(!terraform)("a wrong key or an HTML 404 proxy never drops a held order nor buys again", () => {
  const sandbox = useSandbox();
  let html404: Awaited<ReturnType<typeof startHtml404>>;

  beforeAll(async () => {
    html404 = await startHtml404();
  });

  // Hooks run as a stack: this stops before the sandbox does.
  afterAll(async () => {
    await html404?.stop();
  });

  const createOrders = async () => (await sandbox().management.requests()).filter((r) => r.operation === "CreateOrder").length;

  describe.each(TOOL_NAMES)("%s", (name) => {
    const domain = `settings.${name}.e2e.example.com`;
    const vars = ["-var", `domain=${domain}`];
    let world: TerraformWorld;
    let orderNo: string;
    let creates: number;

    beforeAll(async () => {
      world = sandboxWorld(terraform!, name, sandbox(), { "main.tf": siteProgram(terraform!.providerVersion, { certificate: false }) });
      await world.init();
      await world.apply(vars);
      const orders = await ordersFor(sandbox(), domain);
      expect(orders).toHaveLength(1);
      orderNo = orders[0]!.orderNo;
      creates = await createOrders();
    }, 600_000);

    afterAll(async () => {
      if (world?.state()?.resources?.length) await world.destroy(vars, { allowFailure: true });
      world?.dispose();
    });

    const heldOrder = () => (world.state()?.resources ?? []).find((r: { type: string }) => r.type === "certreseller_order")?.instances?.[0]?.attributes?.order_no;

    const settings = [
      // What the error must say: the service refused the key; the page is not the API and proves nothing about the order.
      { setting: "a wrong api_key", env: { CERTRESELLER_API_KEY: WRONG_KEY }, names: /invalid API key/i, secret: WRONG_KEY.split(":")[1]! },
      { setting: "an HTML 404 page as base_url", env: () => ({ CERTRESELLER_BASE_URL: html404.url }), names: /HTTP 404 .*not the Partner API/, secret: undefined },
    ];

    describe.each(settings)("$setting", ({ env, names, secret }) => {
      const bad = () => ({ env: typeof env === "function" ? env() : env, allowFailure: true });

      it.each([
        ["refresh", () => world.run(["refresh", "-input=false", "-no-color", ...vars], bad())],
        ["plan", () => world.plan(vars, bad())],
        ["destroy", () => world.destroy(vars, bad())],
        // No refresh first: the cancel itself meets the bad setting, and a failed destroy must keep the order.
        ["destroy -refresh=false", () => world.destroy([...vars, "-refresh=false"], bad())],
      ] as const)("%s fails saying what is wrong; the state keeps the order; nothing bought or refunded", async (command, run) => {
        const result = await run();
        const output = result.stdout + result.stderr;
        expect(result.code, output).not.toBe(0);
        expect(output).toMatch(/Error: /);
        expect(output).toMatch(names);
        if (!command.includes("-refresh=false")) expect(output).toMatch(new RegExp(`${orderNo}.*the order is kept in state`));
        if (secret) expect(output).not.toContain(secret);
        expect(heldOrder()).toBe(orderNo);
        expect(await createOrders()).toBe(creates);
        const orders = await ordersFor(sandbox(), domain);
        expect(orders.map((o) => o.orderNo)).toEqual([orderNo]);
        expect(orders[0]!.orderStatusLabel).not.toBe("refunded");
      });
    });

    it("with the right settings the plan has no changes, and destroy refunds the one order", async () => {
      const again = await world.plan([...vars, "-detailed-exitcode"], { allowFailure: true });
      expect(again.code, again.stdout + again.stderr).toBe(0);
      await world.destroy(vars);
      const orders = await ordersFor(sandbox(), domain);
      expect(orders.map((o) => o.orderNo)).toEqual([orderNo]);
      expect(orders[0]!.orderStatusLabel).toBe("refunded");
      expect(await createOrders()).toBe(creates);
    });
  });
});
