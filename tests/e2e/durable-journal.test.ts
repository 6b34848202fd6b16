// A CI job cancelled mid-create and rerun on a FRESH runner (new home
// directory, new PULUMI_HOME; the state backend survives, as a real backend
// does), with the purchase journal in an S3-compatible bucket (a real S3
// server on 127.0.0.1). Then a rerun with changed purchase inputs. Each case
// ends by counting the sandbox's orders and what state and journal hold.
import type { ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FaultSettings } from "certreseller-sandbox";
import { inlineStack, type IsolatedEnvironment } from "../../scripts/engine/index.js";
import { main as journalCommand } from "../../sdk/src/cmd/certreseller.js";
import { openJournal } from "../../sdk/src/journal/index.js";
import { startLocalS3, type LocalS3 } from "../../sdk/test/journal/s3-server.js";
import { ordersOnceSold } from "./harness/kill-points.js";
import { isAlive, killTree } from "./harness/process-tree.js";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { createWorld, failureOf, recorder, type E2eWorld } from "./harness/stack.js";
import { startChildUp } from "./harness/child-up.js";
import type { ChildUpSpec } from "./harness/up-child.js";
import { ordersProgram, type OrderArgs } from "./programs.js";
import { until } from "./harness/waiting.js";

const LATENCY_MS = 3000;


describe("the purchase journal in a bucket outlives the CI runner", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let s3: LocalS3;
  const stacks: Stack[] = [];
  const children: ChildProcess[] = [];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-runners-"));

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    world = createWorld(sandbox);
    s3 = await startLocalS3();
  });

  afterAll(async () => {
    for (const child of children) if (child.pid && isAlive(child.pid)) killTree(child.pid);
    for (const stack of stacks) await stack.destroy().catch(() => undefined);
    await sandbox?.stop();
    await s3?.stop();
    world?.dispose();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  const journalUrl = (project: string) => `s3://${s3.bucket}/${project}?endpoint=${encodeURIComponent(s3.endpoint)}`;
  const journalFor = (project: string) => openJournal({ journalDir: "/nonexistent", journalUrl: journalUrl(project) }, s3.env);
  const ordersFor = async (domain: string) => (await sandbox.management.orders()).filter((o) => (o.domains as string[] | undefined)?.includes(domain));

  /** A runner: its own home and PULUMI_HOME, the CI markers, the AWS credentials; the backend is the world's (it survives). */
  function runner(name: string, overrides: Record<string, string> = {}): IsolatedEnvironment {
    const home = path.join(scratch, name, "home");
    const pulumiHome = path.join(scratch, name, "pulumi-home");
    fs.mkdirSync(home, { recursive: true });
    fs.mkdirSync(pulumiHome, { recursive: true });
    const env = { ...world.environment.env, ...s3.env, HOME: home, PULUMI_HOME: pulumiHome, CI: "true", GITHUB_ACTIONS: "true", ...overrides };
    return { ...world.environment, homeDir: pulumiHome, env, dispose: () => {} };
  }

  function config(project: string) {
    // No journalDir: without the bucket the journal would sit in the runner's home and vanish with it.
    return {
      "certreseller:apiKey": { value: sandbox.apiKey, secret: true },
      "certreseller:baseUrl": { value: sandbox.url },
      "certreseller:journalUrl": { value: journalUrl(project) },
    };
  }

  /** `up` on runner 1, killed (process tree, SIGKILL) at `reached`. Returns what it printed. */
  async function cancelledJob(project: string, order: OrderArgs, faults: FaultSettings, reached: () => Promise<void>): Promise<string> {
    await sandbox.management.clearRequests();
    await sandbox.management.clearFaults();
    await sandbox.management.setFaults(faults);
    const { dispose: _dispose, ...environment } = runner(`${project}-1`);
    const spec: ChildUpSpec = {
      environment,
      projectName: project,
      stackName: "ci",
      config: config(project),
      program: "ordersThenHold",
      args: { orders: { site: order }, holdMs: 20_000 },
    };
    const { child, output, exited } = startChildUp(spec, environment.env);
    children.push(child);
    await Promise.race([
      reached(),
      exited.then(() => {
        throw new Error(`the up finished before the kill point:\n${output()}`);
      }),
    ]);
    const killed = killTree(child.pid!);
    await exited;
    await until("every killed process is gone", () => killed.every((pid) => !isAlive(pid)), 10_000);
    // Whatever the sandbox was holding completes, as a real service would after the client vanished.
    await sandbox.management.clearFaults();
    await ordersOnceSold(sandbox, order.domain as string);
    // The runner is thrown away: its home (where a local journal would have been) goes with it.
    expect(fs.existsSync(path.join(scratch, `${project}-1`, "home", ".certreseller")), "nothing was journaled in the runner's home").toBe(false);
    fs.rmSync(path.join(scratch, `${project}-1`), { recursive: true, force: true });
    return output();
  }

  /** Runner 2: a fresh machine, the same backend and bucket. The killed CLI's lock is cleared as a user would (`pulumi cancel`). */
  async function rerunStack(project: string, order: OrderArgs, overrides: Record<string, string> = {}): Promise<Stack> {
    const stack = await inlineStack({
      environment: runner(`${project}-2`, overrides),
      projectName: project,
      stackName: "ci",
      program: ordersProgram({ site: order }),
      config: config(project),
    });
    stacks.push(stack);
    await stack.cancel();
    return stack;
  }

  /** Nothing bought twice, no paid order untracked: each order of the domain is in state or listed by the journal command. */
  async function accountFor(stack: Stack, project: string, domain: string): Promise<void> {
    const orders = await ordersFor(domain);
    expect(orders, "exactly one order was bought").toHaveLength(1);
    const state = JSON.stringify(await stack.exportStack());
    const lines: string[] = [];
    await journalCommand(["journal"], { ...s3.env, CERTRESELLER_JOURNAL_URL: journalUrl(project), CERTRESELLER_API_KEY: sandbox.apiKey, CERTRESELLER_BASE_URL: sandbox.url }, (l) =>
      lines.push(l),
    );
    const listing = lines.join("\n");
    // Tracked: in state, or in the journal by its number, or (answer lost) as the journaled purchase of its domain that MAY have been charged.
    const lost = listing.includes(`purchase: ${domain}`) && listing.includes("MAY have been charged");
    for (const order of orders) expect(state.includes(order.orderNo) || listing.includes(order.orderNo) || lost, `order ${order.orderNo} is tracked`).toBe(true);
  }

  it("cancelled after CreateOrder answered: the rerun on a fresh runner resumes the order from the bucket, buying nothing", async () => {
    const project = "ci-resume";
    const domain = "ci-resume.e2e.example.com";
    const order: OrderArgs = { productCode: "sandbox-dv-single", domain, verificationMethod: "dns" };
    await cancelledJob(project, order, { ApplySign: { latencyMs: LATENCY_MS } }, () =>
      until("the order number is in the bucket", async () => (await journalFor(project).list()).some((e) => e.entry?.orderNo !== undefined)),
    );
    const bought = await ordersFor(domain);
    expect(bought).toHaveLength(1);
    const entries = await journalFor(project).list();
    expect(entries.map((e) => e.entry?.orderNo)).toEqual([bought[0]!.orderNo]);

    await sandbox.management.clearRequests();
    const stack = await rerunStack(project, order);
    const t = recorder();
    const up = await stack.up({ onOutput: t.onOutput });
    expect(t.output).toMatch(/pending operation/i);
    expect(t.output).toContain(`resuming order ${bought[0]!.orderNo}`);
    expect(up.outputs.siteOrderNo?.value).toBe(bought[0]!.orderNo);
    expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
    await accountFor(stack, project, domain);
    // The engine holds the order now: the next run's diff removes the entry.
    await stack.preview();
    expect(await journalFor(project).list()).toEqual([]);
  });

  // The same backend written another way reads as another backend, and so would another backend's stack of the same
  // name: an order under another fingerprint is never resumed silently. The stop names the way on; adopting it is one line.
  it("cancelled after CreateOrder answered; the rerun's runner names the same backend another way (two fingerprints): stops naming the order, adopted, nothing bought", async () => {
    const project = "ci-fingerprint";
    const domain = "ci-fingerprint.e2e.example.com";
    const order: OrderArgs = { productCode: "sandbox-dv-single", domain, verificationMethod: "dns" };
    await cancelledJob(project, order, { ApplySign: { latencyMs: LATENCY_MS } }, () =>
      until("the order number is in the bucket", async () => (await journalFor(project).list()).some((e) => e.entry?.orderNo !== undefined)),
    );
    const bought = await ordersFor(domain);
    expect(bought).toHaveLength(1);
    const orderNo = bought[0]!.orderNo;

    // The same state files through a symlinked path: the CLI finds the stack, the fingerprint differs.
    const link = path.join(scratch, "state-through-a-link");
    fs.symlinkSync(world.environment.backendDir, link);
    await sandbox.management.clearRequests();
    const stack = await rerunStack(project, order, { PULUMI_BACKEND_URL: `file://${link}` });
    const stop = await failureOf(stack.up());
    expect(stop).toMatch(new RegExp(`holds order ${orderNo} .*under another backend`));
    expect(stop).toContain("adoptOrderNo");
    expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
    await accountFor(stack, project, domain);

    // The user recognises the order as this stack's: adopted, nothing bought; the engine holding it tidies the entry.
    const up = await stack.up({ program: ordersProgram({ site: { ...order, adoptOrderNo: orderNo } }) });
    expect(up.outputs.siteOrderNo?.value).toBe(orderNo);
    expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
    await stack.preview({ program: ordersProgram({ site: { ...order, adoptOrderNo: orderNo } }) });
    expect(await journalFor(project).list()).toEqual([]);
  });

  it("destroy from a runner whose credentials the bucket refuses: every order is refunded, the entries left are named", async () => {
    const project = "ci-destroy";
    const orders: Record<string, OrderArgs> = {
      first: { productCode: "sandbox-dv-single", domain: "ci-destroy-1.e2e.example.com", verificationMethod: "dns" },
      second: { productCode: "sandbox-dv-single", domain: "ci-destroy-2.e2e.example.com", verificationMethod: "dns" },
    };
    const bought = await inlineStack({ environment: runner(`${project}-1`), projectName: project, stackName: "ci", program: ordersProgram(orders), config: config(project) });
    stacks.push(bought);
    const up = await bought.up();
    const orderNos = [up.outputs.firstOrderNo!.value as string, up.outputs.secondOrderNo!.value as string];
    // The entries are still there: the engine holds the orders, but no later diff has tidied them yet.
    expect((await journalFor(project).list()).map((e) => e.entry?.orderNo).sort()).toEqual([...orderNos].sort());

    await sandbox.management.clearRequests();
    const stack = await inlineStack({
      environment: runner(`${project}-2`, { AWS_ACCESS_KEY_ID: "ANOTHER-ACCOUNT" }),
      projectName: project,
      stackName: "ci",
      program: ordersProgram(orders),
      config: config(project),
    });
    const t = recorder();
    await stack.destroy({ onOutput: t.onOutput });
    expect((await sandbox.management.operationCounts()).CancelOrder).toBe(2);
    for (const orderNo of orderNos) {
      expect((await sandbox.management.order(orderNo)).certStatus, `order ${orderNo} refunded`).toBe(5);
      expect(t.output).toMatch(new RegExp(`order ${orderNo} cancelled; refunded 100\\.00`));
      expect(t.output).toMatch(new RegExp(`could not tidy the purchase journal \\(.*\\)\\. An entry for order ${orderNo} may be left at s3://`));
    }
    // The entries are left (the bucket refused this runner), named in the warnings, and settled: the journal command sees them refunded.
    expect(await journalFor(project).list()).toHaveLength(2);
  });

  it("cancelled while CreateOrder's answer was delayed: the rerun on a fresh runner buys nothing and says how to adopt", async () => {
    const project = "ci-lost";
    const domain = "ci-lost.e2e.example.com";
    const order: OrderArgs = { productCode: "sandbox-dv-single", domain, verificationMethod: "dns" };
    // `times: 1`: the sandbox drops the entry when it takes the request and starts holding it (the intent in the
    // bucket alone does not mean CreateOrder has left).
    await cancelledJob(project, order, { CreateOrder: { latencyMs: LATENCY_MS, times: 1 } }, async () => {
      await until("the purchase intent is in the bucket", async () => (await journalFor(project).list()).length > 0);
      await until("the sandbox holds the CreateOrder", async () => (await sandbox.management.faults()).CreateOrder === undefined);
    });
    const bought = await ordersFor(domain);
    expect(bought).toHaveLength(1);

    await sandbox.management.clearRequests();
    const stack = await rerunStack(project, order);
    const message = await failureOf(stack.up());
    expect(message).toContain("MAY have been charged");
    expect(message).toContain("adoptOrderNo");
    expect(message).toContain("npx --no-install certreseller journal rm");
    expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
    await accountFor(stack, project, domain);
    // The documented way on: the order found in the account, adopted.
    const up = await stack.up({ program: ordersProgram({ site: { ...order, adoptOrderNo: bought[0]!.orderNo } }) });
    expect(up.outputs.siteOrderNo?.value).toBe(bought[0]!.orderNo);
    expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
    await accountFor(stack, project, domain);
  });

  it("rerun with changed purchase inputs after an interrupted create: nothing bought, the choice is given, the orphan is shown", async () => {
    const project = "ci-changed";
    const domain = "ci-changed.e2e.example.com";
    const order: OrderArgs = { productCode: "sandbox-dv-single", domain, verificationMethod: "dns" };
    await cancelledJob(project, order, { ApplySign: { latencyMs: LATENCY_MS } }, () =>
      until("the order number is in the bucket", async () => (await journalFor(project).list()).some((e) => e.entry?.orderNo !== undefined)),
    );
    const bought = await ordersFor(domain);
    expect(bought).toHaveLength(1);

    await sandbox.management.clearRequests();
    const stack = await rerunStack(project, { ...order, hashAlgorithm: "sha384" });
    const message = await failureOf(stack.up());
    expect(message).toContain(`holds order ${bought[0]!.orderNo}`);
    expect(message).toContain("changed: hashAlgorithm");
    expect(message).toContain(`adoptOrderNo: "${bought[0]!.orderNo}"`);
    expect(message).toMatch(/cancel order \S+ with the reseller/);
    expect(message).toContain("npx --no-install certreseller journal rm");
    expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
    await accountFor(stack, project, domain);

    // A program that no longer declares that Order (another one instead): the preview shows the paid order the journal still holds.
    const t = recorder();
    // An inline program runs in this process: in CI its environment has the bucket's credentials too.
    Object.assign(process.env, s3.env);
    await stack.preview({ program: ordersProgram({ other: { ...order, domain: `other-${domain}` } }), onOutput: t.onOutput });
    expect(t.output).toContain(`holds PAID order ${bought[0]!.orderNo}`);

    // The user keeps it: adopted with the inputs it was bought with.
    const up = await stack.up({ program: ordersProgram({ site: { ...order, adoptOrderNo: bought[0]!.orderNo } }) });
    expect(up.outputs.siteOrderNo?.value).toBe(bought[0]!.orderNo);
    expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
    await accountFor(stack, project, domain);
    expect(await journalFor(project).list()).toEqual([]);
  });
});
