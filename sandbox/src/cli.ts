import { parseArgs } from "node:util";
import { parseFaultSettings, type FaultSettings } from "./faults/faults.js";
import { startSandbox, type SandboxOptions } from "./index.js";
import { OPERATION_NAMES } from "./service/operations.js";

/**
 * `certreseller-sandbox`: every flag also reads from an environment variable
 * (flag wins). Prints one JSON line with the URL, the CA root and the funded
 * accounts on stdout; request logs go to stderr.
 */
const FLAGS = {
  port: { env: "SANDBOX_PORT", type: "string" },
  host: { env: "SANDBOX_HOST", type: "string" },
  "data-dir": { env: "SANDBOX_DATA_DIR", type: "string" },
  validation: { env: "SANDBOX_VALIDATION", type: "string" },
  "issue-after": { env: "SANDBOX_ISSUE_AFTER", type: "string" },
  "status-cooldown": { env: "SANDBOX_STATUS_COOLDOWN", type: "string" },
  "method-cooldown": { env: "SANDBOX_METHOD_COOLDOWN", type: "string" },
  "refund-window-days": { env: "SANDBOX_REFUND_WINDOW_DAYS", type: "string" },
  "mirror-status": { env: "SANDBOX_MIRROR_STATUS", type: "boolean" },
  "upstream-cancel-fails": { env: "SANDBOX_UPSTREAM_CANCEL_FAILS", type: "boolean" },
  "renewal-window-days": { env: "SANDBOX_RENEWAL_WINDOW_DAYS", type: "string" },
  "clock-start": { env: "SANDBOX_CLOCK_START", type: "string" },
  resolver: { env: "SANDBOX_RESOLVER", type: "string" },
  "host-override": { env: "SANDBOX_HOST_OVERRIDES", type: "string", multiple: true },
  faults: { env: "SANDBOX_FAULTS", type: "string" },
  fault: { env: "SANDBOX_FAULT", type: "string", multiple: true },
  "cloudflare-zone": { env: "SANDBOX_CLOUDFLARE_ZONES", type: "string", multiple: true },
  quiet: { env: "SANDBOX_QUIET", type: "boolean" },
  help: { env: "", type: "boolean" },
} as const;

const USAGE = `certreseller-sandbox [options]   (each option also as the environment variable shown)
  --port N                 SANDBOX_PORT            0 = a free port (default 0)
  --host H                 SANDBOX_HOST            default 127.0.0.1
  --data-dir DIR           SANDBOX_DATA_DIR        persist state and CA (default: in memory)
  --validation MODE        SANDBOX_VALIDATION      auto | published | real (default auto)
  --issue-after S          SANDBOX_ISSUE_AFTER     auto mode: seconds after ApplySign (default 0)
  --status-cooldown S      SANDBOX_STATUS_COOLDOWN GetCertificateStatus cooldown (default 180)
  --method-cooldown S      SANDBOX_METHOD_COOLDOWN ChangeVertificationMethod cooldown (default 300)
  --refund-window-days N   SANDBOX_REFUND_WINDOW_DAYS (default 7)
  --mirror-status          SANDBOX_MIRROR_STATUS   HTTP status = envelope code
  --upstream-cancel-fails  SANDBOX_UPSTREAM_CANCEL_FAILS  CancelOrder falls back to audit mode
  --renewal-window-days N  SANDBOX_RENEWAL_WINDOW_DAYS  next installment submittable N days before expiry (default 30)
  --clock-start ISO        SANDBOX_CLOCK_START     start the sandbox clock at this instant (fresh data dir only)
  --resolver HOST:PORT     SANDBOX_RESOLVER        real mode: DNS server
  --host-override H=ADDR   SANDBOX_HOST_OVERRIDES  real mode: HTTP checks of H go to ADDR (repeatable; env comma-separated)
  --faults JSON            SANDBOX_FAULTS          {"CreateOrder":{"commitThenFail":"500"}, ...}
  --fault OP:KNOB=VALUE    SANDBOX_FAULT           e.g. CreateOrder:errorRate=0.5 (repeatable; env comma-separated)
  --cloudflare-zone NAME[=ID[:TOKEN]]  SANDBOX_CLOUDFLARE_ZONES  a zone of the Cloudflare API stand-in at <url>/client/v4
                           (repeatable; env comma-separated; a missing id or token is generated and printed)
  --quiet                  SANDBOX_QUIET           no request log on stderr
Operations: ${OPERATION_NAMES.join(", ")}`;

class UsageError extends Error {}

function num(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === "" || !Number.isFinite(n) || n < 0) throw new UsageError(`--${name} must be a non-negative number, got ${JSON.stringify(v)}`);
  return n;
}

function parseFaultFlag(items: string[]): FaultSettings {
  const raw: Record<string, Record<string, unknown>> = {};
  for (const item of items) {
    const m = /^(\w+):(\w+)=(.*)$/.exec(item.trim());
    if (m === null) throw new UsageError(`--fault must look like Operation:knob=value, got ${JSON.stringify(item)}`);
    const [, op, knob, value] = m as unknown as [string, string, string, string];
    const parsed: unknown = value === "true" ? true : value === "false" ? false : knob === "commitThenFail" ? value : Number(value);
    (raw[op] ??= {})[knob] = parsed;
  }
  return parseFaultSettings(raw);
}

export function optionsFromArgs(argv: string[], env: NodeJS.ProcessEnv): SandboxOptions & { quiet: boolean; help: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: Object.fromEntries(Object.entries(FLAGS).map(([k, f]) => [k, { type: f.type, ...("multiple" in f ? { multiple: true } : {}) }])),
    strict: true,
  });
  const get = (k: keyof typeof FLAGS): unknown => {
    const v = values[k];
    if (v !== undefined) return v;
    const e = FLAGS[k].env === "" ? undefined : env[FLAGS[k].env];
    if (e === undefined || e === "") return undefined;
    if (FLAGS[k].type === "boolean") return ["1", "true", "yes"].includes(e.toLowerCase());
    return "multiple" in FLAGS[k] ? e.split(",") : e;
  };
  const validation = get("validation") as string | undefined;
  if (validation !== undefined && !["auto", "published", "real"].includes(validation)) {
    throw new UsageError(`--validation must be auto, published or real, got ${JSON.stringify(validation)}`);
  }
  const overrides: Record<string, string> = {};
  for (const o of (get("host-override") as string[] | undefined) ?? []) {
    const [h, a] = o.split("=");
    if (!h || !a) throw new UsageError(`--host-override must be HOST=ADDRESS, got ${JSON.stringify(o)}`);
    overrides[h] = a;
  }
  let faults: FaultSettings = {};
  try {
    const json = get("faults") as string | undefined;
    if (json !== undefined) faults = parseFaultSettings(JSON.parse(json));
    const list = get("fault") as string[] | undefined;
    if (list !== undefined) faults = { ...faults, ...parseFaultFlag(list) };
  } catch (err) {
    throw new UsageError(`bad fault option: ${(err as Error).message}`);
  }
  const zones = ((get("cloudflare-zone") as string[] | undefined) ?? []).map((item) => {
    const m = /^([^=:\s]+)(?:=([0-9a-f]{32})(?::([0-9A-Za-z_-]{40,80}))?)?$/.exec(item.trim());
    if (m === null) throw new UsageError(`--cloudflare-zone must be NAME[=ID[:TOKEN]] (ID: 32 lowercase hex digits, TOKEN: 40 to 80 of A-Z a-z 0-9 _ -), got ${JSON.stringify(item)}`);
    return { name: m[1]!, ...(m[2] === undefined ? {} : { id: m[2] }), ...(m[3] === undefined ? {} : { token: m[3] }) };
  });
  const resolver = get("resolver") as string | undefined;
  const opts: SandboxOptions & { quiet: boolean; help: boolean } = {
    quiet: get("quiet") === true,
    help: get("help") === true,
    faults,
    ...(zones.length > 0 ? { cloudflareZones: zones } : {}),
  };
  const set = <K extends keyof SandboxOptions>(k: K, v: SandboxOptions[K] | undefined): void => {
    if (v !== undefined) (opts as SandboxOptions)[k] = v;
  };
  set("port", num("port", get("port") as string | undefined));
  set("host", get("host") as string | undefined);
  set("dataDir", get("data-dir") as string | undefined);
  set("validation", validation as SandboxOptions["validation"]);
  set("issueAfterSeconds", num("issue-after", get("issue-after") as string | undefined));
  set("statusCooldownSeconds", num("status-cooldown", get("status-cooldown") as string | undefined));
  set("methodCooldownSeconds", num("method-cooldown", get("method-cooldown") as string | undefined));
  set("refundWindowDays", num("refund-window-days", get("refund-window-days") as string | undefined));
  set("renewalWindowDays", num("renewal-window-days", get("renewal-window-days") as string | undefined));
  const clockStart = get("clock-start") as string | undefined;
  if (clockStart !== undefined && !Number.isFinite(Date.parse(clockStart))) {
    throw new UsageError(`--clock-start must be an ISO 8601 instant, got ${JSON.stringify(clockStart)}`);
  }
  set("clockStart", clockStart);
  set("mirrorStatus", get("mirror-status") as boolean | undefined);
  set("upstreamCancelFails", get("upstream-cancel-fails") as boolean | undefined);
  if (resolver !== undefined || Object.keys(overrides).length > 0) {
    opts.realValidation = { ...(resolver === undefined ? {} : { resolver }), hostOverrides: overrides };
  }
  return opts;
}

export async function main(argv = process.argv.slice(2), env = process.env): Promise<void> {
  let opts;
  try {
    opts = optionsFromArgs(argv, env);
  } catch (err) {
    process.stderr.write(`certreseller-sandbox: ${(err as Error).message}\n\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (opts.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const { quiet, help: _help, ...options } = opts;
  const sandbox = await startSandbox({ ...options, logRequests: !quiet });
  process.stdout.write(
    `${JSON.stringify({ url: sandbox.url, managementUrl: sandbox.managementUrl, caCertificatePem: sandbox.caCertificatePem, accounts: sandbox.accounts, cloudflare: sandbox.cloudflare })}\n`,
  );
  const shutdown = (signal: string): void => {
    process.stderr.write(`[certreseller-sandbox] ${signal}: stopping\n`);
    sandbox.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`[certreseller-sandbox] stop failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`certreseller-sandbox: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}
