import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/engine/index.js";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { createWorld, openStack, recorder, type E2eWorld } from "./harness/stack.js";
import { ordersProgram, type OrderArgs } from "./programs.js";

const one = (d: string): OrderArgs => ({ productCode: "sandbox-dv-single", domain: `${d}.e2e.example.com`, verificationMethod: "dns" });
describe("probe", () => {
  let sandbox: TestSandbox; let world: E2eWorld;
  beforeAll(async () => { sandbox = await startTestSandbox(); world = createWorld(sandbox); });
  afterAll(async () => { await sandbox?.stop(); world?.dispose(); });
  it("probes", async () => {
    const out = "/tmp/money-probe.jsonl"; fs.rmSync(out, { force: true });
    const stack = await openStack(world, "probe", ordersProgram({ keep: one("keep"), repl: one("repl"), gone: one("gone") }));
    await stack.up();
    fs.appendFileSync(out, JSON.stringify({ kind: "---preview" }) + "\n");
    const t = recorder();
    await stack.preview({ program: ordersProgram({ keep: one("keep"), repl: one("repl2"), fresh: one("fresh") }), policyPacks: [path.join(repoRoot, "tmp/money-probe-pack")], onEvent: t.onEvent, onOutput: t.onOutput });
    fs.writeFileSync("/tmp/money-probe-events.json", JSON.stringify(t.events.filter(e => e.resourcePreEvent), null, 1));
    fs.writeFileSync("/tmp/money-probe-output.txt", t.output);
    await stack.destroy();
  });
});
