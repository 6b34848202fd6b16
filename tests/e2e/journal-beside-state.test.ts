// Issue 38, through the engine: the stack's state is in a bucket (Pulumi's own s3:// or azblob:// backend, on MinIO
// or Azurite on 127.0.0.1) and no journal setting is set, so the purchase journal lives beside the state. An `up`
// killed (process tree, SIGKILL) while CreateOrder is in flight on runner 1, then the next `up` from another working
// copy with another HOME and PULUMI_HOME (a CI retry on a fresh machine) against the same backend: it names the
// possibly charged order and buys nothing; killed after CreateOrder answered, it resumes the order. Never two orders.
import type { ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FaultSettings } from "certreseller-sandbox";
import * as crypto from "node:crypto";
import { cachedBinary, FAKE_GCS, MINIO, startAzurite, startFakeGcs, startMinio, type RunningStore } from "../../scripts/journal-stores/index.js";
import { findOnPath } from "../../scripts/engine/which.js";
import { inlineStack, repoRoot, type IsolatedEnvironment } from "../../scripts/engine/index.js";
import { openBucketStore, PurchaseJournal } from "../../sdk/src/journal/index.js";
import { skipWithout } from "../support/ci.js";
import { ordersOnceSold } from "./harness/kill-points.js";
import { isAlive, killTree } from "./harness/process-tree.js";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { createWorld, failureOf, recorder, type E2eWorld } from "./harness/stack.js";
import { startChildUp } from "./harness/child-up.js";
import type { ChildUpSpec } from "./harness/up-child.js";
import { ordersProgram, type OrderArgs } from "./programs.js";
import { until } from "./harness/waiting.js";

const LATENCY_MS = 3000;

interface Backend {
  name: string;
  missing?: string;
  start(): Promise<RunningStore>;
  /** Pulumi's backend URL for the server, and the journal URL the provider must then use (beside the state). */
  urls(server: RunningStore): { backend: string; journal: string };
}

// Cached, or built (once, under a lock shared with the sdk project's setup) when the server starts.
const missing = (server: typeof MINIO): string | undefined =>
  fs.existsSync(cachedBinary(server)) || findOnPath("go") || fs.existsSync("/usr/local/go/bin/go") ? undefined : `${server.label} is not cached and no Go toolchain can build it`;

/**
 * Pulumi's gs backend wants Application Default Credentials even with an emulator (it never asks for a token
 * there): a throwaway service account whose token endpoint is a closed loopback port.
 */
function emulatorCredentials(dir: string): string {
  const { privateKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  const file = path.join(dir, "emulator-service-account.json");
  fs.writeFileSync(
    file,
    JSON.stringify({
      type: "service_account",
      project_id: "journal-e2e",
      private_key_id: "e2e",
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }),
      client_email: "journal@journal-e2e.iam.gserviceaccount.com",
      client_id: "1",
      token_uri: "http://127.0.0.1:9/token",
    }),
  );
  return file;
}

const backends: Backend[] = [
  {
    name: "s3:// on MinIO",
    missing: missing(MINIO),
    start: () => startMinio((line) => console.error(`[minio] ${line}`), ["state"]),
    urls: (server) => {
      const query = `?endpoint=${encodeURIComponent(server.endpoint)}&region=us-east-1&s3ForcePathStyle=true`;
      return { backend: `s3://state/pulumi${query}`, journal: `s3://state/pulumi/.certreseller/journal${query}` };
    },
  },
  {
    name: "gs:// on fake-gcs-server",
    missing: missing(FAKE_GCS),
    start: async () => {
      const server = await startFakeGcs((line) => console.error(`[fake-gcs] ${line}`), ["state"]);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-gcs-adc-"));
      const stop = server.stop;
      return { ...server, env: { ...server.env, GOOGLE_APPLICATION_CREDENTIALS: emulatorCredentials(dir) }, stop: async () => (await stop(), fs.rmSync(dir, { recursive: true, force: true })) };
    },
    urls: () => ({ backend: "gs://state/pulumi", journal: "gs://state/pulumi/.certreseller/journal" }),
  },
  {
    name: "azblob:// on Azurite",
    start: () => startAzurite((line) => console.error(`[azurite] ${line}`), ["state"]),
    urls: () => ({ backend: "azblob://state", journal: "azblob://state/.certreseller/journal" }),
  },
];

describe.each(backends)("a killed up and its retry on a fresh runner, the state in $name and no journal setting", (backend) => {
  const skip = skipWithout(backend.missing);
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let server: RunningStore;
  const stacks: Stack[] = [];
  const children: ChildProcess[] = [];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-beside-state-"));
  const workingCopies: string[] = [];

  beforeAll(async () => {
    if (skip) return;
    sandbox = await startTestSandbox();
    world = createWorld(sandbox);
    server = await backend.start();
  });
  afterAll(async () => {
    for (const child of children) if (child.pid && isAlive(child.pid)) killTree(child.pid);
    for (const stack of stacks) await stack.destroy().catch(() => undefined);
    await sandbox?.stop();
    await server?.stop();
    world?.dispose();
    fs.rmSync(scratch, { recursive: true, force: true });
    for (const dir of workingCopies) fs.rmSync(dir, { recursive: true, force: true });
  });

  const journal = (): PurchaseJournal => new PurchaseJournal(openBucketStore(backend.urls(server).journal, {}, server.env));
  const ordersFor = async (domain: string) => (await sandbox.management.orders()).filter((o) => (o.domains as string[] | undefined)?.includes(domain));

  /** A runner: its own home, PULUMI_HOME and working copy; the CI markers; the bucket's credentials; the bucket backend. */
  function runner(name: string): IsolatedEnvironment {
    const home = path.join(scratch, name, "home");
    const pulumiHome = path.join(scratch, name, "pulumi-home");
    fs.mkdirSync(home, { recursive: true });
    fs.mkdirSync(pulumiHome, { recursive: true });
    // The project folder is named after the backend folder's parent (scripts/engine/automation.ts): one per runner.
    workingCopies.push(path.join(repoRoot, "tmp", "pulumi-projects", `beside-${name}-${path.basename(scratch)}`));
    const env = { ...world.environment.env, ...server.env, PULUMI_BACKEND_URL: backend.urls(server).backend, HOME: home, PULUMI_HOME: pulumiHome, CI: "true", GITHUB_ACTIONS: "true" };
    return { ...world.environment, backendDir: path.join(scratch, `beside-${name}-${path.basename(scratch)}`, "state"), homeDir: pulumiHome, env, dispose: () => {} };
  }

  /** No journal setting at all: only the API's. */
  const config = () => ({ "certreseller:apiKey": { value: sandbox.apiKey, secret: true }, "certreseller:baseUrl": { value: sandbox.url } });

  /** `up` on runner 1, killed at `reached`; the runner is then thrown away. */
  async function cancelledJob(project: string, order: OrderArgs, faults: FaultSettings, reached: () => Promise<void>): Promise<void> {
    await sandbox.management.clearRequests();
    await sandbox.management.clearFaults();
    await sandbox.management.setFaults(faults);
    const { dispose: _dispose, ...environment } = runner(`${project}-1`);
    const spec: ChildUpSpec = { environment, projectName: project, stackName: "ci", config: config(), program: "ordersThenHold", args: { orders: { site: order }, holdMs: 20_000 } };
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
    await sandbox.management.clearFaults();
    await ordersOnceSold(sandbox, order.domain as string);
    expect(fs.existsSync(path.join(scratch, `${project}-1`, "home", ".certreseller")), "nothing was journaled in the runner's home").toBe(false);
    fs.rmSync(path.join(scratch, `${project}-1`), { recursive: true, force: true });
  }

  /** Runner 2: another working copy and PULUMI_HOME, the same backend. The killed CLI's lock is cleared as a user would. */
  async function rerunStack(project: string, order: OrderArgs): Promise<Stack> {
    const stack = await inlineStack({ environment: runner(`${project}-2`), projectName: project, stackName: "ci", program: ordersProgram({ site: order }), config: config() });
    stacks.push(stack);
    await stack.cancel();
    return stack;
  }

  it.skipIf(skip)("killed while CreateOrder is in flight: the retry names the possibly charged purchase and buys nothing", async () => {
    const project = "beside-lost";
    const domain = "beside-lost.e2e.example.com";
    const order: OrderArgs = { productCode: "sandbox-dv-single", domain, verificationMethod: "dns" };
    await cancelledJob(project, order, { CreateOrder: { latencyMs: LATENCY_MS, times: 1 } }, async () => {
      await until("the purchase intent is beside the state", async () => (await journal().list()).length > 0);
      await until("the sandbox holds the CreateOrder", async () => (await sandbox.management.faults()).CreateOrder === undefined);
    });
    expect(await ordersFor(domain)).toHaveLength(1);
    expect((await journal().list()).map((e) => e.entry?.domain)).toContain(domain);

    await sandbox.management.clearRequests();
    const stack = await rerunStack(project, order);
    const message = await failureOf(stack.up());
    expect(message).toContain("MAY have been charged");
    // The command it prints reaches the journal beside the state, options included (a custom endpoint lives only there).
    expect(message).toMatch(new RegExp(`CERTRESELLER_JOURNAL_URL='?${backend.urls(server).journal.replace(/[.?*+^$()[\]{}|\\/]/g, "\\$&")}'? `));
    expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
    expect(await ordersFor(domain)).toHaveLength(1);
  });

  it.skipIf(skip)("killed after CreateOrder answered: the retry resumes the order from beside the state, buying nothing, and the preview names where the journal is", async () => {
    const project = "beside-resume";
    const domain = "beside-resume.e2e.example.com";
    const order: OrderArgs = { productCode: "sandbox-dv-single", domain, verificationMethod: "dns" };
    await cancelledJob(project, order, { ApplySign: { latencyMs: LATENCY_MS } }, () =>
      until("the order number is beside the state", async () => (await journal().list()).some((e) => e.entry?.orderNo !== undefined)),
    );
    const bought = await ordersFor(domain);
    expect(bought).toHaveLength(1);

    await sandbox.management.clearRequests();
    const stack = await rerunStack(project, order);
    const t = recorder();
    const up = await stack.up({ onOutput: t.onOutput });
    expect(t.output).toContain(`resuming order ${bought[0]!.orderNo}`);
    expect(up.outputs.siteOrderNo?.value).toBe(bought[0]!.orderNo);
    expect((await sandbox.management.operationCounts()).CreateOrder ?? 0).toBe(0);
    expect(await ordersFor(domain)).toHaveLength(1);
    // The engine holds the order now: the next run's diff removes its entry (the other test's lost answer stays).
    await stack.preview();
    expect((await journal().list()).filter((e) => e.entry?.domain === domain)).toEqual([]);

    // A new Order of the same stack: the preview's money line names the journal beside the state.
    const other = recorder();
    await stack.preview({ program: ordersProgram({ site: order, more: { ...order, domain: `more-${domain}` } }), onOutput: other.onOutput });
    expect(other.output).toMatch(new RegExp(`will buy sandbox-dv-single .*\\(purchase journal ${backend.urls(server).journal.replace(/\?.*$/, "").replace(/[./]/g, "\\$&")}, beside the state\\)`));
  });
});
