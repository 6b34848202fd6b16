import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { EngineEvent, PulumiFn, Stack } from "@pulumi/pulumi/automation";
import { inject } from "vitest";
import { inlineStack, isolatedEnvironment, type IsolatedEnvironment } from "../../../scripts/engine/index.js";
import type { SandboxConfig } from "../../support/sandbox-management.js";
import { startTestSandbox, type TestSandbox } from "./sandbox.js";

/** One engine environment per test file: private backend, home and journal. */
export interface E2eWorld {
  environment: IsolatedEnvironment;
  sandbox: TestSandbox;
  /** The provider's purchase journal for this world (`certreseller:journalDir`). */
  journalDir: string;
  dispose(): void;
}

export function createWorld(sandbox: TestSandbox, options: { directoryProgram?: boolean; yamlProgram?: boolean } = {}): E2eWorld {
  const environment = isolatedEnvironment(inject("engine"), options);
  const journalDir = path.join(path.dirname(environment.backendDir), "journal");
  fs.mkdirSync(journalDir);
  return { environment, sandbox, journalDir, dispose: () => environment.dispose() };
}

/** A sandbox and a world of its own: what a block of engine scenarios starts before its tests. */
export interface SandboxWorld {
  sandbox: TestSandbox;
  world: E2eWorld;
}

/**
 * Starts a sandbox ({@link startTestSandbox}'s settings beyond the fast ones) and a world for it;
 * {@link closeSandboxWorld} ends both.
 *
 * @example
 * let sandbox: TestSandbox;
 * let world: E2eWorld;
 * beforeAll(async () => void ({ sandbox, world } = await startSandboxWorld()));
 * afterAll(() => closeSandboxWorld({ sandbox, world }, stacks));
 */
export async function startSandboxWorld(config?: SandboxConfig, options?: Parameters<typeof createWorld>[1]): Promise<SandboxWorld> {
  const sandbox = await startTestSandbox(config);
  return { sandbox, world: createWorld(sandbox, options) };
}

/**
 * Tidies each stack (default `destroy`; a failure ignored: what a passing
 * test leaves is destroyed already), then stops the sandbox and removes the
 * world; what never started is skipped.
 */
export async function closeSandboxWorld(
  { sandbox, world }: Partial<SandboxWorld>,
  stacks: Iterable<Stack | undefined> = [],
  tidy: (stack: Stack) => Promise<unknown> = (stack) => stack.destroy(),
): Promise<void> {
  for (const stack of stacks) if (stack) await tidy(stack).catch(() => undefined);
  await sandbox?.stop();
  world?.dispose();
}

/** The stack config every scenario uses: the sandbox's URL, its key as a secret, the private journal. */
export function providerConfig(world: E2eWorld) {
  return {
    "certreseller:apiKey": { value: world.sandbox.apiKey, secret: true },
    "certreseller:baseUrl": { value: world.sandbox.url },
    "certreseller:journalDir": { value: world.journalDir },
    "sandbox:managementUrl": { value: world.sandbox.managementUrl },
  };
}

export async function openStack(
  world: E2eWorld,
  projectName: string,
  program: PulumiFn,
  stackName = "e2e",
  extraConfig: Record<string, { value: string; secret?: boolean }> = {},
): Promise<Stack> {
  return inlineStack({
    environment: world.environment,
    projectName,
    stackName,
    program,
    config: { ...providerConfig(world), ...extraConfig },
  });
}

/** Everything an operation printed and emitted, for assertions on what users see. */
export interface Transcript {
  output: string;
  events: EngineEvent[];
}

export function recorder(): Transcript & {
  onOutput: (text: string) => void;
  onError: (text: string) => void;
  onEvent: (event: EngineEvent) => void;
} {
  const transcript = {
    output: "",
    events: [] as EngineEvent[],
    onOutput: (text: string) => {
      transcript.output += text;
    },
    // The CLI's stderr: plugin output not tied to a resource lands here.
    onError: (text: string) => {
      transcript.output += text;
    },
    onEvent: (event: EngineEvent) => {
      transcript.events.push(event);
    },
  };
  return transcript;
}

/** Every file of the file backend (state, history, backups, locks), as paths. */
export function backendFiles(world: E2eWorld): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push(full);
    }
  };
  walk(world.environment.backendDir);
  return files;
}

/** Every file of the file backend as one text, for "not in plaintext" checks. */
export function backendText(world: E2eWorld): string {
  return backendFiles(world)
    .map((file) => fs.readFileSync(file, "utf8"))
    .join("\n");
}

/**
 * The message of an operation that must fail: a failed Automation API call
 * (the CLI's stderr and stdout, which carry the engine's diagnostics) or a
 * failed CLI command (its error). A success fails the test with what it printed.
 */
export async function failureOf(run: Promise<unknown>): Promise<string> {
  let result: unknown;
  try {
    result = await run;
  } catch (error) {
    const e = error as { message?: string; commandResult?: { stdout?: string; stderr?: string } };
    return [e.message, e.commandResult?.stdout, e.commandResult?.stderr].filter(Boolean).join("\n");
  }
  // Show what the engine did instead: an unexpected success is otherwise undiagnosable.
  const { stdout, stderr } = (typeof result === "string" ? { stdout: result } : (result ?? {})) as { stdout?: string; stderr?: string };
  throw new Error(`expected the operation to fail, and it succeeded; the CLI printed:\n${stdout ?? ""}\n${stderr ?? ""}`);
}

/**
 * `pulumi` commands typed in a directory program's folder (`dir`), with the
 * world's engine environment; each resolves with stdout, `input` goes to stdin
 * (as `pulumi config set --secret` reads a value: never on a command line).
 *
 * @example
 * const pulumi = pulumiIn(world, PROGRAM_DIR); await pulumi(["config", "set", "--secret", "certreseller:apiKey"], key);
 */
export function pulumiIn(world: E2eWorld, dir: string): (args: string[], input?: string) => Promise<string> {
  return (args, input) =>
    new Promise((resolve, reject) => {
      const child = execFile(
        world.environment.pulumiPath,
        [...args, "--non-interactive"],
        { cwd: dir, env: { ...process.env, ...world.environment.env }, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => (error ? reject(new Error(`pulumi ${args.join(" ")} failed:\n${stdout}\n${stderr}`, { cause: error })) : resolve(stdout)),
      );
      if (input !== undefined) child.stdin!.end(input);
    });
}
