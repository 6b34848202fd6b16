// docs/troubleshooting.md's entry for the engine's "pending operations"
// warning, against the engine: a killed `up` leaves the Order's create as a
// pending CREATE in the checkpoint; the next `up` resumes the order from the
// journal, yet the engine keeps that record and repeats the warning on every
// later command. `pulumi refresh --yes` keeps it (clearing a pending create
// needs an interactive refresh); `--clear-pending-creates` drops it and leaves
// the Order in state. The pending create is written into the checkpoint as the
// killed run leaves it (the kill itself is tests/e2e/interrupted-create.test.ts).
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import * as certs from "pulumi-certreseller";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDoc } from "../support/docs.js";
import type { TestSandbox } from "./harness/sandbox.js";
import { closeSandboxWorld, openStack, recorder, startSandboxWorld, type E2eWorld } from "./harness/stack.js";

const WARNING = "Attempting to deploy or update resources with 1 pending operations from previous deployment.";
const INTERACTIVE = "Note that `pulumi refresh` will need to be run interactively to clear pending CREATE operations.";

describe("a pending create the engine keeps after a resumed create", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;

  beforeAll(async () => {
    ({ sandbox, world } = await startSandboxWorld());
    stack = await openStack(world, "pending-create", async () => {
      const order = new certs.Order("site", { productCode: "sandbox-dv-single", domain: "pending.e2e.example.com", verificationMethod: "dns" });
      return { orderNo: order.orderNo };
    });
  });
  afterAll(() => closeSandboxWorld({ sandbox, world }, [stack]));

  /** What an `up` with nothing to change prints (the engine warns on `up`, `refresh` and `destroy`, not on a preview). */
  async function upOutput(): Promise<string> {
    const seen = recorder();
    await stack.up({ onOutput: seen.onOutput, onError: seen.onError });
    return seen.output;
  }

  it("the docs quote the engine's words and name the command that clears it", () => {
    const doc = readDoc("docs/troubleshooting.md");
    expect(doc).toContain(WARNING);
    expect(doc).toContain(INTERACTIVE);
    expect(doc).toContain("`pulumi refresh --yes --clear-pending-creates`");
  });

  it("refresh --yes keeps the warning; refresh --yes --clear-pending-creates clears it and keeps the Order", async () => {
    const up = await stack.up();
    const orderNo = String(up.outputs.orderNo?.value);
    // The checkpoint as a killed create leaves it: the Order's create pending (the resumed create put the Order in
    // state). Written into the file backend's checkpoint: `pulumi stack import` would drop pending operations.
    const file = path.join(world.environment.backendDir, ".pulumi", "stacks", "pending-create", "e2e.json");
    const checkpoint = JSON.parse(fs.readFileSync(file, "utf8")) as { checkpoint: { latest: { resources: Array<{ urn: string }>; pending_operations?: unknown[] } } };
    const latest = checkpoint.checkpoint.latest;
    const order = latest.resources.find((r) => r.urn.endsWith("::site"));
    expect(order).toBeDefined();
    latest.pending_operations = [{ resource: order, type: "creating" }];
    fs.writeFileSync(file, JSON.stringify(checkpoint));

    const before = await upOutput();
    expect(before).toContain(WARNING);
    expect(before).toContain(INTERACTIVE);

    await stack.refresh();
    expect(await upOutput()).toContain(WARNING);

    await stack.refresh({ clearPendingCreates: true });
    expect(await upOutput()).not.toContain("pending operations");
    expect((await stack.outputs()).orderNo?.value).toBe(orderNo);
    expect((await sandbox.management.operationCounts()).CreateOrder).toBe(1);
  });
});
