// `npm run bench:engine`: what the provider adds to the engine's own cost.
// For each count of certificates, `pulumi up`, a settled `preview` and
// `destroy` of the real graph against the sandbox (instant issuance, no
// latency, no cooldown) and of the same graph made of no-op dynamic
// resources, side by side in one run (alternating rounds, medians); the
// checkpoint per certificate; the Partner API calls per certificate by
// operation from the sandbox request log. The real graph runs by two paths:
// `dynamic`, the TypeScript classes (dynamic resources, served by the
// dynamic-provider host), and `plugin`, the same resources, inputs and edges
// registered by the type tokens of the provider plugin
// `pulumi-resource-certreseller`, packed and installed once per run into the
// run's private PULUMI_HOME with `pulumi plugin install ... --file` (the
// engine told to ignore plugins on PATH, and any copy there taken off it, so
// the installed one serves). Then one row with issuance that is not instant
// and the service's status cooldown, scaled down, counting the status reads
// per waiting order per cooldown. Each figure is printed next to issue 14's
// target. Figures only: nothing here passes or fails.
//
// `-- --terraform` adds the Terraform path (terraform.ts) to each row, after
// the Pulumi paths: the certificates through OpenTofu and the packed provider,
// beside the same graph of `terraform_data`; `-- --terraform-only` runs that
// path alone (no Pulumi engine, no issuance-delay row).
//
// Settings (environment):
//   BENCH_PATHS=dynamic,plugin   which real graphs to run beside the no-op graph
//   BENCH_COUNTS=20,100,400      certificates per row
//   BENCH_ROUNDS=3               rounds per row up to 100 certificates (alternating, medians)
//   BENCH_LARGE_ROUNDS=1         rounds per row above 100 certificates (a 400 round takes minutes)
//   BENCH_DELAY_COUNT=20         certificates of the issuance-delay row (0: no such row)
//   BENCH_ISSUE_AFTER=600        issuance delay of that row, in service seconds
//   BENCH_TIME_SCALE=60          service seconds per real second in that row (180 s cooldown -> 3 s)
//   BENCH_OUTPUT_FORMATS=a,b     the plugin Certificates' outputFormats (unset: not given; empty: [])
//   BENCH_QUIET_REGISTRATION=1   the plugin graph registers without a stack trace per property, as a Go, YAML,
//                                Python or C# program does (0: as a generated Node SDK does; graphs.ts)
//   BENCH_STATE_DETAIL=1         checkpoint bytes by resource type and output, for the first row (0: off)
//   BENCH_STATE_DUMP=<file>      also write that checkpoint to a file
//   BENCH_DROP_VALUES=Order.x,.. an experiment: the dynamic path does not store these values (drop-values-hook.cjs)
//   BENCH_DELAY_LOG=1            print the delay row's request log
//   BENCH_PREVIEWS=5             timed previews per round, median taken (each is printed)
//   BENCH_PROFILE_PREVIEW=<dir>  a CPU profile of this process during each timed preview
//   BENCH_PROFILE_PROGRAM=<dir>  the same during up, each timed preview and destroy
//   BENCH_PROFILE_PROCESSES=<dir> a CPU profile of each Node process the engine starts (the plugin,
//                                the dynamic-provider host), listed in <dir>/processes.txt
//   BENCH_PROFILE_ENGINE=<dir>   the engine's own profiles of each up, preview and destroy (`pulumi --profiling`)
//   BENCH_SIGNATURE_ALGORITHM=ecc, BENCH_PRODUCT_CODE=sandbox-dv-single
//   BENCH_TERRAFORM_TOOL=tofu    the Terraform path's CLI: tofu or terraform (as `npm run terraform:tools` provides them)
import { execFile, spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as readline from "node:readline";
import { Session } from "node:inspector/promises";
import { promisify } from "node:util";
import type { PulumiFn, Stack } from "@pulumi/pulumi/automation";
import { ensureEngine, inlineStack, isolatedEnvironment, type IsolatedEnvironment } from "../../scripts/engine/index.js";
import { packPlugin } from "../../scripts/plugin/pack.js";
import { ManagementClient, type RequestLogEntry } from "../../tests/support/sandbox-management.js";
import { certificateGraph, noopGraph, pluginCertificateGraph, type GraphSettings } from "./graphs.js";
import { printStateBreakdown, storedValuesPerCertificate } from "./state.js";
import { pluginInstallArgs, withoutAmbientPlugin } from "../../scripts/plugin/install.js";
import { prepareTerraform, terraformRow, type TerraformRowContext } from "./terraform.js";

/** `--terraform`: the Terraform path too; `--terraform-only`: it alone. */
const FLAGS = process.argv.slice(2);
for (const flag of FLAGS) if (flag !== "--terraform" && flag !== "--terraform-only") throw new Error(`bench:engine: unknown argument ${JSON.stringify(flag)} (expected --terraform or --terraform-only)`);
const TERRAFORM_ONLY = FLAGS.includes("--terraform-only");
const TERRAFORM = TERRAFORM_ONLY || FLAGS.includes("--terraform");
/** The provider's mirror, packed from the built SDK: kept between runs (the repository's tmp/) and reused while the build is the same. */
const TERRAFORM_MIRROR_DIR = path.resolve(__dirname, "..", "..", "tmp", "bench-terraform-mirror");

/** The two ways the real graph is served. */
const PATH_NAMES = ["dynamic", "plugin"] as const;
type PathName = (typeof PATH_NAMES)[number];
const PATHS: PathName[] = (() => {
  const wanted = (process.env.BENCH_PATHS ?? PATH_NAMES.join(",")).split(",").map((s) => s.trim()).filter((s) => s !== "");
  const unknown = wanted.filter((p) => !(PATH_NAMES as readonly string[]).includes(p));
  if (unknown.length > 0 || wanted.length === 0) throw new Error(`BENCH_PATHS: expected a list of ${PATH_NAMES.join(", ")}; got ${JSON.stringify(process.env.BENCH_PATHS)}`);
  return PATH_NAMES.filter((p) => wanted.includes(p));
})();
const COUNTS = (process.env.BENCH_COUNTS ?? "20,100,400").split(",").filter((s) => s.trim() !== "").map(Number);
const PRODUCT_CODE = process.env.BENCH_PRODUCT_CODE ?? "sandbox-dv-single";
// The machine is shared: each side runs this many times, alternating, and the median is reported.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LARGE_ROUNDS = Number(process.env.BENCH_LARGE_ROUNDS ?? 1);
const SIGNATURE_ALGORITHM = (process.env.BENCH_SIGNATURE_ALGORITHM ?? "ecc") as "rsa" | "ecc";
const DELAY_COUNT = Number(process.env.BENCH_DELAY_COUNT ?? 20);
const ISSUE_AFTER = Number(process.env.BENCH_ISSUE_AFTER ?? 600);
const TIME_SCALE = Number(process.env.BENCH_TIME_SCALE ?? 60);
/** The plugin Certificates' `outputFormats`, comma-separated (`""`: an empty list; unset: not given). */
const OUTPUT_FORMATS = process.env.BENCH_OUTPUT_FORMATS?.split(",").map((s) => s.trim()).filter((s) => s !== "");
/** The plugin graph registers without @pulumi/pulumi's stack trace per property unless `0` (graphs.ts). */
const QUIET_REGISTRATION = process.env.BENCH_QUIET_REGISTRATION !== "0";
const STATE_DETAIL = (process.env.BENCH_STATE_DETAIL ?? "1") !== "0";
/** An experiment: `Type.name` values the dynamic path does not store (drop-values-hook.cjs). */
const DROP_VALUES = process.env.BENCH_DROP_VALUES?.trim() || undefined;
/** A directory: write a CPU profile of this process (where an inline program runs) for each timed preview. */
const PROFILE_PREVIEW_DIR = process.env.BENCH_PROFILE_PREVIEW ?? process.env.BENCH_PROFILE_PROGRAM;
/** A directory: also profile this process during `up` and `destroy`. */
const PROFILE_PROGRAM_DIR = process.env.BENCH_PROFILE_PROGRAM;
/** A directory: a CPU profile of each Node process the engine starts (`--cpu-prof`, see profile-hook.cjs). */
const PROFILE_PROCESSES_DIR = process.env.BENCH_PROFILE_PROCESSES && path.resolve(process.env.BENCH_PROFILE_PROCESSES);
/** A directory: the engine's CPU and memory profiles of each command (`pulumi <command> --profiling <dir>/<project>-<command>`). */
const PROFILE_ENGINE_DIR = process.env.BENCH_PROFILE_ENGINE && path.resolve(process.env.BENCH_PROFILE_ENGINE);
/**
 * Timed previews per round (their median is the round's figure): a preview
 * is short, and single previews of the same stack varied by up to 1.3x here.
 */
const PREVIEWS = Math.max(1, Number(process.env.BENCH_PREVIEWS ?? 5));
/** The service's documented GetCertificateStatus cooldown (one read per order per 180 s). */
const SERVICE_STATUS_COOLDOWN = 180;

/** The targets (issue 29): each path within 1.2x of the no-op graph; the plugin no slower than the dynamic path. */
const TARGET = { up: 1.2, destroy: 1.2, preview: 1.2, statePerCertificate: 1.2, pluginOverDynamic: 1 };

interface Timing {
  upSeconds: number;
  previewSeconds: number;
  destroySeconds: number;
  /** The checkpoint file after `up`, as the file backend writes it (all of it again after every step). */
  checkpointBytes: number;
  /** The deployment as `stack export` gives it, compact JSON. */
  stateBytes: number;
}

interface Calls {
  up: Record<string, number>;
  preview: Record<string, number>;
  destroy: Record<string, number>;
}

/** One way of serving the real graph, and the environment its stacks run in. */
interface GraphPath {
  name: PathName;
  graph: (settings: GraphSettings) => PulumiFn;
  environment: IsolatedEnvironment;
}

interface RunHooks {
  afterUp?: () => Promise<void>;
  afterPreview?: () => Promise<void>;
  beforeDestroy?: () => Promise<void>;
  onState?: (deployment: unknown) => void;
  /** The environment to run in (the plugin path's has its own PATH); the run's by default. */
  environment?: IsolatedEnvironment;
}

type Run = (name: string, program: PulumiFn, hooks?: RunHooks) => Promise<Timing>;

async function main(): Promise<void> {
  if (TERRAFORM_ONLY) return terraformOnly();
  // The graphs are inline TypeScript programs: no YAML language host to build.
  const engine = await ensureEngine({ yamlHost: false, log: (line) => console.error(`[engine] ${line}`) });
  const environment = isolatedEnvironment(engine);
  const sandbox = await startSandboxProcess();
  const management = new ManagementClient(sandbox.managementUrl);
  const instant = { validation: "auto", issueAfterSeconds: 0, statusCooldownSeconds: 0, methodCooldownSeconds: 0 } as const;
  await management.setConfig(instant);
  // One account rich enough for every graph of the run (400 certificates cost 40,000 before refunds).
  const account = await management.createAccount({ username: "bench", balance: "1000000.00" });
  const config = {
    "certreseller:apiKey": { value: account.apiKey, secret: true },
    "certreseller:baseUrl": { value: sandbox.url },
    "certreseller:journalDir": { value: `${environment.homeDir}/journal` },
  };
  console.log(`pulumi v${engine.version} (${engine.source}); node ${process.version}; sandbox ${sandbox.url} (own process); keys ${SIGNATURE_ALGORITHM}`);
  const paths: GraphPath[] = [];
  for (const name of PATHS) {
    if (name === "dynamic") paths.push({ name, graph: certificateGraph, environment: DROP_VALUES ? withoutValues(environment, DROP_VALUES) : environment });
    else {
      const installed = await installPlugin(environment);
      console.log(`plugin pulumi-resource-certreseller v${installed.version} installed from ${path.basename(installed.archivePath)} into the run's PULUMI_HOME; ambient copies ignored`);
      paths.push({ name, graph: pluginCertificateGraph, environment: pluginEnvironment(environment) });
    }
  }
  console.log(
    `paths ${PATHS.join(", ")}${PATHS.includes("plugin") ? ` (the plugin graph registers ${QUIET_REGISTRATION ? "without a stack trace per property, as a Go, YAML, Python or C# program" : "as a generated Node SDK, a stack trace per property"})` : ""}; ` +
      `rows ${COUNTS.join(", ")} certificates; rounds ${ROUNDS} (up to 100), ${LARGE_ROUNDS} (above); targets: up and destroy <= ${TARGET.up}x, preview <= ${TARGET.preview}x, ` +
      `checkpoint per certificate <= ${TARGET.statePerCertificate}x the no-op graph's; the plugin <= ${TARGET.pluginOverDynamic}x the dynamic path`,
  );
  const terraform = TERRAFORM ? terraformContext(await prepareTerraform(TERRAFORM_MIRROR_DIR, (line) => console.error(`[terraform] ${line}`)), management, account.apiKey, sandbox.url) : undefined;
  if (terraform) console.log(`terraform path: ${terraform.setup.tool.name} ${terraform.setup.tool.version} (${terraform.setup.tool.source}), provider v${terraform.setup.providerVersion} from the packed mirror`);
  if (DROP_VALUES) console.log(`EXPERIMENT: the dynamic path does not store ${DROP_VALUES} (BENCH_DROP_VALUES; refresh, update and destroy then run on less than the provider stores)`);

  /** `afterUp` runs after `up`, `afterPreview` after the timed previews, `beforeDestroy` before `destroy`. */
  const run: Run = async (name, program, hooks = {}) => {
    const stack = await inlineStack({ environment: profiled(hooks.environment ?? environment), projectName: `bench-${name}`, stackName: "bench", program, config });
    let profiler = PROFILE_PROGRAM_DIR ? await startProfiler() : undefined;
    let started = performance.now();
    await stack.up();
    const upSeconds = (performance.now() - started) / 1000;
    await profiler?.stopInto(path.join(PROFILE_PROGRAM_DIR!, `up-${name}.cpuprofile`));
    await hooks.afterUp?.();
    const stateBytes = JSON.stringify((await stack.exportStack()).deployment).length;
    const checkpoint = readCheckpoint(environment, `bench-${name}`);
    hooks.onState?.(checkpoint.deployment);
    // A preview of the whole stack, settled (no changes): what a routine CI preview costs.
    const previews: number[] = [];
    for (let i = 0; i < PREVIEWS; i++) {
      profiler = PROFILE_PREVIEW_DIR ? await startProfiler() : undefined;
      started = performance.now();
      await stack.preview();
      previews.push((performance.now() - started) / 1000);
      if (profiler) await profiler.stopInto(path.join(PROFILE_PREVIEW_DIR!, `preview-${name}-${i}.cpuprofile`));
    }
    if (PREVIEWS > 1) console.error(`[bench] ${name} previews: ${previews.map((p) => p.toFixed(2)).join(" ")} s`);
    const previewSeconds = middle(previews);
    await hooks.afterPreview?.();
    await hooks.beforeDestroy?.();
    profiler = PROFILE_PROGRAM_DIR ? await startProfiler() : undefined;
    started = performance.now();
    await stack.destroy();
    const destroySeconds = (performance.now() - started) / 1000;
    await profiler?.stopInto(path.join(PROFILE_PROGRAM_DIR!, `destroy-${name}.cpuprofile`));
    await stack.workspace.removeStack("bench");
    return { upSeconds, previewSeconds, destroySeconds, checkpointBytes: checkpoint.bytes, stateBytes };
  };

  try {
    for (const [row, count] of COUNTS.entries()) {
      const settings: GraphSettings = { count, productCode: PRODUCT_CODE, managementUrl: sandbox.managementUrl, signatureAlgorithm: SIGNATURE_ALGORITHM, outputFormats: OUTPUT_FORMATS, quietRegistration: QUIET_REGISTRATION };
      const rounds = count > 100 ? LARGE_ROUNDS : ROUNDS;
      const noops: Timing[] = [];
      let noopState: unknown;
      const results = new Map(paths.map((p) => [p.name, { timings: [] as Timing[], calls: { up: {}, preview: {}, destroy: {} } as Calls, state: undefined as unknown, failure: undefined as string | undefined }]));
      for (let round = 0; round < rounds && [...results.values()].some((r) => !r.failure); round++) {
        noops.push(await run(`noop-${count}-${round}`, noopGraph(settings), { onState: (d) => (noopState ??= d) }));
        // Alternating: the no-op graph, then each path, every round.
        for (const graphPath of paths) {
          const result = results.get(graphPath.name)!;
          if (result.failure) continue;
          await management.clearRequests();
          try {
            result.timings.push(
              await run(`${graphPath.name}-${count}-${round}`, graphPath.graph(settings), {
                environment: graphPath.environment,
                onState: (d) => (result.state ??= d),
                afterUp: async () => {
                  result.calls.up = await management.operationCounts();
                  await management.clearRequests();
                },
                afterPreview: async () => {
                  result.calls.preview = await management.operationCounts();
                  await management.clearRequests();
                },
              }),
            );
            result.calls.destroy = await management.operationCounts();
          } catch (error) {
            result.failure = firstErrorLine(error);
          }
        }
      }
      const noop = median(noops);
      console.log(`\n${count} certificates (${count * 4} resources), median of ${noops.length}`);
      console.log(`  no-op graph     up ${noop.upSeconds.toFixed(1)} s   preview ${noop.previewSeconds.toFixed(1)} s   destroy ${noop.destroySeconds.toFixed(1)} s`);
      const measured: { name: PathName; timing: Timing; calls: Calls; state: unknown }[] = [];
      for (const { name } of paths) {
        const result = results.get(name)!;
        if (result.failure || result.timings.length === 0) {
          // Still a figure: say the path could not be measured, and why.
          console.log(`  ${`${name} graph`.padEnd(15)} FAILED: ${result.failure ?? "no round ran"}`);
          process.exitCode = 1;
          continue;
        }
        const timing = median(result.timings);
        measured.push({ name, timing, calls: result.calls, state: result.state });
        console.log(`  ${`${name} graph`.padEnd(15)} up ${timing.upSeconds.toFixed(1)} s   preview ${timing.previewSeconds.toFixed(1)} s   destroy ${timing.destroySeconds.toFixed(1)} s   (median of ${result.timings.length})`);
      }
      for (const { name, timing } of measured) {
        console.log(
          `  ${`${name} / no-op`.padEnd(15)} ${ratio("up", timing.upSeconds, noop.upSeconds, TARGET.up)}   ${ratio("preview", timing.previewSeconds, noop.previewSeconds, TARGET.preview)}   ${ratio("destroy", timing.destroySeconds, noop.destroySeconds, TARGET.destroy)}`,
        );
      }
      const dynamic = measured.find((m) => m.name === "dynamic");
      const plugin = measured.find((m) => m.name === "plugin");
      if (dynamic && plugin) {
        const [d, p] = [dynamic.timing, plugin.timing];
        const t = TARGET.pluginOverDynamic;
        console.log(`  ${"plugin / dyn.".padEnd(15)} ${ratio("up", p.upSeconds, d.upSeconds, t)}   ${ratio("preview", p.previewSeconds, d.previewSeconds, t)}   ${ratio("destroy", p.destroySeconds, d.destroySeconds, t)}`);
      }
      console.log(`  checkpoint      no-op ${kib(noop.checkpointBytes)} (${kib(noop.checkpointBytes / count)} per certificate)`);
      for (const { name, timing } of measured) {
        console.log(
          `                  ${name} ${kib(timing.checkpointBytes)} (${kib(timing.checkpointBytes / count)} per certificate); ` +
            ratio("per certificate", timing.checkpointBytes, noop.checkpointBytes, TARGET.statePerCertificate),
        );
      }
      console.log(
        `                  stack export (compact, secrets shown), per certificate: ${[...measured.map(({ name, timing }) => `${name} ${kib(timing.stateBytes / count)}`), `no-op ${kib(noop.stateBytes / count)}`].join(", ")}`,
      );
      if (noopState) {
        const noopValues = storedValuesPerCertificate(noopState, count);
        const parts = measured.flatMap(({ name, state }) => {
          if (!state) return [];
          const values = storedValuesPerCertificate(state, count);
          return [`${name} ${values.toFixed(0)} (${(values / noopValues).toFixed(2)}x)`];
        });
        console.log(`                  stored values (JSON members of the checkpoint's resources), per certificate: ${[...parts, `no-op ${noopValues.toFixed(0)}`].join(", ")}`);
      }
      for (const { name, calls } of measured) {
        console.log(`  Partner API calls per certificate, up (${name}): ${perCertificate(calls.up, count)}`);
        console.log(`  Partner API calls per certificate, destroy (${name}): ${perCertificate(calls.destroy, count)}`);
        console.log(`  Partner API calls for one preview of the whole stack (${name}): ${describe(calls.preview, PREVIEWS)}`);
      }
      if (terraform && !(await terraformRow(terraform, count, rounds))) process.exitCode = 1;
      if (STATE_DETAIL && row === 0 && noopState) {
        for (const { name, state } of measured) if (state) printStateBreakdown(name, state, noopState, count);
      }
    }
    if (DELAY_COUNT > 0) for (const graphPath of paths) await issuanceDelayRow(management, run, graphPath, sandbox.managementUrl, instant);
  } finally {
    sandbox.process.kill("SIGTERM");
    environment.dispose();
  }
}

/** What the Terraform path's rows need from this run. */
function terraformContext(setup: Awaited<ReturnType<typeof prepareTerraform>>, management: ManagementClient, apiKey: string, baseUrl: string): TerraformRowContext {
  const context: TerraformRowContext = {
    setup,
    account: { apiKey, baseUrl },
    management,
    productCode: PRODUCT_CODE,
    signatureAlgorithm: SIGNATURE_ALGORITHM,
    plans: PREVIEWS,
    perCertificate,
    perRun: describe,
  };
  return context;
}

/** `--terraform-only`: the Terraform path's rows alone, against a sandbox of their own; no Pulumi engine. */
async function terraformOnly(): Promise<void> {
  const sandbox = await startSandboxProcess();
  try {
    const management = new ManagementClient(sandbox.managementUrl);
    await management.setConfig({ validation: "auto", issueAfterSeconds: 0, statusCooldownSeconds: 0, methodCooldownSeconds: 0 });
    const account = await management.createAccount({ username: "bench", balance: "1000000.00" });
    const setup = await prepareTerraform(TERRAFORM_MIRROR_DIR, (line) => console.error(`[terraform] ${line}`));
    const context = terraformContext(setup, management, account.apiKey, sandbox.url);
    console.log(
      `${setup.tool.name} ${setup.tool.version} (${setup.tool.source}), provider v${setup.providerVersion} from the packed mirror; node ${process.version}; sandbox ${sandbox.url} (own process); keys ${SIGNATURE_ALGORITHM}; ` +
        `rows ${COUNTS.join(", ")} certificates; rounds ${ROUNDS} (up to 100), ${LARGE_ROUNDS} (above); ${PREVIEWS} timed plans per round`,
    );
    for (const count of COUNTS) {
      const rounds = count > 100 ? LARGE_ROUNDS : ROUNDS;
      console.log(`\n${count} certificates, median of ${rounds}`);
      if (!(await terraformRow(context, count, rounds))) process.exitCode = 1;
    }
  } finally {
    sandbox.process.kill("SIGTERM");
  }
}

/**
 * Issuance that is not instant, under the service's status cooldown, both
 * scaled down by BENCH_TIME_SCALE so the row takes seconds: the provider
 * waits as many real seconds as the service's answer says (cooldown_seconds),
 * so the sandbox is configured in scaled seconds. Counts every
 * GetCertificateStatus per order from the request log: the minimum is one
 * per cooldown per waiting order, never a refused (429) read.
 */
async function issuanceDelayRow(
  management: ManagementClient,
  run: Run,
  graphPath: GraphPath,
  managementUrl: string,
  instant: Record<string, unknown>,
): Promise<void> {
  const cooldown = Math.max(1, Math.round(SERVICE_STATUS_COOLDOWN / TIME_SCALE));
  const issueAfter = Math.max(1, Math.round(ISSUE_AFTER / TIME_SCALE));
  const count = DELAY_COUNT;
  await management.setConfig({ validation: "auto", issueAfterSeconds: issueAfter, statusCooldownSeconds: cooldown, methodCooldownSeconds: 0 });
  await management.clearRequests();
  let log: RequestLogEntry[] = [];
  let upCalls: Record<string, number> = {};
  let previewCalls: Record<string, number> = {};
  const settings: GraphSettings = { count, productCode: PRODUCT_CODE, managementUrl, signatureAlgorithm: SIGNATURE_ALGORITHM, outputFormats: OUTPUT_FORMATS, quietRegistration: QUIET_REGISTRATION };
  console.log(
    `\nissuance after ${ISSUE_AFTER} s, status cooldown ${SERVICE_STATUS_COOLDOWN} s, time scaled 1/${TIME_SCALE} (sandbox: issue after ${issueAfter} s, cooldown ${cooldown} s); ${count} certificates, ${graphPath.name} graph, 1 round`,
  );
  const label = `${graphPath.name} graph`.padEnd(15);
  try {
    const timing = await run(`delay-${graphPath.name}-${count}`, graphPath.graph(settings), {
      environment: graphPath.environment,
      afterUp: async () => {
        log = await management.requests();
        upCalls = counts(log);
        await management.clearRequests();
      },
      afterPreview: async () => {
        previewCalls = await management.operationCounts();
      },
    });
    console.log(`  ${label} up ${timing.upSeconds.toFixed(1)} s   preview ${timing.previewSeconds.toFixed(1)} s   destroy ${timing.destroySeconds.toFixed(1)} s`);
  } catch (error) {
    console.log(`  ${label} FAILED: ${firstErrorLine(error)}`);
    process.exitCode = 1;
    return;
  } finally {
    await management.setConfig(instant);
  }
  console.log(`  Partner API calls per certificate, up: ${perCertificate(upCalls, count)}`);
  console.log(`  Partner API calls for one preview of the whole stack: ${describe(previewCalls, PREVIEWS)}`);
  if (process.env.BENCH_DELAY_LOG) {
    for (const entry of log) console.log(`    ${entry.at} ${entry.operation} ${entry.orderNo ?? ""} ${entry.code}`);
  }
  const reads = statusReads(log, cooldown);
  console.log(
    `  status reads  ${reads.total} for ${reads.orders} waiting orders (${(reads.total / Math.max(1, reads.orders)).toFixed(2)} per order, at most ${reads.maxPerOrder}); refused (429): ${reads.refused}`,
  );
  console.log(
    `                per cooldown of waiting: ${reads.perCooldown.toFixed(2)} per order (target: 1, no refusals) — ${reads.perCooldown <= 1.05 && reads.refused === 0 ? "met" : "NOT met"}; ` +
      `gap between reads of one order: min ${reads.minGap.toFixed(2)}, median ${reads.medianGap.toFixed(2)} cooldowns`,
  );
}

/** GetCertificateStatus per order: how many, how far apart, against the cooldown. */
function statusReads(log: RequestLogEntry[], cooldownSeconds: number) {
  const byOrder = new Map<string, number[]>();
  let refused = 0;
  for (const entry of log) {
    if (entry.operation !== "GetCertificateStatus" || !entry.orderNo) continue;
    if (entry.code === 429) refused++;
    const times = byOrder.get(entry.orderNo) ?? [];
    times.push(Date.parse(entry.at));
    byOrder.set(entry.orderNo, times);
  }
  const gaps: number[] = [];
  let total = 0;
  let maxPerOrder = 0;
  // Reads beyond each order's first, against the cooldowns its waiting spanned (the first read is free).
  let extraReads = 0;
  let cooldownsWaited = 0;
  for (const times of byOrder.values()) {
    times.sort((a, b) => a - b);
    total += times.length;
    maxPerOrder = Math.max(maxPerOrder, times.length);
    for (let i = 1; i < times.length; i++) gaps.push((times[i]! - times[i - 1]!) / 1000 / cooldownSeconds);
    extraReads += times.length - 1;
    cooldownsWaited += (times.at(-1)! - times[0]!) / 1000 / cooldownSeconds;
  }
  gaps.sort((a, b) => a - b);
  return {
    total,
    orders: byOrder.size,
    maxPerOrder,
    refused,
    minGap: gaps[0] ?? 0,
    medianGap: gaps[Math.floor(gaps.length / 2)] ?? 0,
    perCooldown: cooldownsWaited > 0 ? extraReads / cooldownsWaited : extraReads > 0 ? Infinity : 0,
  };
}

/** The line of an engine failure that says what failed. */
function firstErrorLine(error: unknown): string {
  return String((error as Error).message).split("\n").find((l) => /error|Error/.test(l)) ?? String(error);
}

/**
 * The plugin path's environment: the run's (same backend and PULUMI_HOME),
 * with the engine told to ignore plugins on PATH, and, as the e2e suite
 * does, PATH without the folders holding a `pulumi-resource-certreseller`,
 * so the engine starts the copy installed into PULUMI_HOME.
 * PULUMI_IGNORE_AMBIENT_PLUGINS would also hide the dynamic-provider and
 * YAML hosts on PATH; the plugin graph needs neither.
 */
function pluginEnvironment(environment: IsolatedEnvironment): IsolatedEnvironment {
  return { ...environment, env: { ...environment.env, PATH: withoutAmbientPlugin(environment.env.PATH), PULUMI_IGNORE_AMBIENT_PLUGINS: "true" } };
}

/**
 * The dynamic path's environment for BENCH_DROP_VALUES: its provider host
 * preloads drop-values-hook.cjs, which keeps the named values out of state.
 */
function withoutValues(environment: IsolatedEnvironment, values: string): IsolatedEnvironment {
  return withNodeOptions(environment, `--require ${path.join(__dirname, "drop-values-hook.cjs")}`, { BENCH_DROP_VALUES: values });
}

/** `environment` with `options` added to the NODE_OPTIONS of the Node processes the engine starts (the hooks combine), and `env`. */
function withNodeOptions(environment: IsolatedEnvironment, options: string, env: Record<string, string>): IsolatedEnvironment {
  const nodeOptions = [environment.env.NODE_OPTIONS, options].filter(Boolean).join(" ");
  return { ...environment, env: { ...environment.env, ...env, NODE_OPTIONS: nodeOptions } };
}

/**
 * The environment with the profiling settings: Node processes the engine
 * starts write CPU profiles, and the engine is a wrapper that adds
 * `--profiling` to up, preview and destroy.
 */
function profiled(environment: IsolatedEnvironment): IsolatedEnvironment {
  let out = environment;
  if (PROFILE_PROCESSES_DIR) {
    const hook = path.join(__dirname, "profile-hook.cjs");
    out = withNodeOptions(out, `--require ${hook} --cpu-prof --cpu-prof-dir=${PROFILE_PROCESSES_DIR}`, { BENCH_PROFILE_PROCESSES: PROFILE_PROCESSES_DIR });
  }
  if (PROFILE_ENGINE_DIR) {
    const root = path.join(path.dirname(environment.homeDir), "profiling-engine");
    fs.mkdirSync(path.join(root, "bin"), { recursive: true });
    fs.mkdirSync(PROFILE_ENGINE_DIR, { recursive: true });
    const wrapper = path.join(root, "bin", "pulumi");
    // The Automation API runs commands in the project's folder: its name tells the profiles apart.
    const script = [
      "#!/bin/sh",
      `case "$1" in preview|up|destroy) exec ${JSON.stringify(environment.pulumiPath)} "$@" --profiling "${PROFILE_ENGINE_DIR}/$(basename "$PWD")-$1" ;; esac`,
      `exec ${JSON.stringify(environment.pulumiPath)} "$@"`,
      "",
    ].join("\n");
    fs.writeFileSync(wrapper, script, { mode: 0o755 });
    out = { ...out, pulumiRoot: root };
  }
  return out;
}

/**
 * The plugin packed as `npm run plugin:pack` packs it (from the built SDK)
 * into the run's scratch folder, and installed into the run's private
 * PULUMI_HOME with the README's command.
 */
async function installPlugin(environment: IsolatedEnvironment): Promise<{ version: string; archivePath: string }> {
  const packed = await packPlugin({
    outDir: path.join(path.dirname(environment.homeDir), "plugin-archive"),
    log: (line) => console.error(`[plugin] ${line}`),
  });
  await promisify(execFile)(environment.pulumiPath, [...pluginInstallArgs(packed), "--non-interactive"], {
    env: { ...process.env, ...pluginEnvironment(environment).env },
    maxBuffer: 16 * 1024 * 1024,
  });
  return packed;
}

/**
 * The stack's checkpoint file in the file backend (the project-scoped layout,
 * or the legacy one): its size, and its deployment as stored — secrets as
 * ciphertext, unlike `stack export` from the Automation API, which shows them.
 */
function readCheckpoint(environment: IsolatedEnvironment, projectName: string): { bytes: number; deployment: unknown } {
  const candidates = [
    path.join(environment.backendDir, ".pulumi", "stacks", projectName, "bench.json"),
    path.join(environment.backendDir, ".pulumi", "stacks", "bench.json"),
  ];
  for (const file of candidates) {
    if (!fs.existsSync(file)) continue;
    const text = fs.readFileSync(file, "utf8");
    return { bytes: Buffer.byteLength(text), deployment: (JSON.parse(text) as { checkpoint?: { latest?: unknown } }).checkpoint?.latest };
  }
  return { bytes: Number.NaN, deployment: undefined };
}

/**
 * The sandbox in a process of its own, as the real service is remote. Inside
 * the benchmark's process its request handling and certificate signing would
 * run on the event loop that also runs the Pulumi program (the Automation API
 * runs inline programs in-process) and delay every registration.
 */
async function startSandboxProcess(): Promise<{ url: string; managementUrl: string; process: ChildProcess }> {
  const child = spawn(process.execPath, [require.resolve("certreseller-sandbox/bin/certreseller-sandbox.js"), "--port", "0", "--host", "127.0.0.1", "--quiet"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the sandbox exited with ${code} before printing its address`)));
  });
  const { url, managementUrl } = JSON.parse(firstLine) as { url: string; managementUrl: string };
  return { url, managementUrl, process: child };
}

/** The inspector's CPU profiler on this process: the inline program's side of a command (the engine and the provider are other processes). */
async function startProfiler(): Promise<{ stopInto(file: string): Promise<void> }> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return {
    async stopInto(file) {
      const { profile } = await session.post("Profiler.stop");
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/** The median (the upper one of an even count). */
function middle(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

function median(timings: Timing[]): Timing {
  return {
    upSeconds: middle(timings.map((t) => t.upSeconds)),
    previewSeconds: middle(timings.map((t) => t.previewSeconds)),
    destroySeconds: middle(timings.map((t) => t.destroySeconds)),
    checkpointBytes: middle(timings.map((t) => t.checkpointBytes)),
    stateBytes: middle(timings.map((t) => t.stateBytes)),
  };
}

function ratio(name: string, real: number, noop: number, target: number): string {
  const r = real / noop;
  return `${name} ${r.toFixed(2)}x (target <= ${target}x: ${r <= target ? "met" : "NOT met"})`;
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

function counts(log: RequestLogEntry[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const entry of log) out[entry.operation] = (out[entry.operation] ?? 0) + 1;
  return out;
}

function perCertificate(calls: Record<string, number>, count: number): string {
  const total = Object.values(calls).reduce((a, b) => a + b, 0);
  const parts = Object.entries(calls).map(([operation, n]) => `${operation} ${(n / count).toFixed(2)}`);
  return `${(total / count).toFixed(2)} (${parts.join(", ") || "none"})`;
}

/** Calls per run, from the counts of `runs` runs (the timed previews of a round). */
function describe(calls: Record<string, number>, runs = 1): string {
  const per = (n: number) => String(Number((n / runs).toFixed(2)));
  const total = Object.values(calls).reduce((a, b) => a + b, 0);
  return `${per(total)} (${Object.entries(calls).map(([operation, n]) => `${operation} ${per(n)}`).join(", ") || "none"})`;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
