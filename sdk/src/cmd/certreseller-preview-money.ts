#!/usr/bin/env node
/**
 * `certreseller-preview-money`: runs `pulumi preview --json` (or reads a
 * digest saved earlier, or with `--terraform` a saved Terraform/OpenTofu
 * plan's `show -json`) and prints what the update buys, cancels and
 * refunds; with `--max-spend` it exits 1 when the update would buy more.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { fromPreviewJson, fromTerraformPlan } from "../money/steps.js";
import { checkSpend, report, summarize, type MoneyStep, type MoneySummary } from "../money/summary.js";

export const USAGE = `Usage: certreseller-preview-money [options] [-- <pulumi preview arguments>]
       terraform show -json tfplan | certreseller-preview-money --terraform [options]

Runs \`pulumi preview --json\` in the current folder and prints what the update
does with money: the Orders it buys (quoted prices), the orders it cancels and
whether each is still inside the 7-day refund window (with the window's end).

Options:
  --max-spend N     exit 1 when the update buys more than N (account currency),
                    or when a purchase has no quoted price; an Order whose
                    adoptOrderNo is unknown at preview may buy, so it counts
                    at its quoted price
  --allow-unpriced  with --max-spend: let purchases without a quote through
  --input FILE      summarise a saved \`pulumi preview --json\` digest (- for stdin)
                    instead of running pulumi
  --terraform       the input is a saved Terraform or OpenTofu plan as
                    \`terraform show -json tfplan\` (or \`tofu show -json\`) prints it,
                    from --input FILE or else stdin; pulumi is not run
  --now ISO         judge the refund windows at this time (default: now, or
                    CERTRESELLER_NOW as the provider does)
  --json            print the summary as JSON
  --pulumi PATH     the pulumi CLI to run (default: pulumi on PATH)
  -h, --help        this text

Exit codes: 0 within the cap, 1 above it, 2 the preview or the arguments failed.`;

export interface Options {
  maxSpend?: number;
  allowUnpriced: boolean;
  input?: string;
  /** The input is `terraform show -json` of a saved plan. */
  terraform: boolean;
  now?: Date;
  json: boolean;
  pulumi: string;
  previewArgs: string[];
  help: boolean;
}

/** Options without a value. */
const SWITCHES: Readonly<Record<string, (options: Options) => void>> = {
  "--allow-unpriced": (o) => (o.allowUnpriced = true),
  "--json": (o) => (o.json = true),
  "--terraform": (o) => (o.terraform = true),
  "-h": (o) => (o.help = true),
  "--help": (o) => (o.help = true),
};

/** Options that take the next argument (`--now` is checked with CERTRESELLER_NOW, below). */
const VALUED: Readonly<Record<string, (options: Options, value: string) => void>> = {
  "--max-spend": (o, text) => {
    const n = Number(text);
    if (text.trim() === "" || !Number.isFinite(n) || n < 0) throw new UsageError(`--max-spend needs an amount of 0 or more; got ${JSON.stringify(text)}`);
    o.maxSpend = n;
  },
  "--input": (o, value) => (o.input = value),
  "--pulumi": (o, value) => (o.pulumi = value),
};

/**
 * Parses the command line (everything after `--` goes to `pulumi preview`).
 *
 * @example
 * ```ts
 * parseArgs(["--max-spend", "500", "--", "--stack", "prod"]); // { maxSpend: 500, previewArgs: ["--stack", "prod"], ... }
 * ```
 */
export function parseArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): Options {
  const options: Options = { allowUnpriced: false, terraform: false, json: false, pulumi: "pulumi", previewArgs: [], help: false };
  const nowText = env.CERTRESELLER_NOW || undefined;
  let nowArg: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      options.previewArgs = argv.slice(i + 1);
      break;
    }
    if (Object.hasOwn(SWITCHES, arg)) {
      SWITCHES[arg]!(options);
      continue;
    }
    if (arg !== "--now" && !Object.hasOwn(VALUED, arg)) throw new UsageError(`unknown option ${JSON.stringify(arg)} (pulumi preview's own options go after --)`);
    const value = argv[++i];
    if (value === undefined) throw new UsageError(`${arg} needs a value`);
    if (arg === "--now") nowArg = value;
    else VALUED[arg]!(options, value);
  }
  if (options.terraform && options.previewArgs.length > 0) {
    throw new UsageError("--terraform reads a plan's `show -json` (--input FILE or stdin) and runs nothing: arguments after -- have nothing to go to");
  }
  const when = nowArg ?? nowText;
  if (when !== undefined) {
    const at = Date.parse(when);
    if (Number.isNaN(at)) throw new UsageError(`${nowArg !== undefined ? "--now" : "CERTRESELLER_NOW"} ${JSON.stringify(when)} is not an ISO 8601 time`);
    options.now = new Date(at);
  }
  return options;
}

export class UsageError extends Error {}

/** Runs `pulumi preview --json <args>` and resolves with its stdout (the digest). */
function runPreview(pulumi: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(pulumi, ["preview", "--json", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", (error) => reject(new Error(`could not run ${pulumi}: ${error.message}`)));
    child.on("close", (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`pulumi preview failed (exit ${code}); nothing was summarised:\n${diagnostics(stdout)}${stderr}`));
    });
  });
}

/** The engine's error diagnostics from a failed `--json` run (they are in the digest, not on stderr). */
function diagnostics(stdout: string): string {
  try {
    const digest = JSON.parse(stdout) as { diagnostics?: Array<{ severity?: string; message?: string }> };
    return (digest.diagnostics ?? [])
      .filter((d) => d.severity === "error")
      .map((d) => `${d.message ?? ""}\n`)
      .join("");
  } catch {
    return stdout;
  }
}

/** JSON, or an error saying what was expected (a plan file itself is a zip, not its `show -json`). */
function parse(text: string, expected: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const zip = text.startsWith("PK") ? " (this looks like the plan file itself: pass `terraform show -json <plan file>`'s output)" : "";
    throw new Error(`the input is not JSON, so not ${expected}${zip}: ${(error as Error).message}`);
  }
}

function readInput(input: string): string {
  return input === "-" ? fs.readFileSync(0, "utf8") : fs.readFileSync(input, "utf8");
}

/** What the command printed and the exit code, for tests and for `main`. */
export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  summary?: MoneySummary;
}

/**
 * The whole command without touching `process`: parse, preview (or read),
 * summarise, judge the cap.
 *
 * @example
 * ```ts
 * const { code, stdout } = await run(["--input", "preview.json", "--max-spend", "500"]);
 * ```
 */
export async function run(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<Outcome> {
  let options: Options;
  try {
    options = parseArgs(argv, env);
  } catch (error) {
    return { code: 2, stdout: "", stderr: `certreseller-preview-money: ${(error as Error).message}\n\n${USAGE}\n` };
  }
  if (options.help) return { code: 0, stdout: `${USAGE}\n`, stderr: "" };
  let digest: unknown;
  let steps: MoneyStep[];
  try {
    const source = options.input ?? (options.terraform ? "-" : undefined);
    const text = source !== undefined ? readInput(source) : await runPreview(options.pulumi, options.previewArgs);
    digest = parse(text, options.terraform ? "`terraform show -json` output" : "a `pulumi preview --json` digest");
    steps = options.terraform ? fromTerraformPlan(digest) : fromPreviewJson(digest);
  } catch (error) {
    return { code: 2, stdout: "", stderr: `certreseller-preview-money: ${(error as Error).message}\n` };
  }
  const summary = summarize(steps, options.now ?? new Date());
  const violations = options.maxSpend === undefined ? [] : checkSpend(summary, { maxSpend: options.maxSpend, allowUnpriced: options.allowUnpriced });
  const stdout = options.json
    ? `${JSON.stringify({ ...summary, maxSpend: options.maxSpend ?? null, violations }, null, 2)}\n`
    : `${report(summary).join("\n")}\n`;
  const stderr = violations.map((v) => `certreseller-preview-money: spend cap exceeded: ${v}\n`).join("");
  return { code: violations.length > 0 ? 1 : 0, stdout, stderr, summary };
}

/**
 * The command on this process's arguments: prints its outcome and sets the
 * exit code. What the `certreseller-preview-money` bin
 * (`bin/certreseller-preview-money.js`) and `node dist/cmd/certreseller-preview-money.js` run.
 *
 * @example
 * require("pulumi-certreseller/dist/cmd/certreseller-preview-money.js").runFromCommandLine();
 */
export function runFromCommandLine(argv: string[] = process.argv.slice(2)): Promise<void> {
  return run(argv).then(
    (outcome) => {
      process.stdout.write(outcome.stdout);
      process.stderr.write(outcome.stderr);
      process.exitCode = outcome.code;
    },
    (error: unknown) => {
      process.stderr.write(`certreseller-preview-money: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 2;
    },
  );
}

if (require.main === module) void runFromCommandLine();
