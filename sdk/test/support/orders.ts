/**
 * Orders bought and submitted straight through the Partner API client, for
 * tests of the resources that follow an order (Validation, Certificate):
 * they exercise those resources against the sandbox without depending on
 * the Order resource's own handlers.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startSandbox, type RunningSandbox, type SandboxOptions } from "certreseller-sandbox";
import type { CreateOrderRequest, PartnerApi } from "../../src/client/types.js";
import { closeClients, createContext, type ProviderContext } from "../../src/provider/index.js";
import { ManagementClient } from "../../../tests/support/sandbox-management.js";

/** What the Order resource would report after create: the order and its submission. */
export interface SubmittedOrder {
  orderNo: string;
  requestId: string;
  verificationMethod: string;
  installmentsCount: number | undefined;
}

/** CreateOrder then ApplySign, as the Order resource's create does. */
export async function buyAndSubmit(api: PartnerApi, request: CreateOrderRequest): Promise<SubmittedOrder> {
  const created = await api.createOrder(request);
  const signed = await api.applySign({ orderNo: created.orderNo });
  return {
    orderNo: created.orderNo,
    requestId: signed.requestId ?? "",
    verificationMethod: signed.verificationMethod ?? "",
    installmentsCount: created.installmentsCount,
  };
}

/** A sandbox and a provider context of one resource type bound to its first account, with the log lines. */
export interface SandboxBench {
  sandbox: RunningSandbox;
  ctx: ProviderContext;
  lines: string[];
  /** A context for another base URL or key (same type and log). */
  ctxWith(settings: { baseUrl?: string; apiKey?: string }): ProviderContext;
  mgmt<T = any>(method: string, route: string, body?: unknown): Promise<T>;
  buy(request: CreateOrderRequest): Promise<SubmittedOrder>;
  stop(): Promise<void>;
}

export async function startBench(type: string, options: SandboxOptions = {}): Promise<SandboxBench> {
  const sandbox = await startSandbox({ port: 0, issueAfterSeconds: 3600, ...options });
  const journalDir = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-bench-"));
  const lines: string[] = [];
  const ctxWith = (s: { baseUrl?: string; apiKey?: string }) =>
    createContext({
      type,
      settings: { apiKey: s.apiKey ?? sandbox.accounts[0]!.apiKey, baseUrl: s.baseUrl ?? sandbox.url, journalDir },
      sink: (level, line) => lines.push(`${level}: ${line}`),
    });
  const ctx = ctxWith({});
  return {
    sandbox,
    ctx,
    lines,
    ctxWith,
    mgmt: (method, route, body) => ManagementClient.of(sandbox).call(method, route, body),
    buy: (request) => buyAndSubmit(ctx.api(), request),
    async stop() {
      await closeClients();
      await sandbox.stop();
      fs.rmSync(journalDir, { recursive: true, force: true });
    },
  };
}
