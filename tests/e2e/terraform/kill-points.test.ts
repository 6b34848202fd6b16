// `tofu apply` (and `terraform apply`) SIGKILLed at each of the three kill
// points of an Order's purchase: before CreateOrder answers, after it and
// before ApplySign answers, after ApplySign answered (the Certificate's
// download held). A SIGKILLed CLI sends its provider nothing: the provider,
// reparented, finishes its call, records the order in the journal, then
// exits on its own (it watches its parent). A lost machine kills the provider
// too, before CreateOrder's answer reaches it: the answer is lost. Either way
// the next `apply` ends with exactly one CreateOrder and the order in state:
// resumed from the journal, or, the answer lost, stopped naming the possibly
// charged order and `adopt_order_no`, then adopted as the message says.
// `destroy` refunds. One sandbox, world and journal per case.
import { spawnSync } from "node:child_process";
import type { FaultSettings } from "certreseller-sandbox";
import { afterEach, describe, expect, it } from "vitest";
import { openJournal } from "../../../sdk/src/journal/index.js";
import { type TerraformToolName } from "../../../scripts/terraform/index.js";
import { ordersFor, ordersOnceSold } from "../harness/kill-points.js";
import { descendants, isAlive, killTree } from "../harness/process-tree.js";
import { startTestSandbox, type TestSandbox } from "../harness/sandbox.js";
import { until } from "../harness/waiting.js";
import { providedTerraform, shownResources } from "./harness.js";
import { siteProgram } from "./programs.js";
import { sandboxWorld } from "./stack.js";

const terraform = providedTerraform();
/** How long the sandbox holds the call the kill lands in. */
const LATENCY_MS = 8_000;

interface Context {
  sandbox: TestSandbox;
  journalDir: string;
  domain: string;
}

interface KillPoint {
  title: string;
  faults: FaultSettings;
  reached: (ctx: Context) => Promise<void>;
}

const journalEntries = (journalDir: string) => openJournal({ journalDir }).list();
const createOrders = async (sandbox: TestSandbox) => (await sandbox.management.requests()).filter((r) => r.operation === "CreateOrder").length;

const BEFORE_CREATE_ORDER: KillPoint = {
  title: "before CreateOrder answers",
  // `times: 1`: the sandbox drops the entry when it takes the request and starts holding it.
  faults: { CreateOrder: { latencyMs: LATENCY_MS, times: 1 } },
  reached: async ({ sandbox, journalDir }) => {
    await until("the purchase intent is journaled", async () => (await journalEntries(journalDir)).length > 0, 120_000);
    await until("the sandbox holds the CreateOrder", async () => (await sandbox.management.faults()).CreateOrder === undefined, 120_000);
  },
};

const BEFORE_APPLY_SIGN: KillPoint = {
  title: "after CreateOrder answered, before ApplySign answers",
  faults: { ApplySign: { latencyMs: LATENCY_MS, times: 1 } },
  reached: async ({ sandbox, journalDir, domain }) => {
    await until("the order exists", async () => (await ordersFor(sandbox, domain)).length > 0, 120_000);
    await until("the order number is journaled", async () => (await journalEntries(journalDir)).some((e) => e.entry?.orderNo !== undefined), 120_000);
  },
};

const AFTER_APPLY_SIGN: KillPoint = {
  title: "after ApplySign answered",
  // The Order's create has returned; the Certificate's first download is held.
  faults: { DownloadCertificate: { latencyMs: LATENCY_MS, times: 1 } },
  reached: async ({ sandbox }) => {
    await until("ApplySign has answered", async () => (await sandbox.management.requests()).some((r) => r.operation === "ApplySign" && r.code !== undefined), 120_000);
    await until("the sandbox holds the Certificate's download", async () => (await sandbox.management.faults()).DownloadCertificate === undefined, 120_000);
  },
};

interface Case {
  tool: TerraformToolName;
  point: KillPoint;
  /** The provider killed with the CLI (a lost machine) rather than left to finish its call. */
  lostMachine: boolean;
}

const CASES: Case[] = [
  { tool: "tofu", point: BEFORE_CREATE_ORDER, lostMachine: false },
  { tool: "tofu", point: BEFORE_APPLY_SIGN, lostMachine: false },
  { tool: "tofu", point: AFTER_APPLY_SIGN, lostMachine: false },
  { tool: "tofu", point: BEFORE_CREATE_ORDER, lostMachine: true },
  { tool: "terraform", point: BEFORE_CREATE_ORDER, lostMachine: false },
];

describe.skipIf(!terraform)("apply SIGKILLed at each kill point", () => {
  const cleanups: (() => Promise<void>)[] = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup().catch((error: unknown) => console.warn(`[e2e] cleanup failed: ${String(error)}`));
  });

  it.each(CASES.map((c, i) => ({ ...c, i, title: c.point.title, how: c.lostMachine ? "with its provider (a lost machine)" : "alone" })))(
    "$tool killed $how $title: the next apply ends with one CreateOrder and the order in state; destroy refunds",
    async ({ tool, point, lostMachine, i }) => {
      const sandbox = await startTestSandbox();
      const domain = `kill-${i}.${tool}.e2e.example.com`;
      const vars = ["-var", `domain=${domain}`];
      const world = sandboxWorld(terraform!, tool, sandbox, { "main.tf": siteProgram(terraform!.providerVersion) });
      const { journalDir } = world;
      let cliPid: number | undefined;
      cleanups.push(async () => {
        if (cliPid && isAlive(cliPid)) killTree(cliPid);
        await sandbox.management.clearFaults();
        if (world.state()?.resources?.length) await world.destroy(vars, { allowFailure: true });
        world.dispose();
        await sandbox.stop();
      });
      await world.init();

      await sandbox.management.setFaults(point.faults);
      const apply = world.startApply(vars);
      cliPid = apply.child.pid;
      await Promise.race([
        point.reached({ sandbox, journalDir, domain }),
        apply.exited.then(() => {
          throw new Error(`the apply finished before the kill point:\n${apply.output()}`);
        }),
      ]);
      const providers = descendants(apply.child.pid!);
      expect(providers.length, "the provider process under the CLI").toBeGreaterThan(0);
      if (lostMachine) {
        killTree(apply.child.pid!);
      } else {
        apply.child.kill("SIGKILL");
      }
      expect((await apply.exited).signal).toBe("SIGKILL");
      if (!lostMachine) {
        // The reparented provider finishes the call held at the sandbox, records it, and exits on its own.
        await until("the orphaned provider finishes its call and exits", () => providers.every((pid) => !isAlive(pid)), 120_000);
      }
      await sandbox.management.clearFaults();
      const bought = await ordersOnceSold(sandbox, domain);
      expect(bought).toHaveLength(1);
      const orderNo = bought[0]!.orderNo;
      expect(await createOrders(sandbox)).toBe(1);
      const entries = await journalEntries(journalDir);
      if (point !== AFTER_APPLY_SIGN) {
        // Nothing silently untracked: the state or the journal holds the purchase.
        const inState = JSON.stringify(world.state() ?? {}).includes(orderNo);
        const journaled = entries.some((e) => e.entry?.orderNo === orderNo);
        const lost = entries.some((e) => e.entry !== undefined && e.entry.orderNo === undefined);
        expect(inState || journaled || (lostMachine && lost), JSON.stringify(entries)).toBe(true);
      }

      if (lostMachine) {
        // The order number never reached the journal: the apply stops before buying, naming the domain, the
        // possible charge and the attribute that adopts the order; no second CreateOrder.
        const stopped = await world.apply(vars, { allowFailure: true });
        const message = stopped.stdout + stopped.stderr;
        expect(stopped.code, message).not.toBe(0);
        expect(message).toContain(domain);
        expect(message).toMatch(/MAY have been charged/);
        expect(message).toContain("adopt_order_no");
        expect(message).not.toContain("adoptOrderNo");
        expect(await createOrders(sandbox)).toBe(1);
        // The journal command it prints runs as printed from the Terraform project (no npm project there):
        // the mirror's launcher, the journal's location in front; its `ls` lists the lost answer's entry.
        const printed = /`((?:CERTRESELLER_JOURNAL_\w+=\S+ )?(\S+) journal rm (\S+))`/.exec(message);
        expect(printed, message).not.toBeNull();
        expect(printed![2]).toMatch(/\/terraform-provider-certreseller_v[^/]+$/);
        expect(message).not.toMatch(/npx/);
        const listed = spawnSync("/bin/sh", ["-c", printed![1]!.replace(/ journal rm \S+$/, " journal ls")], { cwd: world.dir, env: world.env, encoding: "utf8", timeout: 60_000 });
        expect(listed.status, listed.stdout + listed.stderr).toBe(0);
        expect(listed.stdout).toContain(printed![3]!);
        expect(listed.stdout).toMatch(/answer lost: MAY have been charged/);
        // As the message says: the order found in the account, adopted in the configuration.
        world.write({ "main.tf": siteProgram(terraform!.providerVersion, { adoptOrderNo: orderNo }) });
      }
      const { stdout } = await world.apply(vars);
      if (!lostMachine && point !== AFTER_APPLY_SIGN) expect(stdout).toContain(orderNo);

      const shown = shownResources(await world.show());
      expect(shown["certreseller_order.site"].values.order_no).toBe(orderNo);
      expect(String(shown["certreseller_certificate.site"].values.full_chain_pem)).toContain("BEGIN CERTIFICATE");
      expect(await createOrders(sandbox)).toBe(1);
      expect(await ordersFor(sandbox, domain)).toHaveLength(1);

      await world.destroy(vars);
      const [order] = await ordersFor(sandbox, domain);
      expect(order?.orderStatusLabel).toBe("refunded");
      expect(await createOrders(sandbox)).toBe(1);
    },
    600_000,
  );
});
