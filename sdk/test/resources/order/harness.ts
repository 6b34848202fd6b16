import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startSandbox, type RunningSandbox, type SandboxOptions } from "certreseller-sandbox";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { closeClients, createContext, type ProviderContext } from "../../../src/provider/index.js";
import { handlers } from "../../../src/resources/order/handlers.js";
import type { OrderInputs } from "../../../src/resources/order/inputs.js";
import type { OrderState } from "../../../src/resources/order/state.js";
import { ManagementClient } from "../../../../tests/support/sandbox-management.js";

/** A sandbox, a provider context bound to its first account, a journal dir and the log lines. */
export interface Harness {
  sandbox: RunningSandbox;
  ctx: ProviderContext;
  journalDir: string;
  lines: string[];
  /** A context with another clock (renewal tests). */
  ctxAt(now: Date): ProviderContext;
  mgmt<T = any>(method: string, route: string, body?: unknown): Promise<T>;
  /** check → inputs, failing the test on any failure. */
  plan(raw: Record<string, unknown>): Promise<OrderInputs>;
  /** check + create. */
  buy(raw: Record<string, unknown>): Promise<{ id: string; outs: OrderState; inputs: OrderInputs }>;
  /** Partner operations the sandbox saw, by name. */
  operations(): Promise<string[]>;
  stop(): Promise<void>;
}

export const PROVIDER_TEXT = "exports.handler = /* serialized provider */";

export async function startHarness(options: SandboxOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox({ port: 0, issueAfterSeconds: 3600, ...options });
  const journalDir = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-journal-"));
  const lines: string[] = [];
  const settings = { apiKey: sandbox.accounts[0]!.apiKey, baseUrl: sandbox.url, journalDir };
  const makeCtx = (now?: () => Date) =>
    createContext({ type: "Order", settings, sink: (level, line) => lines.push(`${level}: ${line}`), now });
  const ctx = makeCtx();
  const management = ManagementClient.of(sandbox);
  const mgmt = (method: string, route: string, body?: unknown) => management.call(method, route, body);
  let resources = 0;
  const plan = async (raw: Record<string, unknown>) => {
    // Each planned resource gets its own name, hence its own journal entry.
    const journalKey = `proj/dev/site-${++resources}`;
    const result = await handlers.check!(ctx, {} as OrderInputs, { journalKey, ...raw } as unknown as OrderInputs);
    if (result.failures && result.failures.length > 0) throw new Error(`unexpected check failures: ${JSON.stringify(result.failures)}`);
    return { ...result.inputs!, __provider: PROVIDER_TEXT } as OrderInputs;
  };
  return {
    sandbox,
    ctx,
    journalDir,
    lines,
    ctxAt: (now) => makeCtx(() => now),
    mgmt,
    plan,
    async buy(raw) {
      const inputs = await plan(raw);
      const { id, outs } = await handlers.create(ctx, inputs);
      return { id, outs: outs as OrderState, inputs };
    },
    async operations() {
      const log = (await mgmt("GET", "/requests")) as { operation: string }[];
      return log.map((entry) => entry.operation);
    },
    async stop() {
      await closeClients();
      await sandbox.stop();
      fs.rmSync(journalDir, { recursive: true, force: true });
    },
  };
}

/**
 * The file's harness with its hooks registered: started before the file,
 * stopped after it and, with `resetEachTest`, the faults, request log and log
 * lines cleared before each test. Use at the top level of a test file; the
 * returned object forwards to the harness once it has started.
 */
export function useHarness(options: SandboxOptions = {}, resetEachTest: { faults?: boolean; requests?: boolean } = {}): Harness {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await startHarness(options);
  });
  afterAll(async () => harness?.stop());
  if (resetEachTest.faults || resetEachTest.requests) {
    beforeEach(async () => {
      if (resetEachTest.faults) await harness!.mgmt("DELETE", "/faults");
      if (resetEachTest.requests) await harness!.mgmt("DELETE", "/requests");
      harness!.lines.length = 0;
    });
  }
  return new Proxy({} as Harness, {
    get(_target, key) {
      if (!harness) throw new Error("the harness starts in beforeAll");
      return harness[key as keyof Harness];
    },
  });
}

/**
 * The sandbox's clock as a renewal test walks it: `now()` in ms, and
 * `advanceTo(instant)` (never backwards), which answers the new time.
 */
export function sandboxClock(h: Pick<Harness, "mgmt">): { now(): Promise<number>; advanceTo(instant: number): Promise<Date> } {
  const now = async () => Date.parse(((await h.mgmt("GET", "/clock")) as { now: string }).now);
  return {
    now,
    async advanceTo(instant) {
      await h.mgmt("POST", "/clock/advance", { seconds: Math.max(0, Math.ceil((instant - (await now())) / 1000)) });
      return new Date(await now());
    },
  };
}

/** How many times `op` is in a list of operation names (e.g. the sandbox's request log). */
export const count = (ops: string[], op: string): number => ops.filter((o) => o === op).length;

/** The error a run fails with; a run that succeeds fails the test. */
export async function failureOf(run: Promise<unknown>): Promise<Error> {
  return run.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as Error,
  );
}
