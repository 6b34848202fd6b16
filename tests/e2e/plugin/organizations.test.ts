// Two Pulumi Cloud organisations, each with a stack of the same project,
// stack and resource names, served by the provider plugin with one purchase
// journal (one machine's default journalDir, or one shared journalUrl). The
// engine tells a provider plugin no organisation (only Construct and Call
// carry one), so the provider setting `organization` keeps their entries apart.
//
// A file backend has the one organisation `organization`, so each stack lives
// in a file backend of its own for the CLI, and each world's plugin is made
// to see the same Pulumi Cloud URL (`pluginSeesBackend`: PULUMI_BACKEND_URL
// set for the plugin process only). To the journal that is one Cloud backend
// holding both organisations' `certreseller-interrupted/dev`.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../scripts/engine/index.js";
import { openJournal } from "../../../sdk/src/journal/index.js";
import { createKillPoints, ordersOnceSold } from "../harness/kill-points.js";
import { configureStack, pluginSeesBackend, pluginWorld, startPluginStack, startUp, type PluginStack, type PluginWorld } from "../harness/plugin.js";
import { isAlive, killTree } from "../harness/process-tree.js";
import type { TestSandbox } from "../harness/sandbox.js";
import { failureOf } from "../harness/stack.js";
import { until } from "../harness/waiting.js";

const PROGRAM = path.join(repoRoot, "tests", "e2e", "fixtures", "yaml-money", "order-and-certificate");
const CLOUD = "https://api.pulumi.com";
const LATENCY_MS = 3000;
const DOMAIN = "orgs.plugin.e2e.example.com";

const createOrderCalls = async (sandbox: TestSandbox) => (await sandbox.management.requests()).filter((r) => r.operation === "CreateOrder");

/** Every journal file and its bytes. */
function journalFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.set(path.join(entry.parentPath, entry.name), fs.readFileSync(path.join(entry.parentPath, entry.name), "utf8"));
  }
  return files;
}

describe("two organisations' stacks of one name on one journal, through the provider plugin", () => {
  let sandbox: TestSandbox;
  let orgA: PluginWorld;
  let orgB: PluginWorld;
  let dirA: string;
  let dirB: string;
  let stackA: PluginStack | undefined;
  let stackB: PluginStack | undefined;

  beforeAll(async () => {
    const world = async (s: TestSandbox) => {
      const w = await pluginWorld(s, { yamlProgram: true });
      pluginSeesBackend(w, CLOUD);
      return w;
    };
    // Same account, same purchase inputs, one journal: only the organisation tells the two apart.
    const settings = (organization: string, journalDir: string) => ({ domain: DOMAIN, "certreseller:organization": organization, "certreseller:journalDir": journalDir });
    stackA = await startPluginStack({ program: PROGRAM, world, config: (w) => settings("org-a", w.journalDir) });
    ({ sandbox, world: orgA, dir: dirA } = stackA);
    stackB = await startPluginStack({ program: PROGRAM, sandbox, world, config: () => settings("org-b", orgA.journalDir) });
    ({ world: orgB, dir: dirB } = stackB);
  });

  afterAll(async () => {
    await stackB?.dispose();
    await stackA?.close();
  });

  it("an up of org A killed before CreateOrder answered: org B buys its own order once and never touches A's entry", async () => {
    const lostAnswer = createKillPoints(LATENCY_MS)[0]!;
    await sandbox.management.setFaults(lostAnswer.faults);
    const up = startUp(orgA, dirA);
    try {
      await Promise.race([
        lostAnswer.reached({ sandbox, world: orgA, domain: DOMAIN }),
        up.exited.then(() => {
          throw new Error(`the up finished before the kill point:\n${up.output()}`);
        }),
      ]);
    } finally {
      const killed = killTree(up.child.pid!);
      await up.exited;
      await until("every killed process is gone", () => killed.every((pid) => !isAlive(pid)), 10_000);
    }
    await sandbox.management.clearFaults();
    // Org A's purchase reached the sandbox; its answer never reached the journal.
    const soldToA = await ordersOnceSold(sandbox, DOMAIN);
    expect(soldToA).toHaveLength(1);
    const boughtByA = soldToA[0]!;
    const entriesOfA = await openJournal({ journalDir: orgA.journalDir }).list();
    expect(entriesOfA).toHaveLength(1);
    expect(entriesOfA[0]!.entry?.orderNo).toBeUndefined();
    const before = journalFiles(orgA.journalDir);

    await orgB.pulumi(["up", "--yes"], { cwd: dirB });
    const outB = JSON.parse(await orgB.pulumi(["stack", "output", "--json"], { cwd: dirB })) as { orderNo?: string };
    expect(outB.orderNo).toMatch(/\S/);
    expect(outB.orderNo).not.toBe(boughtByA!.orderNo);
    expect(await createOrderCalls(sandbox)).toHaveLength(2);
    expect(entriesOfA[0]!.entry?.key).toMatch(/^org=org-a;/);
    // A's entry is byte for byte what A's killed run left.
    const after = journalFiles(orgA.journalDir);
    for (const [file, text] of before) expect(after.get(file), file).toBe(text);

    // A's next up still stops on A's own lost answer, naming A's domain; nothing more is bought.
    await orgA.pulumi(["cancel", "--yes"], { cwd: dirA });
    const stopped = await failureOf(orgA.pulumi(["up", "--yes"], { cwd: dirA }));
    expect(stopped).toMatch(/MAY have been charged/);
    expect(stopped).toContain(DOMAIN);
    expect(await createOrderCalls(sandbox)).toHaveLength(2);
  });

  it("a Pulumi Cloud backend without the organization setting fails the preview, naming it, before anything is bought", async () => {
    await orgB.pulumi(["stack", "init", "unset"], { cwd: dirB });
    await configureStack(orgB, dirB, { domain: "unset.orgs.plugin.e2e.example.com", "certreseller:journalDir": orgA.journalDir });
    const calls = (await createOrderCalls(sandbox)).length;
    const message = await failureOf(orgB.pulumi(["preview"], { cwd: dirB }));
    expect(message).toContain("certreseller:organization");
    expect(message).toContain("${pulumi.organization}");
    expect(await createOrderCalls(sandbox)).toHaveLength(calls);
    await orgB.pulumi(["stack", "select", "dev"], { cwd: dirB });
  });
});
