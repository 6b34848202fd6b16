// The one client of the sandbox's management API (`<sandbox url>/management`,
// routes in docs/design.md) for every test project — sdk, sandbox, examples,
// e2e — and the scripts that drive a sandbox (demo, engine benchmark): the
// tests' view of what happened at the "service", independent of the SDK.
// Typed methods for what the tests ask; `call` for any other route (throws on
// an HTTP error), `request` for the answer as it is (status and body, for
// tests of the management API itself).
import type { FaultSettings, OperationName, RuntimeConfig } from "certreseller-sandbox";

export type SandboxConfig = Partial<RuntimeConfig>;
export type { FaultSpec } from "certreseller-sandbox";

export interface SandboxOrder {
  orderNo: string;
  [field: string]: unknown;
}

export interface RequestLogEntry {
  at: string;
  operation: OperationName | string;
  appId?: string | null;
  orderNo?: string | null;
  code: number;
  httpStatus: number;
  durationMs: number;
}

export interface AccountView {
  apiKey?: string;
  username: string;
  balance: string | number;
  creditLine?: string | number;
}

export class ManagementClient {
  /** `baseUrl`: the sandbox's management URL (`RunningSandbox.managementUrl`). */
  constructor(readonly baseUrl: string) {}

  /** The client of a running sandbox (anything with a `managementUrl`). */
  static of(sandbox: { managementUrl: string }): ManagementClient {
    return new ManagementClient(sandbox.managementUrl);
  }

  async orders(): Promise<SandboxOrder[]> {
    return listOf<SandboxOrder>(await this.call("GET", "/orders"), "orders");
  }
  order(orderNo: string): Promise<SandboxOrder> {
    return this.call("GET", `/orders/${encodeURIComponent(orderNo)}`) as Promise<SandboxOrder>;
  }
  async requests(): Promise<RequestLogEntry[]> {
    return listOf<RequestLogEntry>(await this.call("GET", "/requests"), "requests");
  }
  async clearRequests(): Promise<void> {
    await this.call("DELETE", "/requests");
  }
  /** How many times each operation was called since the log was last cleared. */
  async operationCounts(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const entry of await this.requests()) counts[entry.operation] = (counts[entry.operation] ?? 0) + 1;
    return counts;
  }
  async setFaults(faults: FaultSettings): Promise<void> {
    await this.call("PUT", "/faults", faults);
  }
  /** The fault table as it stands: an entry with `times` is gone once it has fired that often. */
  async faults(): Promise<FaultSettings> {
    return (await this.call("GET", "/faults")) as FaultSettings;
  }
  async clearFaults(): Promise<void> {
    await this.call("DELETE", "/faults");
  }
  async setConfig(config: SandboxConfig): Promise<void> {
    await this.call("PUT", "/config", config);
  }
  /** The sandbox's clock (ISO 8601), which `advanceClock` moves ahead of real time. */
  async clock(): Promise<{ now: string }> {
    return (await this.call("GET", "/clock")) as { now: string };
  }
  async advanceClock(seconds: number): Promise<{ now: string }> {
    return (await this.call("POST", "/clock/advance", { seconds })) as { now: string };
  }
  async accounts(): Promise<AccountView[]> {
    return listOf<AccountView>(await this.call("GET", "/accounts"), "accounts");
  }
  async account(username: string): Promise<AccountView> {
    const found = (await this.accounts()).find((a) => a.username === username);
    if (!found) throw new Error(`sandbox has no account ${username}`);
    return found;
  }
  async createAccount(body: { username: string; balance?: number | string; creditLine?: number | string }): Promise<AccountView & { apiKey: string }> {
    return (await this.call("POST", "/accounts", body)) as AccountView & { apiKey: string };
  }
  async forceState(orderNo: string, action: "issue" | "fail" | "revoke"): Promise<void> {
    await this.call("POST", `/orders/${encodeURIComponent(orderNo)}/${action}`);
  }
  async rootPem(): Promise<string> {
    return this.text("/ca/root.pem");
  }
  async chainPem(): Promise<string> {
    return this.text("/ca/chain.pem");
  }

  private async text(route: string): Promise<string> {
    const response = await fetch(`${this.baseUrl}${route}`);
    if (!response.ok) throw new Error(`sandbox GET ${route}: HTTP ${response.status}`);
    return response.text();
  }

  /**
   * `method route` with `body` as JSON: the answer's body (JSON parsed, the
   * envelope's `data` if the answer is one). Throws naming the route on any
   * non-2xx answer.
   */
  async call<T = any>(method: string, route: string, body?: unknown): Promise<T> {
    const { status, text } = await this.send(method, route, body);
    if (status < 200 || status > 299) throw new Error(`sandbox ${method} ${route}: HTTP ${status} ${text}`);
    if (!text) return undefined as T;
    const parsed = JSON.parse(text) as unknown;
    // Tolerate the Partner API's envelope if the management API uses it too.
    if (parsed && typeof parsed === "object" && "data" in parsed && "code" in parsed) return (parsed as { data: T }).data;
    return parsed as T;
  }

  /** `method route` with `body` as JSON: the status and the body as sent (JSON parsed, else text), whatever the status. */
  async request<T = any>(method: string, route: string, body?: unknown): Promise<{ status: number; body: T }> {
    const { status, text } = await this.send(method, route, body);
    return { status, body: (text.startsWith("{") || text.startsWith("[") ? JSON.parse(text) : text) as T };
  }

  private async send(method: string, route: string, body?: unknown): Promise<{ status: number; text: string }> {
    const response = await fetch(`${this.baseUrl}${route}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  }
}

function listOf<T>(value: unknown, key: string): T[] {
  if (Array.isArray(value)) return value as T[];
  const inner = (value as Record<string, unknown> | undefined)?.[key];
  if (Array.isArray(inner)) return inner as T[];
  throw new Error(`sandbox management answer is not a list of ${key}: ${JSON.stringify(value).slice(0, 200)}`);
}
