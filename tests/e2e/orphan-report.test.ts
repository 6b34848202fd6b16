// After a killed `up`, the journal holds a paid order no state holds. A
// TypeScript program whose only Order was then removed must still be told,
// at preview and up: the package starts the journal's orphan check when the
// program loads it, not only when an Order is constructed.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { repoRoot } from "../../scripts/engine/index.js";
import { PartnerClient } from "../../sdk/src/client/index.js";
import { PurchaseJournal } from "../../sdk/src/journal/index.js";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { createWorld, pulumiIn, type E2eWorld } from "./harness/stack.js";

const PROGRAM_DIR = path.join(__dirname, "fixtures", "ts-orders");
const PROJECT = "certreseller-ts-orders";

let sandbox: TestSandbox;
let world: E2eWorld;
const stackName = `orphans-${process.pid}`;

const pulumi = (args: string[], input?: string) => pulumiIn(world, PROGRAM_DIR)(args, input);

beforeAll(async () => {
  sandbox = await startTestSandbox();
  world = createWorld(sandbox, { directoryProgram: true });
  await pulumi(["stack", "init", stackName]);
  await pulumi(["config", "set", "certreseller:baseUrl", sandbox.url]);
  await pulumi(["config", "set", "--secret", "certreseller:apiKey"], sandbox.apiKey);
  await pulumi(["config", "set", "certreseller:journalDir", world.journalDir]);
});

afterAll(async () => {
  await pulumi(["stack", "rm", "--yes", "--force"]).catch(() => undefined);
  fs.rmSync(path.join(PROGRAM_DIR, `Pulumi.${stackName}.yaml`), { force: true });
  await sandbox?.stop();
  world?.dispose();
});

it("a preview of a program that declares no Order any more names the stack's paid order the journal holds, and how to keep or settle it", async () => {
  // What a killed `up` leaves: the order bought and journaled, the engine never told.
  const client = new PartnerClient({ apiKey: sandbox.apiKey, baseUrl: sandbox.url });
  const bought = await client.createOrder({ productCode: "sandbox-dv-single", domain: "orphan.e2e.example.com", months: 12 } as never);
  const urn = `urn:pulumi:${stackName}::${PROJECT}::pulumi-nodejs:dynamic/certreseller:Order::orphan`;
  const journal = new PurchaseJournal(world.journalDir);
  const key = `org=organization;backend=0123456789abcdef;${urn}`;
  await journal.recordIntent({ key, urn, domain: "orphan.e2e.example.com", productCode: "sandbox-dv-single", names: ["orphan.e2e.example.com"] });
  await journal.recordOrder(key, bought.orderNo, { orderNo: bought.orderNo });

  await pulumi(["config", "set", "--path", "domains", "[]"]);
  const preview = await pulumi(["preview"]);
  expect(preview).toMatch(new RegExp(`the purchase journal holds PAID order ${bought.orderNo} .*for orphan, and no Order in this stack declares that resource`));
  expect(preview).toMatch(/adoptOrderNo: "CERT\d+"/);
  expect(preview).toMatch(/certreseller journal rm [0-9a-f]{32}/);
  expect(repoRoot).toBeTruthy();
});
