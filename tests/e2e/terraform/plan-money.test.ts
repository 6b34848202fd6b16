// `certreseller-preview-money --terraform` on real saved plans of OpenTofu
// against the sandbox: `plan -out`, `show -json`, the command. The first plan
// buys two Orders (prices from the catalogue) and a cap below their sum
// refuses it with 0 orders bought; after the apply, a plan that replaces one
// (a refund and a purchase) and a destroy plan (refunds); then an apply
// killed between CreateOrder and ApplySign, whose next plan resumes the
// journaled order (no charge) and passes a cap of 0. With
// PLAN_MONEY_FIXTURES=<dir> the `show -json` documents are written there:
// that is how sdk/test/money/fixtures/terraform/ was captured.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openJournal } from "../../../sdk/src/journal/index.js";
import { previewMoneyBin, runCaptured, type Ran } from "../harness/preview-money.js";
import { startTestSandbox, type TestSandbox } from "../harness/sandbox.js";
import { until } from "../harness/waiting.js";
import { providedTerraform } from "./harness.js";
import { certresellerProgram } from "./programs.js";
import { sandboxWorld, type SandboxWorld } from "./stack.js";

const terraform = providedTerraform();
const APPLY_SIGN_LATENCY_MS = 20_000;

const order = (name: string, product: string, domain: string, sans = "[]") => `
resource "certreseller_order" "${name}" {
  product_code        = "${product}"
  domain              = ${domain}
  san_domains         = ${sans}
  verification_method = "dns"
}
`;

const program = (version: string, orders: string) => certresellerProgram(version, { variables: ["zone"], resources: orders });

/** The command on a `show -json` document given on stdin, as a CI step pipes it. */
function previewMoney(shown: unknown, args: string[]): Promise<Ran> {
  return runCaptured(process.execPath, [previewMoneyBin(), "--terraform", ...args], { env: { ...process.env, CERTRESELLER_NOW: "" } }, JSON.stringify(shown));
}

describe.skipIf(!terraform)("certreseller-preview-money --terraform on real OpenTofu plans", () => {
  const zone = "plan-money.tofu.e2e.example.com";
  const vars = ["-var", `zone=${zone}`];
  const single = order("site", "sandbox-dv-single", '"site.${var.zone}"');
  const multi = order("multi", "sandbox-dv-multi", '"multi.${var.zone}"', '["www.${var.zone}"]');
  let sandbox: TestSandbox;
  let world: SandboxWorld;

  const ordersOfZone = async () => (await sandbox.management.orders()).filter((o) => (o.domains as string[] | undefined)?.some((d) => d.endsWith(zone)));
  const captured = (name: string, shown: unknown) => {
    const dir = process.env.PLAN_MONEY_FIXTURES;
    if (dir) fs.writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(shown, null, 2)}\n`);
  };

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    world = sandboxWorld(terraform!, "tofu", sandbox, { "main.tf": program(terraform!.providerVersion, single + multi) });
    await world.init();
  });

  afterAll(async () => {
    await sandbox?.management.clearFaults();
    if (world?.state()?.resources?.length) await world.destroy(vars, { allowFailure: true });
    world?.dispose();
    await sandbox?.stop();
  });

  it("a plan that buys: the summary names both purchases; a cap below their sum refuses it; nothing is bought", async () => {
    const shown = await world.planJson(vars);
    captured("create", shown);
    const under = await previewMoney(shown, ["--max-spend", "1"]);
    expect(under.code, under.stderr).toBe(1);
    expect(under.stdout).toMatch(/^This update buys 2 certificates \(\d+\.\d\d\), cancels nothing\./);
    expect(under.stdout).toMatch(/buy {5}certreseller_order\.site: \d+\.\d\d/);
    expect(under.stdout).toMatch(/buy {5}certreseller_order\.multi: \d+\.\d\d/);
    expect(under.stderr).toMatch(/spend cap exceeded: this update buys \d+\.\d\d, above the cap of 1\.00 \(certreseller_order\.\w+ \d+\.\d\d, certreseller_order\.\w+ \d+\.\d\d\)/);
    const json = await previewMoney(shown, ["--json"]);
    const summary = JSON.parse(json.stdout) as { spend: number; buys: { name: string; price: number }[] };
    expect(summary.buys.map((b) => b.name).sort()).toEqual(["certreseller_order.multi", "certreseller_order.site"]);
    const within = await previewMoney(shown, ["--max-spend", String(summary.spend)]);
    expect(within.code, within.stderr).toBe(0);
    expect(await ordersOfZone()).toHaveLength(0);
  });

  it("after the apply: a replacement is a purchase and a refund; a destroy plan refunds both", async () => {
    await world.apply(vars);
    expect(await ordersOfZone()).toHaveLength(2);
    world.write({ "main.tf": program(terraform!.providerVersion, single + multi.replace('["www.${var.zone}"]', '["api.${var.zone}"]')) });
    const replaced = await world.planJson(vars);
    captured("replace", replaced);
    const ran = await previewMoney(replaced, []);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/^This update buys 1 certificate \(\d+\.\d\d\), cancels 1 \(refund \d+\.\d\d if run before /);
    expect(ran.stdout).toMatch(/buy {5}certreseller_order\.multi: \d+\.\d\d \(replaces order \w+\)/);
    world.write({ "main.tf": program(terraform!.providerVersion, single + multi) });
    const destroying = await world.planJson(["-destroy", ...vars]);
    captured("destroy", destroying);
    const refunds = await previewMoney(destroying, ["--max-spend", "0"]);
    expect(refunds.code, refunds.stderr).toBe(0);
    expect(refunds.stdout).toMatch(/^This update buys nothing, cancels 2 \(refund/);
    expect(await ordersOfZone()).toHaveLength(2);
  });

  it("after an apply killed between CreateOrder and ApplySign: the plan resumes the journaled order, no charge", async () => {
    // A world of its own: a killed apply can leave the state file empty, which would drop the Orders held above.
    const { journalDir } = world;
    const killed = sandboxWorld(terraform!, "tofu", sandbox, { "main.tf": program(terraform!.providerVersion, order("third", "sandbox-dv-single", '"third.${var.zone}"')) }, journalDir);
    try {
      await killed.init();
      await sandbox.management.setFaults({ ApplySign: { latencyMs: APPLY_SIGN_LATENCY_MS } });
      const apply = killed.startApply(vars);
      const journaled = async () => (await openJournal({ journalDir }).list()).some((e) => e.entry?.orderNo !== undefined && e.entry.domain === `third.${zone}`);
      await Promise.race([
        until("the third order's number is journaled", journaled, 120_000),
        apply.exited.then(() => {
          throw new Error(`the apply finished before the kill point:\n${apply.output()}`);
        }),
      ]);
      apply.kill();
      await apply.exited;
      await sandbox.management.clearFaults();
      const bought = await ordersOfZone();
      expect(bought).toHaveLength(3);
      const resumed = bought.find((o) => (o.domains as string[]).includes(`third.${zone}`))!;
      const shown = await killed.planJson(vars);
      captured("resume", shown);
      const ran = await previewMoney(shown, ["--max-spend", "0"]);
      expect(ran.code, `${ran.stdout}${ran.stderr}`).toBe(0);
      expect(ran.stdout).toMatch(/^This update buys nothing, resumes 1 bought by an interrupted run \(no charge\), cancels nothing\./);
      expect(ran.stdout).toContain(`resume  certreseller_order.third: order ${resumed.orderNo} from the purchase journal`);
      await killed.apply(vars);
      expect(await ordersOfZone()).toHaveLength(3);
    } finally {
      await sandbox.management.clearFaults();
      if (killed.state()?.resources?.length) await killed.destroy(vars, { allowFailure: true });
      killed.dispose();
    }
  });
});
