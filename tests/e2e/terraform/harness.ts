/**
 * Terraform and OpenTofu worlds for the e2e suite: a temporary folder with an
 * HCL program, a CLI config naming the packed mirrors (global-setup.ts packs
 * them once per run), its own data dir and plugin cache, and the commands a
 * user runs, for either CLI. Nothing ambient leaks in: every `TF_*` and
 * `TOFU_*` variable of the test process is dropped.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { inject } from "vitest";
import { isolatedProgram, type TerraformTool, type TerraformToolName } from "../../../scripts/terraform/index.js";
import { skipWithout } from "../../support/ci.js";
import { killTree } from "../harness/process-tree.js";

export type { TerraformToolName };

/** What global-setup.ts provides: the two CLIs (null outside CI when they could not be had) and the packed mirrors. */
export interface ProvidedTerraform {
  tools: Record<TerraformToolName, TerraformTool> | null;
  /** Why `tools` is null. */
  problem?: string;
  /** `dist-terraform/mirror`-shaped: our provider. */
  mirrorDir: string;
  /** Other providers' mirrors and the source patterns each holds: hashicorp/dns's, when it could be had. */
  extraMirrors: { path: string; include: string[] }[];
  providerVersion: string;
  /** hashicorp/dns's version in `extraMirrors` (built from third_party/terraform-provider-dns); null outside CI when it could not be had. */
  dnsProviderVersion: string | null;
  /** Why `dnsProviderVersion` is null. */
  dnsProblem?: string;
}

/**
 * Whether a program using hashicorp/dns must skip: true outside CI, after
 * saying why, when its mirror could not be made; under CI the setup has
 * already failed the run instead.
 *
 * @example
 * describe.skipIf(!terraform || dnsProviderMissing(terraform))("...", () => { ... });
 */
export function dnsProviderMissing(provided: ProvidedTerraform): boolean {
  return skipWithout(provided.dnsProviderVersion ? undefined : `no hashicorp/dns mirror (${provided.dnsProblem ?? "see the e2e setup's [terraform] lines"})`);
}

/**
 * The provided tools, or skips the calling `describe` outside CI (failing it
 * under CI) when they are missing.
 *
 * @example
 * const terraform = providedTerraform();
 * describe.skipIf(!terraform)("...", () => { ... });
 */
export function providedTerraform(): (ProvidedTerraform & { tools: Record<TerraformToolName, TerraformTool> }) | undefined {
  const provided = inject("terraform");
  const missing = provided.tools ? undefined : `no Terraform/OpenTofu (${provided.problem ?? "see the e2e setup's [terraform] lines"})`;
  if (skipWithout(missing)) return undefined;
  return provided as ProvidedTerraform & { tools: Record<TerraformToolName, TerraformTool> };
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Resolve with a failed result instead of rejecting (default false). */
  allowFailure?: boolean;
  timeoutMs?: number;
  /** Extra environment (TF_VAR_…, TF_LOG…). */
  env?: NodeJS.ProcessEnv;
}

/** A command started in the background: the test chooses when to kill it. */
export interface RunningCommand {
  child: ChildProcess;
  /** stdout and stderr so far, interleaved. */
  output(): string;
  exited: Promise<RunResult>;
  /** SIGKILLs the CLI and every process under it (the provider's node included) at once, as a lost machine would. */
  kill(): number[];
}

export interface TerraformWorld {
  tool: TerraformTool;
  /** The program's folder: `main.tf`, the state (`terraform.tfstate`), the lock file. */
  dir: string;
  /** The environment every command gets. */
  env: NodeJS.ProcessEnv;
  cliConfigPath: string;
  /** Writes files into the program's folder (name → content), e.g. `{ "main.tf": hcl }`. */
  write(files: Record<string, string>): void;
  /** Runs `<tool> <args>` in the program's folder; rejects on a non-zero exit with its output. */
  run(args: string[], options?: RunOptions): Promise<RunResult>;
  start(args: string[], options?: Omit<RunOptions, "allowFailure" | "timeoutMs">): RunningCommand;
  init(options?: RunOptions): Promise<RunResult>;
  plan(args?: string[], options?: RunOptions): Promise<RunResult>;
  /** `plan -out` then `show -json` of that plan: the planned changes as the CLI's JSON. */
  planJson(args?: string[], options?: RunOptions): Promise<any>;
  apply(args?: string[], options?: RunOptions): Promise<RunResult>;
  /** `apply` in the background, to kill at a moment the test chooses. */
  startApply(args?: string[], options?: Omit<RunOptions, "allowFailure" | "timeoutMs">): RunningCommand;
  destroy(args?: string[], options?: RunOptions): Promise<RunResult>;
  import(address: string, id: string, options?: RunOptions): Promise<RunResult>;
  /** `show -json`: the state as the CLI's JSON (`values.root_module.resources`). */
  show(): Promise<any>;
  /** The state file as JSON, or undefined before the first apply (or after an apply killed before it wrote any: the file is then empty). */
  state(): any;
  dispose(): void;
}

const FLAGS = ["-input=false", "-no-color"];
const DEFAULT_TIMEOUT_MS = 300_000;

/**
 * A fresh world for `tool` whose CLI config installs our provider (and the
 * extra mirrors' providers) from the packed mirrors only.
 *
 * @example
 * const world = createTerraformWorld(terraform, "tofu", { "main.tf": hcl });
 * await world.init(); await world.apply();
 */
export function createTerraformWorld(provided: ProvidedTerraform & { tools: Record<TerraformToolName, TerraformTool> }, name: TerraformToolName, files: Record<string, string> = {}): TerraformWorld {
  const tool = provided.tools[name];
  const { root, dir, cliConfigPath, env } = isolatedProgram(`certreseller-${name}-`, provided.mirrorDir, provided.extraMirrors);

  const start = (args: string[], options: { env?: NodeJS.ProcessEnv } = {}): RunningCommand => {
    const child = spawn(tool.path, args, { cwd: dir, env: { ...env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let both = "";
    child.stdout!.on("data", (chunk: Buffer) => ((stdout += chunk), (both += chunk)));
    child.stderr!.on("data", (chunk: Buffer) => ((stderr += chunk), (both += chunk)));
    const exited = new Promise<RunResult>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    });
    return { child, output: () => both, exited, kill: () => (child.pid ? killTree(child.pid) : []) };
  };

  const run = async (args: string[], options: RunOptions = {}): Promise<RunResult> => {
    const running = start(args, options);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        running.kill();
        reject(new Error(`${name} ${args.join(" ")} did not finish within ${timeoutMs} ms:\n${running.output()}`));
      }, timeoutMs);
    });
    try {
      const result = await Promise.race([running.exited, timedOut]);
      if (result.code !== 0 && !options.allowFailure) {
        throw new Error(`${name} ${args.join(" ")} failed (${result.signal ?? `exit ${result.code}`}) in ${dir}:\n${running.output()}`);
      }
      return result;
    } finally {
      clearTimeout(timer);
    }
  };

  const write = (more: Record<string, string>) => {
    for (const [file, content] of Object.entries(more)) fs.writeFileSync(path.join(dir, file), content);
  };
  write(files);

  return {
    tool,
    dir,
    env,
    cliConfigPath,
    write,
    run,
    start,
    init: (options) => run(["init", ...FLAGS], options),
    plan: (args = [], options) => run(["plan", ...FLAGS, ...args], options),
    planJson: async (args = [], options) => {
      await run(["plan", ...FLAGS, "-out=e2e.tfplan", ...args], options);
      return JSON.parse((await run(["show", "-json", "-no-color", "e2e.tfplan"])).stdout);
    },
    apply: (args = [], options) => run(["apply", ...FLAGS, "-auto-approve", ...args], options),
    startApply: (args = [], options) => start(["apply", ...FLAGS, "-auto-approve", ...args], options),
    destroy: (args = [], options) => run(["destroy", ...FLAGS, "-auto-approve", ...args], options),
    import: (address, id, options) => run(["import", ...FLAGS, address, id], options),
    show: async () => JSON.parse((await run(["show", "-json", "-no-color"])).stdout),
    state: () => {
      const file = path.join(dir, "terraform.tfstate");
      const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
      return text.trim() ? JSON.parse(text) : undefined;
    },
    dispose: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** The resources `show -json` lists at the root module, by address. */
export function shownResources(shown: any): Record<string, any> {
  const resources = (shown?.values?.root_module?.resources ?? []) as { address: string }[];
  return Object.fromEntries(resources.map((resource) => [resource.address, resource]));
}
