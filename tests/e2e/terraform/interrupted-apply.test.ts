// A `terraform apply` SIGKILLed with its provider after CreateOrder answered
// and before ApplySign did, for OpenTofu and Terraform: the state knows
// nothing of the order, the purchase journal holds its number. The next
// `plan` says it resumes that order and buys nothing; the next `apply`
// takes it over and issues; one order in all, counted at the sandbox.
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openJournal } from "../../../sdk/src/journal/index.js";
import { PROVIDER_SOURCE, TOOL_NAMES } from "../../../scripts/terraform/index.js";
import { startTestSandbox, type TestSandbox } from "../harness/sandbox.js";
import { until } from "../harness/waiting.js";
import { createTerraformWorld, providedTerraform, shownResources, type TerraformWorld } from "./harness.js";

const terraform = providedTerraform();
const APPLY_SIGN_LATENCY_MS = 20_000;

const program = (version: string) => `
terraform {
  required_providers {
    certreseller = {
      source  = "${PROVIDER_SOURCE}"
      version = "${version}"
    }
  }
}

variable "domain" { type = string }

provider "certreseller" {}

resource "certreseller_order" "site" {
  product_code        = "sandbox-dv-single"
  domain              = var.domain
  verification_method = "dns"
}

resource "certreseller_certificate" "site" {
  order_no   = certreseller_order.site.order_no
  request_id = certreseller_order.site.request_id
}
`;

describe.skipIf(!terraform)("apply killed between CreateOrder and ApplySign", () => {
  let sandbox: TestSandbox;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  const ordersFor = async (domain: string) => (await sandbox.management.orders()).filter((o) => (o.domains as string[] | undefined)?.includes(domain));

  describe.each(TOOL_NAMES)("%s", (name) => {
    const domain = `killed.${name}.e2e.example.com`;
    const vars = ["-var", `domain=${domain}`];
    let world: TerraformWorld;
    let journalDir: string;

    beforeAll(async () => {
      world = createTerraformWorld(terraform!, name, { "main.tf": program(terraform!.providerVersion) });
      journalDir = path.join(path.dirname(world.dir), "journal");
      Object.assign(world.env, { CERTRESELLER_API_KEY: sandbox.apiKey, CERTRESELLER_BASE_URL: sandbox.url, CERTRESELLER_JOURNAL_DIR: journalDir });
      await world.init();
    });

    afterAll(async () => {
      await sandbox.management.clearFaults();
      if (world?.state()?.resources?.length) await world.destroy(vars, { allowFailure: true });
      world?.dispose();
    });

    it("the kill leaves the order in the journal and none in the state", async () => {
      await sandbox.management.setFaults({ ApplySign: { latencyMs: APPLY_SIGN_LATENCY_MS } });
      const apply = world.startApply(vars);
      const journaled = async () => (await openJournal({ journalDir }).list()).some((e) => e.entry?.orderNo !== undefined);
      await Promise.race([
        // The sandbox stores the order before its answer reaches the provider: wait for the number in the journal.
        until("the order number is journaled", async () => (await ordersFor(domain)).length > 0 && (await journaled()), 120_000),
        apply.exited.then(() => {
          throw new Error(`the apply finished before the kill point:\n${apply.output()}`);
        }),
      ]);
      const killed = apply.kill();
      expect((await apply.exited).signal).toBe("SIGKILL");
      expect(killed.length, "the CLI and its provider process").toBeGreaterThan(1);
      await sandbox.management.clearFaults();
      expect(await ordersFor(domain)).toHaveLength(1);
      expect(world.state()?.resources ?? []).toEqual([]);
    });

    it("the next plan resumes the journaled order and buys nothing", async () => {
      const [order] = await ordersFor(domain);
      const { stdout } = await world.plan(vars);
      expect(stdout).toContain(`will resume order ${order!.orderNo}`);
      expect(stdout).not.toMatch(/will buy/);
      expect(await ordersFor(domain)).toHaveLength(1);
    });

    it("the next apply takes the order over and issues: one order in all", async () => {
      const [order] = await ordersFor(domain);
      await world.apply(vars);
      const shown = shownResources(await world.show());
      expect(shown["certreseller_order.site"].values.order_no).toBe(order!.orderNo);
      expect(String(shown["certreseller_certificate.site"].values.full_chain_pem)).toContain("BEGIN CERTIFICATE");
      expect(await ordersFor(domain)).toHaveLength(1);
    });

    it("destroy refunds it", async () => {
      await world.destroy(vars);
      const orders = await ordersFor(domain);
      expect(orders).toHaveLength(1);
      expect(orders[0]!.orderStatusLabel).toBe("refunded");
    });
  });
});
