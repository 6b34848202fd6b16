// StopProvider (Ctrl-C, SIGTERM): the purchase in flight finishes and is
// recorded; no CreateOrder starts after it. A file of its own: the stop is
// process-wide (stopPurchases), as in the provider's own process.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startSandbox, type RunningSandbox } from "certreseller-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManagementClient } from "../../../tests/support/sandbox-management.js";
import type { TfObject, TfValue } from "pulumi-certreseller/dist/terraform/contract.js";
import { createProvider } from "pulumi-certreseller/dist/terraform/provider.js";
import { terraformSchema } from "pulumi-certreseller/dist/terraform/schema.js";

const schema = terraformSchema();
const objectOf = (block: { attributes: Record<string, unknown> }, values: Record<string, TfValue>): TfObject =>
  Object.fromEntries(Object.keys(block.attributes).map((name) => [name, values[name] ?? null]));

describe("Terraform StopProvider", () => {
  let sandbox: RunningSandbox;
  let management: ManagementClient;
  let journalDir: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, validation: "auto", issueAfterSeconds: 0, statusCooldownSeconds: 0, methodCooldownSeconds: 0 });
    management = new ManagementClient(sandbox.managementUrl);
    journalDir = fs.mkdtempSync(path.join(os.tmpdir(), "tf-stop-journal-"));
  });

  afterAll(async () => {
    await sandbox?.stop();
    fs.rmSync(journalDir, { recursive: true, force: true });
  });

  it("lets the CreateOrder in flight finish and be recorded, then starts no purchase; no diagnostic shows the API key", async () => {
    const apiKey = sandbox.accounts[0]!.apiKey;
    const p = createProvider({ cwd: journalDir });
    await p.configure(objectOf(schema.provider, { api_key: apiKey, base_url: sandbox.url, journal_dir: journalDir }), "1.13.0");
    const config = (domain: string) => objectOf(schema.resources.certreseller_order!, { product_code: "sandbox-dv-single", domain });
    const first = config("inflight.example.com");
    const plan = await p.planResourceChange({ typeName: "certreseller_order", priorState: null, proposedNewState: first, config: first });
    await management.setFaults({ CreateOrder: { latencyMs: 1_500, times: 1 } } as never);
    const applying = p.applyResourceChange({ typeName: "certreseller_order", priorState: null, plannedState: plan.plannedState, config: first, plannedPrivate: plan.plannedPrivate });
    await new Promise((resolve) => setTimeout(resolve, 400));
    let applied = false;
    void applying.then(() => (applied = true));
    expect(await p.stop()).toBeUndefined();
    expect(applied).toBe(true); // stop waited for the call in flight
    const created = await applying;
    expect(created.newState).toMatchObject({ order_no: expect.any(String) });

    const second = config("after-stop.example.com");
    const secondPlan = await p.planResourceChange({ typeName: "certreseller_order", priorState: null, proposedNewState: second, config: second });
    const refused = await p.applyResourceChange({ typeName: "certreseller_order", priorState: null, plannedState: secondPlan.plannedState ?? second, config: second });
    expect(refused.newState).toBeNull();
    expect(refused.diagnostics!.map((d) => d.summary).join("\n")).toMatch(/stop.*nothing was bought|not started/i);
    expect((await management.operationCounts()).CreateOrder).toBe(1);
    expect(JSON.stringify([plan, created, secondPlan, refused])).not.toContain(apiKey.slice(apiKey.indexOf(":") + 1));
  });
});
