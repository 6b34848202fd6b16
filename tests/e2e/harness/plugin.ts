/**
 * Worlds for programs served by the provider plugin: the plugin installed
 * with the command the README gives (once per run, by the global setup, then
 * linked into each world's private `PULUMI_HOME`), and programs run with the
 * `pulumi` commands a user types.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { inject } from "vitest";
import { repoRoot } from "../../../scripts/engine/index.js";
import type { SandboxConfig } from "../../support/sandbox-management.js";
import { startTestSandbox, type TestSandbox } from "./sandbox.js";
import { createWorld, type E2eWorld } from "./stack.js";
import { linkInstalledPlugins, pluginInstallArgs, withoutAmbientPlugin } from "../../../scripts/plugin/install.js";

export interface PluginWorld extends E2eWorld {
  /** Runs `pulumi <args> --non-interactive` in `cwd`; resolves with stdout, rejects with stdout and stderr. */
  pulumi(args: string[], options?: { cwd?: string; input?: string; env?: Record<string, string> }): Promise<string>;
}

/**
 * A world whose engine runs the plugin from the packed archive: folders
 * holding a `pulumi-resource-certreseller` (npm links one into
 * node_modules/.bin) are taken off PATH, so no ambient copy stands in for the
 * installed one. (`PULUMI_IGNORE_AMBIENT_PLUGINS` would also hide the YAML
 * language host on PATH.)
 *
 * @example
 * const world = await pluginWorld(sandbox, { yamlProgram: true });
 * await world.pulumi(["up", "--yes"], { cwd: programDir });
 */
export async function pluginWorld(sandbox: TestSandbox, options: { yamlProgram?: boolean } = {}): Promise<PluginWorld> {
  const world = createWorld(sandbox, options);
  world.environment.env.PATH = withoutAmbientPlugin(world.environment.env.PATH);
  const pulumi: PluginWorld["pulumi"] = (args, { cwd = os.tmpdir(), input, env = {} } = {}) =>
    new Promise((resolve, reject) => {
      const child = execFile(
        world.environment.pulumiPath,
        [...args, "--non-interactive"],
        { cwd, env: { ...process.env, ...world.environment.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => (error ? reject(new Error(`pulumi ${args.join(" ")} failed:\n${stdout}\n${stderr}`, { cause: error })) : resolve(stdout)),
      );
      if (input !== undefined) child.stdin!.end(input);
    });
  // The plugin as the global setup installed it with the README's command;
  // where its files cannot be linked, the README's install step, word for word.
  const installed = inject("pluginHome") as string | undefined;
  if (!installed || !linkInstalledPlugins(installed, world.environment.homeDir)) await pulumi(pluginInstallArgs(inject("plugin")));
  return { ...world, pulumi };
}

/** The README's first Pulumi YAML program, as printed (its management URL the README's, its names under example.com). */
export function readmeYamlProgram(): string {
  const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
  const program = /A first program in Pulumi YAML[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!program) throw new Error("README.md has no YAML program after 'A first program in Pulumi YAML'");
  return program;
}

/** A copy of a program folder in a fresh temporary directory (stack files land there, not in the repository). */
export function programCopy(world: E2eWorld, from: string): string {
  const dir = path.join(path.dirname(world.environment.backendDir), "program");
  fs.cpSync(from, dir, { recursive: true });
  return dir;
}

/** A program of the given files in a fresh folder of the world (stack files land there, not in the repository). */
export function programWith(world: E2eWorld, files: Record<string, string>): string {
  const dir = path.join(path.dirname(world.environment.backendDir), "program");
  fs.mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

/** A stack `dev` served by the plugin: its own sandbox and world, the program's folder, and `pulumi` run there. */
export interface PluginStack<W extends PluginWorld = PluginWorld> {
  sandbox: TestSandbox;
  world: W;
  dir: string;
  /** `pulumi <args>` in the program's folder, `input` on stdin. */
  run(args: string[], input?: string): Promise<string>;
  /** Stops the sandbox (unless it is another stack's) and removes the world. */
  close(): Promise<void>;
  /** `pulumi destroy` (a failure ignored: what a passing test leaves is destroyed already), then {@link close}. */
  dispose(): Promise<void>;
}

export interface PluginStackOptions<W extends PluginWorld> {
  /** A program folder to copy ({@link programCopy}), or what makes the program's folder in the world. */
  program: string | ((world: W) => string);
  /** The sandbox's settings beyond {@link startTestSandbox}'s, or another stack's sandbox (then `close` leaves it running). */
  sandbox?: SandboxConfig | TestSandbox;
  /** The world; default a Pulumi YAML one ({@link pluginWorld}). */
  world?: (sandbox: TestSandbox) => Promise<W>;
  /** Stack config beyond the sandbox's key, URL and journal ({@link configureStack}); `false`: the test configures the stack. */
  config?: Record<string, string> | ((world: W) => Record<string, string>) | false;
}

/**
 * The setup every plugin test starts with: a sandbox, a world with the
 * plugin installed, the program, `pulumi stack init dev` and the stack's
 * config. The caller ends it with `dispose()` (or its own tidying, then `close()`).
 *
 * @example
 * let stack: PluginStack | undefined;
 * beforeAll(async () => void (stack = await startPluginStack({ program: PROGRAM, config: { domain } })));
 * afterAll(() => stack?.dispose());
 */
export async function startPluginStack<W extends PluginWorld = PluginWorld>(options: PluginStackOptions<W>): Promise<PluginStack<W>> {
  const shared = typeof (options.sandbox as Partial<TestSandbox> | undefined)?.stop === "function" ? (options.sandbox as TestSandbox) : undefined;
  const sandbox = shared ?? (await startTestSandbox(options.sandbox as SandboxConfig | undefined));
  const stopSandbox = () => (shared ? Promise.resolve() : sandbox.stop());
  const makeWorld = options.world ?? ((s: TestSandbox) => pluginWorld(s, { yamlProgram: true }) as Promise<W>);
  const world = await makeWorld(sandbox).catch(async (error: unknown) => {
    await stopSandbox();
    throw error;
  });
  const close = async () => {
    await stopSandbox();
    world.dispose();
  };
  try {
    const dir = typeof options.program === "string" ? programCopy(world, options.program) : options.program(world);
    const run = (args: string[], input?: string) => world.pulumi(args, { cwd: dir, input });
    await run(["stack", "init", "dev"]);
    const config = typeof options.config === "function" ? options.config(world) : options.config;
    if (config !== false) await configureStack(world, dir, config);
    return {
      sandbox,
      world,
      dir,
      run,
      close,
      dispose: async () => {
        await run(["destroy", "--yes"]).catch(() => undefined);
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Stack config for the world's sandbox account: the key on stdin, as `pulumi config set --secret` reads it. */
export async function configureStack(world: PluginWorld, cwd: string, settings: Record<string, string> = {}): Promise<void> {
  await world.pulumi(["config", "set", "--secret", "certreseller:apiKey"], { cwd, input: world.sandbox.apiKey });
  await world.pulumi(["config", "set", "certreseller:baseUrl", world.sandbox.url], { cwd });
  await world.pulumi(["config", "set", "certreseller:journalDir", world.journalDir], { cwd });
  for (const [key, value] of Object.entries(settings)) await world.pulumi(["config", "set", key, value], { cwd });
}

/**
 * Makes the world's installed plugin see `backendUrl` as its stack's backend
 * while the CLI keeps its own: the plugin executable is wrapped by a script
 * that sets `PULUMI_BACKEND_URL` for the plugin process only. A file backend
 * has one organisation; this is how two file backends read, to the plugin's
 * purchase journal, as one Pulumi Cloud holding two organisations' stacks.
 */
export function pluginSeesBackend(world: PluginWorld, backendUrl: string): void {
  const plugins = path.join(world.environment.homeDir, "plugins");
  const dirs = fs.readdirSync(plugins).filter((name) => /^resource-certreseller-v/.test(name) && fs.statSync(path.join(plugins, name)).isDirectory());
  if (dirs.length !== 1) throw new Error(`expected one installed certreseller plugin in ${plugins}, found ${dirs.join(", ") || "none"}`);
  const executable = path.join(plugins, dirs[0]!, "pulumi-resource-certreseller");
  const real = `${executable}.real`;
  fs.renameSync(executable, real);
  fs.writeFileSync(executable, `#!/bin/sh\nPULUMI_BACKEND_URL=${JSON.stringify(backendUrl)} exec ${JSON.stringify(real)} "$@"\n`, { mode: 0o755 });
}

/** `pulumi up` (or `args`) as its own process tree (and process group), as a user's terminal or CI job runs it; its output collected. */
export function startUp(
  world: PluginWorld,
  cwd: string,
  args: string[] = ["up", "--yes", "--non-interactive"],
): { child: ChildProcess; output: () => string; exited: Promise<void> } {
  const child = spawn(world.environment.pulumiPath, args, {
    cwd,
    env: { ...process.env, ...world.environment.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return { child, output: () => output, exited };
}
