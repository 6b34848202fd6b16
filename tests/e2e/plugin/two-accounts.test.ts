// One stack buying with two reseller accounts through two explicit
// providers: each Order is bought, refreshed and cancelled with its own
// provider's key, and the wrong-account evidence rules hold per provider.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../scripts/engine/index.js";
import { startPluginStack, type PluginStack, type PluginWorld } from "../harness/plugin.js";
import { appIdOf, configureTwoAccounts, upBuysWithEachAccount, withoutKeyBuysNothing } from "../harness/plugin-scenarios.js";
import type { TestSandbox } from "../harness/sandbox.js";

const PROGRAM = path.join(repoRoot, "tests", "e2e", "fixtures", "yaml-two-accounts");

describe("two accounts in one stack: an explicit provider per account", () => {
  let sandbox: TestSandbox;
  let world: PluginWorld;
  let dir: string;
  let keyA: string;
  let keyB: string;
  let plugin: PluginStack | undefined;

  beforeAll(async () => {
    ({ sandbox, world, dir } = plugin = await startPluginStack({ program: PROGRAM, config: false }));
    keyA = sandbox.apiKey;
    keyB = (await sandbox.management.createAccount({ username: "business-unit-b", balance: 1000 })).apiKey;
    await configureTwoAccounts(world, dir, { keyA, keyB });
  });

  afterAll(() => plugin?.dispose());

  /** The app id each call of `operation` was made with, by order number. */
  async function callers(operation: string): Promise<Map<string, string | null | undefined>> {
    const calls = (await sandbox.management.requests()).filter((r) => r.operation === operation && r.code === 200);
    return new Map(calls.map((r) => [r.orderNo ?? "", r.appId]));
  }

  it("buys with each account, refreshes and destroys each order with its own key", async () => {
    const out = await upBuysWithEachAccount(plugin!, { keyA, keyB });

    await sandbox.management.clearRequests();
    await world.pulumi(["refresh", "--yes"], { cwd: dir });
    const reads = await callers("GetRecord");
    expect(reads.get(out.orderA!)).toBe(appIdOf(keyA));
    expect(reads.get(out.orderB!)).toBe(appIdOf(keyB));
    await world.pulumi(["preview", "--expect-no-changes"], { cwd: dir });

    await world.pulumi(["destroy", "--yes"], { cwd: dir });
    const cancels = await callers("CancelOrder");
    expect(cancels.get(out.orderA!)).toBe(appIdOf(keyA));
    expect(cancels.get(out.orderB!)).toBe(appIdOf(keyB));
    expect((await sandbox.management.orders()).length).toBe(2);
  });

  it("an explicit provider without apiKey fails the preview naming apiKey; it never buys with the environment's key", async () => {
    const noKey = path.join(path.dirname(dir), "program-without-key-b");
    fs.cpSync(PROGRAM, noKey, { recursive: true });
    const file = path.join(noKey, "Pulumi.yaml");
    const text = fs.readFileSync(file, "utf8");
    const withoutKey = text.replace("      apiKey: ${keyB}\n", "");
    expect(withoutKey).not.toBe(text);
    fs.writeFileSync(file, withoutKey);
    await withoutKeyBuysNothing(world, noKey, { keyA, keyB });
  });

  it("a provider switched to the other account's key keeps its order: refresh refuses, naming both app ids", async () => {
    await sandbox.management.clearRequests();
    await world.pulumi(["config", "set", "--secret", "keyB"], { cwd: dir, input: keyB });
    await world.pulumi(["up", "--yes"], { cwd: dir });
    const out = JSON.parse(await world.pulumi(["stack", "output", "--json"], { cwd: dir })) as Record<string, string>;
    // Provider B now holds account A's key; the engine records it with the next up (no purchase: a key change is no replacement).
    await world.pulumi(["config", "set", "--secret", "keyB"], { cwd: dir, input: keyA });
    const upWithOtherKey = await world.pulumi(["up", "--yes"], { cwd: dir });
    expect(upWithOtherKey).not.toMatch(/bought/);
    const refresh = await world.pulumi(["refresh", "--yes"], { cwd: dir }).then(
      (stdout) => stdout,
      (error: Error) => error.message,
    );
    expect(refresh).toContain(appIdOf(keyB));
    expect(refresh).toContain(appIdOf(keyA));
    const state = JSON.parse(await world.pulumi(["stack", "export"], { cwd: dir })) as { deployment: { resources?: { id?: string }[] } };
    expect(state.deployment.resources?.map((r) => r.id)).toContain(out.orderB);
    expect((await sandbox.management.requests()).filter((r) => r.operation === "CreateOrder")).toHaveLength(2);
    // Back to the right key: destroy cancels with it.
    await world.pulumi(["config", "set", "--secret", "keyB"], { cwd: dir, input: keyB });
    await world.pulumi(["up", "--yes"], { cwd: dir });
    await world.pulumi(["destroy", "--yes"], { cwd: dir });
    expect((await callers("CancelOrder")).get(out.orderB!)).toBe(appIdOf(keyB));
  });
});
