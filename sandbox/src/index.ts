import type { AddressInfo } from "node:net";
import { loadOrCreateCa, type CertificateAuthority } from "./ca/index.js";
import { SandboxClock } from "./clock.js";
import { CLOUDFLARE_API_PREFIX, createCloudflareStandIn, type CloudflareZone, type ZoneSeed } from "./cloudflare/index.js";
import { FaultRegistry, type FaultSettings } from "./faults/faults.js";
import { DEFAULT_CONFIG, type RecordChecker, type RuntimeConfig, type ServiceContext, type ValidationMode } from "./service/context.js";
import { Store } from "./store/store.js";
import { parseMoney } from "./util/money.js";
import { renderAccount } from "./web/management/index.js";
import { RequestLog } from "./web/request-log.js";
import { createSandboxServer } from "./web/server.js";

export type { CloudflareRequestEntry, CloudflareZone, ZoneSeed as CloudflareZoneSeed } from "./cloudflare/index.js";
export type { FaultSettings, FaultSpec } from "./faults/faults.js";
export type { RuntimeConfig, ValidationMode } from "./service/context.js";
export { OPERATION_NAMES, type OperationName } from "./service/operations.js";

/** Options of the real validator (`validation: "real"`). */
export interface RealValidationOptions {
  /** `host:port` of the DNS server to ask for TXT/CNAME records. */
  resolver?: string;
  /** host → address for the HTTP(S) file checks, so tests need no real DNS. */
  hostOverrides?: Record<string, string>;
  timeoutMs?: number;
}

export interface SandboxAccountSeed {
  username: string;
  /** Decimal string or number, in CNY. */
  balance?: string | number;
  creditLine?: string | number;
}

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Persist state and the CA here; without it everything is in memory. */
  dataDir?: string;
  /** Default `auto`. */
  validation?: ValidationMode;
  /** Auto mode: seconds of sandbox clock between ApplySign and issuance. Default 0. */
  issueAfterSeconds?: number;
  /** Default 180. */
  statusCooldownSeconds?: number;
  /** Default 300. */
  methodCooldownSeconds?: number;
  /** Default 7. */
  refundWindowDays?: number;
  /** Answer with the envelope's code as the HTTP status. Default false (HTTP 200). */
  mirrorStatus?: boolean;
  /** Make upstream cancellation fail, so CancelOrder answers in `audit` mode. */
  upstreamCancelFails?: boolean;
  /** Days before a certificate expires from which the order's next installment can be submitted. Default 30. */
  renewalWindowDays?: number;
  /**
   * Start the sandbox clock at this instant (ISO 8601 or a Date) instead of
   * real time, e.g. to test a given CA/B lifetime period. Only for a fresh
   * store: a data dir that already holds state keeps its clock.
   */
  clockStart?: string | Date;
  faults?: FaultSettings;
  realValidation?: RealValidationOptions;
  /** Accounts to create when no account exists yet; default two funded accounts. */
  accounts?: SandboxAccountSeed[];
  /**
   * Zones of the Cloudflare API stand-in (`<url>/client/v4`), each with the
   * API token that may edit it; a missing id or token is generated. More
   * can be added with `POST /management/cloudflare/zones`.
   */
  cloudflareZones?: ZoneSeed[];
  /** Log one line per partner request: `true` for stderr, or a sink. Default off. */
  logRequests?: boolean | ((line: string) => void);
}

export interface SandboxAccount {
  apiKey: string;
  username: string;
  /** Decimal strings, as the management API reports money (the Partner API sends numbers). */
  balance: string;
  creditLine: string;
}

export interface RunningSandbox {
  /** Base URL of the Partner API (`<url>/partner/<Operation>/`). */
  url: string;
  managementUrl: string;
  /** The test CA's root, to trust issued chains. */
  caCertificatePem: string;
  accounts: SandboxAccount[];
  /** Runtime knobs, shared with `PUT /management/config`. */
  config: RuntimeConfig;
  /** The Cloudflare API stand-in: its base URL (what `cloudflare:baseUrl` takes) and its zones at start. */
  cloudflare: { apiUrl: string; zones: CloudflareZone[] };
  stop(): Promise<void>;
}

export const DEFAULT_ACCOUNTS: SandboxAccountSeed[] = [
  { username: "acme-ops", balance: "5000.00", creditLine: "2000.00" },
  { username: "globex-dev", balance: "1000.00", creditLine: "500.00" },
];

function seedMoney(v: string | number | undefined, field: string): number {
  if (v === undefined) return 0;
  const cents = parseMoney(v);
  if (cents === undefined) throw new RangeError(`accounts[].${field} must be a non-negative amount with at most two decimals, got ${String(v)}`);
  return cents;
}

async function loadRealValidator(opts: RealValidationOptions): Promise<RecordChecker> {
  const { createRealValidator } = await import("./validation/index.js");
  return createRealValidator(opts);
}

/**
 * Starts a local Partner API with a test CA.
 *
 * @example
 * ```ts
 * const sandbox = await startSandbox({ port: 0 });
 * const res = await fetch(`${sandbox.url}/partner/GetUserData/`, {
 *   method: "POST",
 *   headers: { "x-api-key": sandbox.accounts[0].apiKey },
 * });
 * console.log((await res.json()).data.account.balance); // 5000
 * await sandbox.stop();
 * ```
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const config: RuntimeConfig = {
    validation: options.validation ?? DEFAULT_CONFIG.validation,
    issueAfterSeconds: options.issueAfterSeconds ?? DEFAULT_CONFIG.issueAfterSeconds,
    statusCooldownSeconds: options.statusCooldownSeconds ?? DEFAULT_CONFIG.statusCooldownSeconds,
    methodCooldownSeconds: options.methodCooldownSeconds ?? DEFAULT_CONFIG.methodCooldownSeconds,
    refundWindowDays: options.refundWindowDays ?? DEFAULT_CONFIG.refundWindowDays,
    mirrorStatus: options.mirrorStatus ?? DEFAULT_CONFIG.mirrorStatus,
    upstreamCancelFails: options.upstreamCancelFails ?? DEFAULT_CONFIG.upstreamCancelFails,
    renewalWindowDays: options.renewalWindowDays ?? DEFAULT_CONFIG.renewalWindowDays,
  };
  if (!Number.isFinite(config.renewalWindowDays) || config.renewalWindowDays < 0) {
    throw new RangeError(`renewalWindowDays must be a non-negative number, got ${String(options.renewalWindowDays)}`);
  }
  const clockStartMs = options.clockStart === undefined ? undefined : new Date(options.clockStart).getTime();
  if (clockStartMs !== undefined && !Number.isFinite(clockStartMs)) {
    throw new RangeError(`clockStart must be an ISO 8601 instant, got ${String(options.clockStart)}`);
  }
  const store = Store.open(options.dataDir);
  try {
    if (clockStartMs !== undefined && store.accounts.size === 0 && store.orders.size === 0) {
      store.clockOffsetMs = clockStartMs - Date.now();
      store.markMeta();
    }
    return await serve(store, config, options);
  } catch (err) {
    // Release the data dir: a failed start (port taken, bad seed) must not lock it.
    await store.close().catch(() => {});
    throw err;
  }
}

async function serve(store: Store, config: RuntimeConfig, options: SandboxOptions): Promise<RunningSandbox> {
  const clock = new SandboxClock(store.clockOffsetMs);
  const ca: CertificateAuthority = await loadOrCreateCa(options.dataDir, { nowMs: clock.nowMs() });
  const realValidator = config.validation === "real" || options.realValidation !== undefined
    ? await loadRealValidator(options.realValidation ?? {})
    : undefined;
  const cloudflare = createCloudflareStandIn(options.dataDir, options.cloudflareZones);
  const ctx: ServiceContext = { store, clock, config, ca, realValidator, cloudflare };
  const faults = new FaultRegistry(options.faults ?? {});
  const sink = options.logRequests === true
    ? (line: string) => process.stderr.write(`[certreseller-sandbox] ${line}\n`)
    : typeof options.logRequests === "function" ? options.logRequests : undefined;
  const log = new RequestLog(sink);

  if (store.accounts.size === 0) {
    for (const seed of options.accounts ?? DEFAULT_ACCOUNTS) {
      store.createAccount({
        username: seed.username, balance: seedMoney(seed.balance, "balance"), creditLimit: seedMoney(seed.creditLine, "creditLine"),
        now: clock.nowMs(),
      });
    }
  }

  await store.flush();

  const { server, close } = createSandboxServer({ ctx, faults, log, ca });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "[::1]" : host.includes(":") ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}`;
  let stopped: Promise<void> | undefined;
  return {
    url,
    managementUrl: `${url}/management`,
    caCertificatePem: ca.rootPem,
    accounts: [...store.accounts.values()].map((a) => {
      const r = renderAccount(ctx, a);
      return { apiKey: r.apiKey as string, username: a.username, balance: r.balance as string, creditLine: r.creditLine as string };
    }),
    config,
    cloudflare: { apiUrl: `${url}${CLOUDFLARE_API_PREFIX}`, zones: cloudflare.dns.zones() },
    stop: () => (stopped ??= close().then(() => store.close())),
  };
}
