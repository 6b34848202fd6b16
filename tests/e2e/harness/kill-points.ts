/**
 * What the interrupted-create tests of both front ends share: the kill points
 * inside an Order's create (the third point, after ApplySign, depends on what
 * holds the engine, so each test writes its own), the orders the sandbox sold
 * for a domain, and the repair of a checkpoint torn by the kill.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { FaultSettings } from "certreseller-sandbox";
import { openJournal } from "../../../sdk/src/journal/index.js";
import type { SandboxOrder } from "../../support/sandbox-management.js";
import type { TestSandbox } from "./sandbox.js";
import { backendFiles, type E2eWorld } from "./stack.js";
import { until } from "./waiting.js";

export interface KillPointContext {
  sandbox: TestSandbox;
  world: E2eWorld;
  domain: string;
}

export interface KillPoint {
  title: string;
  faults: FaultSettings;
  /** Resolves when the engine should die. */
  reached: (ctx: KillPointContext) => Promise<void>;
  /** Whether the order number never reached the journal before the kill. */
  answerLost: boolean;
  /** Whether the kill certainly fell inside the Order's create (the engine then reports a pending operation). */
  insideCreate: boolean;
}

/** The orders the sandbox sold for `domain`. */
export const ordersFor = async (sandbox: TestSandbox, domain: string) =>
  (await sandbox.management.orders()).filter((o) => (o.domains as string[] | undefined)?.includes(domain));

/**
 * The orders the sandbox sold for `domain`, once there is one: after a kill
 * inside the Order's create, the CreateOrder the sandbox was holding (or had
 * answered) leaves exactly one order, as a real service would after the client
 * vanished; on a loaded machine that comes later than the held latency. Polls
 * the management API; fails naming the domain and the sandbox's requests when
 * no order appears within `timeoutMs`.
 *
 * @example
 * const bought = await ordersOnceSold(sandbox, domain); // length 1
 */
export async function ordersOnceSold(sandbox: TestSandbox, domain: string, timeoutMs = 120_000): Promise<SandboxOrder[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const orders = await ordersFor(sandbox, domain);
    if (orders.length > 0) return orders;
    if (Date.now() > deadline) {
      const requests = (await sandbox.management.requests()).map((r) => `${r.operation} ${r.code} (${r.durationMs} ms)`);
      throw new Error(`the sandbox sold no order for ${domain} within ${timeoutMs} ms of the kill: the CreateOrder it held never completed. Its request log: ${requests.join(", ") || "empty"}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const journalEntries = (world: E2eWorld) => openJournal({ journalDir: world.journalDir }).list();

/**
 * The two kill points inside the Order's create, the sandbox holding the call
 * for `latencyMs`.
 *
 * @example
 * const KILL_POINTS = [...createKillPoints(3000), afterApplySign];
 */
export function createKillPoints(latencyMs: number): KillPoint[] {
  return [
    {
      title: "before CreateOrder answers",
      // `times: 1`: the sandbox drops the entry when it takes the request and starts holding it. The journaled
      // intent alone is not enough: CreateOrder leaves only after the journal's fsync, which a busy disk delays.
      faults: { CreateOrder: { latencyMs, times: 1 } },
      reached: async ({ sandbox, world }) => {
        await until("the purchase intent is journaled", async () => (await journalEntries(world)).length > 0);
        await until("the sandbox holds the CreateOrder", async () => (await sandbox.management.faults()).CreateOrder === undefined);
      },
      answerLost: true,
      insideCreate: true,
    },
    {
      title: "after CreateOrder answered, before ApplySign answers",
      faults: { ApplySign: { latencyMs } },
      // The sandbox stores the order before its answer reaches the provider, so "the order exists" is not enough: a
      // kill in between is the answer-lost case (seen in CI). Wait for the order number in the journal.
      reached: async ({ sandbox, world, domain }) => {
        await until("the order exists", async () => (await ordersFor(sandbox, domain)).length > 0);
        await until("the order number is journaled", async () => (await journalEntries(world)).some((e) => e.entry?.orderNo !== undefined));
      },
      answerLost: false,
      insideCreate: true,
    },
  ];
}

/**
 * SIGKILL can land while the engine saves its checkpoint and leave it
 * unreadable ("failed to load checkpoint: EOF", seen in a CI run). A user then
 * restores the file backend's own copy of the previous checkpoint
 * (`<stack>.json.bak`). That older state knows nothing of the create, so the
 * purchase journal alone must keep the next `up` from buying again — the
 * property under test.
 */
export function restoreTornCheckpoint(world: E2eWorld, projectName: string, stackName: string): void {
  const checkpoints = backendFiles(world).filter((f) => path.basename(f) === `${stackName}.json` && path.basename(path.dirname(f)) === projectName);
  for (const file of checkpoints) {
    try {
      JSON.parse(fs.readFileSync(file, "utf8"));
    } catch {
      console.warn(`[e2e] the kill left ${file} unreadable (${fs.statSync(file).size} bytes); restoring ${file}.bak as a user would`);
      fs.copyFileSync(`${file}.bak`, file);
    }
  }
}
