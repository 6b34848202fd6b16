// The Terraform path of `npm run bench:engine` (`-- --terraform`): the same
// certificates through OpenTofu (or Terraform) and the provider's packed
// filesystem mirror, against the bench's sandbox: per certificate a
// `certreseller_order` and a `certreseller_certificate` (the sandbox
// validates by itself; Terraform serves no sandbox DNS record resource),
// and the same graph, same count and edges, of `terraform_data` as the
// baseline. `apply`, a settled `plan` (which refreshes, as Terraform's
// default does) and `destroy`, each a fresh CLI process as a user runs it.
// Figures only.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { ensureTerraformTools, isolatedProgram, packTerraformMirror, PROVIDER_SOURCE, TOOL_NAMES, type TerraformTool, type TerraformToolName } from "../../scripts/terraform/index.js";

/** The CLI and the provider's mirror a run uses. */
export interface TerraformSetup {
  tool: TerraformTool;
  mirrorDir: string;
  providerVersion: string;
}

/** One graph's apply, settled plan (median of the timed ones) and destroy, and its state file after apply. */
export interface TerraformTiming {
  applySeconds: number;
  planSeconds: number;
  destroySeconds: number;
  stateBytes: number;
}

/** The real graph, or its `terraform_data` twin. */
export type TerraformGraph = "certreseller" | "terraform_data";

/** Where the provider reads what the sandbox's account needs (the provider's environment settings). */
export interface TerraformAccount {
  apiKey: string;
  baseUrl: string;
}

/**
 * The CLI named by BENCH_TERRAFORM_TOOL (default `tofu`; found or built as
 * `npm run terraform:tools` does) and the provider packed as a mirror from
 * the built SDK into `outDir`.
 *
 * @example
 * const setup = await prepareTerraform(path.join(repoRoot, "tmp", "bench-terraform"), console.error);
 */
export async function prepareTerraform(outDir: string, log: (line: string) => void): Promise<TerraformSetup> {
  const name = (process.env.BENCH_TERRAFORM_TOOL ?? "tofu") as TerraformToolName;
  if (!(TOOL_NAMES as readonly string[]).includes(name)) throw new Error(`BENCH_TERRAFORM_TOOL: expected one of ${TOOL_NAMES.join(", ")}; got ${JSON.stringify(name)}`);
  const tools = await ensureTerraformTools({ log });
  const mirror = await packTerraformMirror({ outDir, perContent: true, log });
  return { tool: tools[name], mirrorDir: mirror.mirrorDir, providerVersion: mirror.version };
}

const domainOf = "bench-${count.index}.example.com";

/** The HCL of `count` certificates: the real graph, or the same resources and edges as `terraform_data`. */
export function terraformProgram(graph: TerraformGraph, count: number, productCode: string, signatureAlgorithm: string, providerVersion: string): string {
  if (graph === "terraform_data") {
    return `
resource "terraform_data" "order" {
  count = ${count}
  input = { product_code = "${productCode}", domain = "${domainOf}", verification_method = "dns", signature_algorithm = "${signatureAlgorithm}" }
}

resource "terraform_data" "certificate" {
  count = ${count}
  input = { order_no = terraform_data.order[count.index].id, request_id = terraform_data.order[count.index].output.domain }
}
`;
  }
  return `
terraform {
  required_providers {
    certreseller = {
      source  = "${PROVIDER_SOURCE}"
      version = "${providerVersion}"
    }
  }
}

provider "certreseller" {}

resource "certreseller_order" "order" {
  count               = ${count}
  product_code        = "${productCode}"
  domain              = "${domainOf}"
  verification_method = "dns"
  signature_algorithm = "${signatureAlgorithm}"
}

resource "certreseller_certificate" "certificate" {
  count      = ${count}
  order_no   = certreseller_order.order[count.index].order_no
  request_id = certreseller_order.order[count.index].request_id
}
`;
}

/** Hooks between the timed commands (the bench reads the sandbox's request counts there). */
export interface RoundHooks {
  afterApply?: () => Promise<void>;
  afterPlan?: () => Promise<void>;
}

/**
 * One round of one graph in a fresh folder (its own state, data dir, plugin
 * cache and purchase journal): `init` (not timed), then `apply`, `plans`
 * settled plans (each must show no changes) and `destroy`, timed.
 *
 * @example
 * const timing = await terraformRound(setup, "certreseller", account, { count: 100, plans: 5, productCode: "sandbox-dv-single", signatureAlgorithm: "ecc" });
 */
export async function terraformRound(
  setup: TerraformSetup,
  graph: TerraformGraph,
  account: TerraformAccount,
  settings: { count: number; plans: number; productCode: string; signatureAlgorithm: string },
  hooks: RoundHooks = {},
): Promise<TerraformTiming> {
  // Nothing of this machine's Terraform settings: only the mirrors' CLI config.
  const { root, dir, env } = isolatedProgram(`bench-${setup.tool.name}-`, setup.mirrorDir);
  fs.writeFileSync(path.join(dir, "main.tf"), terraformProgram(graph, settings.count, settings.productCode, settings.signatureAlgorithm, setup.providerVersion));
  Object.assign(env, {
    CERTRESELLER_API_KEY: account.apiKey,
    CERTRESELLER_BASE_URL: account.baseUrl,
    CERTRESELLER_JOURNAL_DIR: path.join(root, "journal"),
  });
  const run = (args: string[], okCodes = [0]) =>
    new Promise<{ code: number; seconds: number }>((resolve, reject) => {
      const started = performance.now();
      execFile(setup.tool.path, [...args, "-input=false", "-no-color"], { cwd: dir, env, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        if (!okCodes.includes(code)) reject(new Error(`${setup.tool.name} ${args[0]} (${graph}) failed (exit ${code}):\n${stderr || stdout}`));
        else resolve({ code, seconds: (performance.now() - started) / 1000 });
      });
    });
  try {
    await run(["init"]);
    const apply = await run(["apply", "-auto-approve"]);
    const stateBytes = fs.statSync(path.join(dir, "terraform.tfstate")).size;
    await hooks.afterApply?.();
    const plans: number[] = [];
    for (let i = 0; i < settings.plans; i++) {
      // -detailed-exitcode: 0 no changes, 2 changes; a settled graph must plan nothing.
      const plan = await run(["plan", "-detailed-exitcode"], [0, 2]);
      if (plan.code === 2) throw new Error(`${setup.tool.name} plan (${graph}) after apply shows changes: the graph did not settle`);
      plans.push(plan.seconds);
    }
    await hooks.afterPlan?.();
    const destroy = await run(["destroy", "-auto-approve"]);
    return { applySeconds: apply.seconds, planSeconds: middle(plans), destroySeconds: destroy.seconds, stateBytes };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** The median (the upper one of an even count, as main.ts takes it). */
export function middle(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
}

/** What a row of the Terraform path needs from the bench: the sandbox's account and request counts. */
export interface TerraformRowContext {
  setup: TerraformSetup;
  account: TerraformAccount;
  management: { clearRequests(): Promise<unknown>; operationCounts(): Promise<Record<string, number>> };
  productCode: string;
  signatureAlgorithm: string;
  plans: number;
  /** Formats Partner API calls per certificate (main.ts's). */
  perCertificate(calls: Record<string, number>, count: number): string;
  /** Formats the calls of `runs` runs, per run (main.ts's). */
  perRun(calls: Record<string, number>, runs: number): string;
}

/**
 * One row of the Terraform path: `rounds` rounds, each the `terraform_data`
 * graph then the real one (alternating, as the Pulumi paths alternate with
 * their no-op graph), medians printed with the real graph's ratios to the
 * baseline, its state file per certificate and its Partner API calls.
 * Returns false when a round failed (the row says why).
 */
export async function terraformRow(context: TerraformRowContext, count: number, rounds: number): Promise<boolean> {
  const { setup, management } = context;
  const settings = { count, plans: context.plans, productCode: context.productCode, signatureAlgorithm: context.signatureAlgorithm };
  const baseline: TerraformTiming[] = [];
  const real: TerraformTiming[] = [];
  const calls = { apply: {} as Record<string, number>, plan: {} as Record<string, number>, destroy: {} as Record<string, number> };
  const name = setup.tool.name;
  let failure: string | undefined;
  for (let round = 0; round < rounds && !failure; round++) {
    try {
      baseline.push(await terraformRound(setup, "terraform_data", context.account, settings));
      await management.clearRequests();
      real.push(
        await terraformRound(setup, "certreseller", context.account, settings, {
          afterApply: async () => {
            calls.apply = await management.operationCounts();
            await management.clearRequests();
          },
          afterPlan: async () => {
            calls.plan = await management.operationCounts();
            await management.clearRequests();
          },
        }),
      );
      calls.destroy = await management.operationCounts();
    } catch (error) {
      failure = String((error as Error).message).split("\n").slice(0, 3).join(" ");
    }
  }
  const label = (text: string) => `  ${text.padEnd(15)}`;
  const line = (t: TerraformTiming) => `apply ${t.applySeconds.toFixed(1)} s   plan ${t.planSeconds.toFixed(1)} s   destroy ${t.destroySeconds.toFixed(1)} s`;
  console.log(`  ${name} ${setup.tool.version} (${count * 2} resources: an order and a certificate per certificate; plan refreshes, as its default does)`);
  if (baseline.length === 0 || real.length === 0) {
    console.log(`${label(`${name} graph`)} FAILED: ${failure ?? "no round ran"}`);
    return false;
  }
  const pick = (timings: TerraformTiming[]): TerraformTiming => ({
    applySeconds: middle(timings.map((t) => t.applySeconds)),
    planSeconds: middle(timings.map((t) => t.planSeconds)),
    destroySeconds: middle(timings.map((t) => t.destroySeconds)),
    stateBytes: middle(timings.map((t) => t.stateBytes)),
  });
  const [b, r] = [pick(baseline), pick(real)];
  console.log(`${label("terraform_data")} ${line(b)}   (median of ${baseline.length})`);
  console.log(`${label(`${name} graph`)} ${line(r)}   (median of ${real.length})${failure ? `; a later round FAILED: ${failure}` : ""}`);
  const x = (a: number, c: number) => `${(a / c).toFixed(2)}x`;
  console.log(`${label(`${name} / tf_data`)} apply ${x(r.applySeconds, b.applySeconds)}   plan ${x(r.planSeconds, b.planSeconds)}   destroy ${x(r.destroySeconds, b.destroySeconds)}`);
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  console.log(`  state file      terraform_data ${kib(b.stateBytes / count)} per certificate, ${name} ${kib(r.stateBytes / count)} (${x(r.stateBytes, b.stateBytes)})`);
  console.log(`  Partner API calls per certificate, apply (${name}): ${context.perCertificate(calls.apply, count)}`);
  console.log(`  Partner API calls per certificate, destroy (${name}): ${context.perCertificate(calls.destroy, count)}`);
  console.log(`  Partner API calls for one plan of the whole configuration (${name}): ${context.perRun(calls.plan, context.plans)}`);
  return !failure;
}
