// `certreseller-preview-money` on a real preview: a directory program (the
// command wraps `pulumi preview --json`, which runs the program in its
// folder) holding Orders bought earlier, then changed so that one stays, two
// are replaced (one inside the 7-day refund window, one bought ten days ago
// by the provider's clock), one is new and one is removed. The command must
// print what the update buys, cancels and refunds, fail above --max-spend,
// and nothing is bought by any preview. A second part pins why this is a
// command and not a policy: what a stack policy sees of the same kinds of
// change.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/engine/index.js";
import { previewMoneyBin, runCaptured, type Ran } from "./harness/preview-money.js";
import type { TestSandbox } from "./harness/sandbox.js";
import { closeSandboxWorld, openStack, startSandboxWorld, type E2eWorld } from "./harness/stack.js";
import { ordersProgram, type OrderArgs } from "./programs.js";

const STACK = "e2e";
const PROGRAM = `const pulumi = require("@pulumi/pulumi");
const certs = require("pulumi-certreseller");
const orders = JSON.parse(new pulumi.Config().require("orders"));
for (const [name, args] of Object.entries(orders)) new certs.Order(name, args);
`;

const order = (label: string) => ({ productCode: "sandbox-dv-single", domain: `${label}.money.e2e.example.com`, verificationMethod: "dns" });
const TEN_DAYS_AGO = new Date(Date.now() - 10 * 86_400_000).toISOString();

describe("certreseller-preview-money on a real preview", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let programDir: string;

  function exec(file: string, args: string[], extraEnv: Record<string, string> = {}, input?: string): Promise<Ran> {
    return runCaptured(file, args, { cwd: programDir, env: { ...process.env, ...world.environment.env, ...extraEnv }, maxBuffer: 64 * 1024 * 1024 }, input);
  }
  async function pulumi(args: string[], extraEnv: Record<string, string> = {}, input?: string): Promise<string> {
    const ran = await exec(world.environment.pulumiPath, [...args, "--non-interactive"], extraEnv, input);
    if (ran.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed:\n${ran.stdout}\n${ran.stderr}`);
    return ran.stdout;
  }
  const setOrders = (orders: Record<string, unknown>) => pulumi(["config", "set", "orders", JSON.stringify(orders)]);
  const previewMoney = (args: string[]) => exec(process.execPath, [previewMoneyBin(), ...args]);

  let paidAt: Record<string, string> = {};
  let orderNo: Record<string, string> = {};
  let ordersBeforePreviews = 0;
  let balanceBeforePreviews = "";

  beforeAll(async () => {
    ({ sandbox, world } = await startSandboxWorld({}, { directoryProgram: true }));
    // Under the repository so the program resolves the workspace's pulumi-certreseller and @pulumi/pulumi.
    fs.mkdirSync(path.join(repoRoot, "tmp"), { recursive: true });
    programDir = fs.mkdtempSync(path.join(repoRoot, "tmp", "preview-money-"));
    fs.writeFileSync(path.join(programDir, "Pulumi.yaml"), "name: preview-money\nruntime: nodejs\nmain: index.js\n");
    fs.writeFileSync(path.join(programDir, "index.js"), PROGRAM);
    await pulumi(["stack", "init", STACK]);
    await pulumi(["config", "set", "certreseller:baseUrl", sandbox.url]);
    await pulumi(["config", "set", "--secret", "certreseller:apiKey"], {}, sandbox.apiKey);
    await pulumi(["config", "set", "certreseller:journalDir", world.journalDir]);

    // "stale" is bought with the provider's clock ten days back: its paidAt is past the refund window.
    await setOrders({ stale: order("stale") });
    await pulumi(["up", "--yes"], { CERTRESELLER_NOW: TEN_DAYS_AGO });
    await setOrders({ stale: order("stale"), keep: order("keep"), repl: order("repl"), gone: order("gone") });
    await pulumi(["up", "--yes"]);

    const state = JSON.parse(await pulumi(["stack", "export"])) as { deployment: { resources: Array<{ type: string; urn: string; outputs?: Record<string, string> }> } };
    for (const r of state.deployment.resources) {
      if (!r.type.endsWith(":Order")) continue;
      const name = r.urn.slice(r.urn.lastIndexOf("::") + 2);
      paidAt[name] = r.outputs!.paidAt!;
      orderNo[name] = r.outputs!.orderNo!;
    }
    expect(Object.keys(orderNo).sort()).toEqual(["gone", "keep", "repl", "stale"]);

    // The update to preview: keep unchanged, repl and stale replaced (new domains), fresh new, gone removed.
    await setOrders({ keep: order("keep"), repl: order("repl2"), stale: order("stale2"), fresh: order("fresh") });
    ordersBeforePreviews = (await sandbox.management.orders()).length;
    balanceBeforePreviews = String((await sandbox.management.account(sandbox.username)).balance);
  });

  afterAll(async () => {
    if (world && programDir) {
      await pulumi(["destroy", "--yes"]).catch(() => undefined);
      await pulumi(["stack", "rm", "--yes", "--force"]).catch(() => undefined);
    }
    if (programDir) fs.rmSync(programDir, { recursive: true, force: true });
    await closeSandboxWorld({ sandbox, world });
  });

  const minute = (iso: string, plusDays: number) => `${new Date(Date.parse(iso) + plusDays * 86_400_000).toISOString().slice(0, 16).replace("T", " ")} UTC`;

  it("prints what the update buys, cancels and refunds", async () => {
    const ran = await previewMoney([]);
    expect(ran.code, ran.stderr).toBe(0);
    const lines = ran.stdout.trimEnd().split("\n");
    // Three purchases of 100.00 (two replacements and one new Order); three cancellations (two replaced, one removed).
    expect(lines[0]).toMatch(/^This update buys 3 certificates \(300\.00\), cancels 3 \(.*\)\.$/);
    expect(lines[0]).toContain(`refund 100.00 if run before ${minute(paidAt.repl!, 7)}`);
    expect(lines[0]).toContain(`refund 100.00 if run before ${minute(paidAt.gone!, 7)}`);
    expect(lines[0]).toContain(`no refund: window closed ${minute(paidAt.stale!, 7)}`);
    expect(lines.slice(1).sort()).toEqual(
      [
        "  buy     fresh: 100.00",
        `  buy     repl: 100.00 (replaces order ${orderNo.repl})`,
        `  buy     stale: 100.00 (replaces order ${orderNo.stale})`,
        `  cancel  gone: order ${orderNo.gone}, paid 100.00, refunded if cancelled before ${minute(paidAt.gone!, 7)}`,
        `  cancel  repl: order ${orderNo.repl}, paid 100.00, refunded if cancelled before ${minute(paidAt.repl!, 7)}`,
        `  cancel  stale: order ${orderNo.stale}, paid 100.00, refund window closed ${minute(paidAt.stale!, 7)}: released without refund`,
      ].sort(),
    );
    // The unchanged Order moves no money and is not listed.
    expect(ran.stdout).not.toContain("keep");
  });

  it("passes at the cap and fails above it with what the update buys", async () => {
    const at = await previewMoney(["--max-spend", "300"]);
    expect(at.code, at.stderr).toBe(0);
    const above = await previewMoney(["--max-spend", "250"]);
    expect(above.code).toBe(1);
    expect(above.stderr).toContain("spend cap exceeded: this update buys 300.00, above the cap of 250.00 (");
    for (const name of ["fresh", "repl", "stale"]) expect(above.stderr).toContain(`${name} 100.00`);
  });

  it("reports a failed preview instead of a summary", async () => {
    await setOrders({ keep: order("keep"), bad: { ...order("bad"), productCode: "no-such-product" } });
    try {
      const ran = await previewMoney(["--max-spend", "1000"]);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain("pulumi preview failed");
      expect(ran.stderr).toContain("no-such-product");
      expect(ran.stdout).toBe("");
    } finally {
      await setOrders({ keep: order("keep"), repl: order("repl2"), stale: order("stale2"), fresh: order("fresh") });
    }
  });

  it("bought and cancelled nothing during the previews", async () => {
    expect(await sandbox.management.orders()).toHaveLength(ordersBeforePreviews);
    expect(String((await sandbox.management.account(sandbox.username)).balance)).toBe(balanceBeforePreviews);
    for (const name of ["gone", "repl", "stale"]) {
      expect((await sandbox.management.order(orderNo[name]!)).refund ?? null).toBeNull();
    }
  });
});

// Why the summary and the cap are not policies: a stack policy (validateStack)
// sees an unchanged Order with its outputs, but a new Order, a replacement and
// an in-place update (verification method) alike as inputs only, with no
// order number or payment time, and a removed Order not at all.
describe("what a stack policy sees of Orders at preview", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;

  beforeAll(async () => void ({ sandbox, world } = await startSandboxWorld()));
  afterAll(() => closeSandboxWorld({ sandbox, world }));

  it("cannot tell a purchase from a replacement or a method change, and never sees a removed Order", async () => {
    const one = (label: string): OrderArgs => ({ productCode: "sandbox-dv-single", domain: `${label}.view.e2e.example.com`, verificationMethod: "dns" });
    const stack = await openStack(world, "stack-view", ordersProgram({ keep: one("keep"), repl: one("repl"), upd: one("upd"), gone: one("gone") }));
    try {
      await stack.up();
      const out = path.join(world.environment.homeDir, "stack-view.json");
      stack.workspace.envVars.STACK_VIEW_OUT = out;
      await stack.preview({
        program: ordersProgram({ keep: one("keep"), repl: one("repl2"), upd: { ...one("upd"), verificationMethod: "cname" }, fresh: one("fresh") }),
        policyPacks: [path.join(repoRoot, "tests", "e2e", "fixtures", "stack-view-pack")],
      });
      const seen = Object.fromEntries((JSON.parse(fs.readFileSync(out, "utf8")) as Array<{ name: string; props: Record<string, unknown> }>).map((o) => [o.name, o.props]));
      expect(Object.keys(seen).sort()).toEqual(["fresh", "keep", "repl", "upd"]);
      expect(seen.keep).toMatchObject({ orderNo: expect.stringMatching(/./), paidAt: expect.stringMatching(/./), price: { total: "100.00" } });
      for (const name of ["fresh", "repl", "upd"]) {
        expect(Object.keys(seen[name]!).sort(), name).toEqual(["domain", "quotedPrice", "verificationMethod"]);
        expect(seen[name]!.quotedPrice).toBe("100.00");
      }
    } finally {
      await stack.destroy().catch(() => undefined);
    }
  });
});
