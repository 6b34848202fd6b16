/**
 * Python programs served by the provider plugin, set up as docs/languages.md
 * tells a user: the SDK generated from sdk/schema.json, the Python section's
 * commands, as printed, making the `venv` virtualenv (the Pulumi SDK and the
 * generated SDK's wheel, with pip from PyPI), its `Pulumi.yaml` (runtime
 * options `toolchain: pip`, `virtualenv: venv`) and its program. The language
 * host (scripts/python/) is on PATH, as beside a user's `pulumi`.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { inject } from "vitest";
import { repoRoot } from "../../../scripts/engine/index.js";
import { type PythonRuntime } from "../../../scripts/python/index.js";
import { generateSdks } from "../../../scripts/sdkgen/index.js";
import { pluginWorld, type PluginWorld } from "./plugin.js";
import type { TestSandbox } from "./sandbox.js";

const execFileAsync = promisify(execFile);

/** The runtime the global setup provided, or why there is none (the file then skips). */
export function pythonRuntime(): PythonRuntime | null {
  return inject("python");
}

/** docs/languages.md's Python section: the commands that make the virtualenv, `Pulumi.yaml`, the program. */
export interface PythonDocs {
  /** The ```sh lines, run in the project folder; `<clone>` stands for the repository. */
  commands: string[];
  pulumiYaml: string;
  program: string;
}

/** Reads the Python section of "A program per language" in docs/languages.md. */
export function pythonDocs(): PythonDocs {
  const doc = fs.readFileSync(path.join(repoRoot, "docs", "languages.md"), "utf8");
  const section = /\nPython \([^\n]*\n([\s\S]*?)\n(?:C# |## )/.exec(doc)?.[1];
  if (!section) throw new Error("docs/languages.md has no Python part under 'A program per language'");
  const block = (lang: string) => {
    const found = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(section)?.[1];
    if (!found) throw new Error(`docs/languages.md's Python part has no \`\`\`${lang} block`);
    return found;
  };
  const commands = block("sh")
    .split("\n")
    .map((line) => line.replace(/\s+#\s.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  return { commands, pulumiYaml: block("yaml"), program: block("python") };
}

/**
 * Runs the Python section's commands, as printed, in `dir` (a project
 * folder): `<clone>` becomes a folder holding `generated-sdks/python`, and
 * `python3` is the runtime's interpreter. Each runs in a shell, as typed.
 */
export async function runPythonDocCommands(python: PythonRuntime, dir: string, clone: string, log: (line: string) => void = () => {}): Promise<void> {
  const env = { ...process.env, PATH: [path.dirname(python.python), process.env.PATH].join(path.delimiter), PIP_NO_INPUT: "1", PIP_DISABLE_PIP_VERSION_CHECK: "1" };
  for (const command of pythonDocs().commands) {
    const started = Date.now();
    await execFileAsync("bash", ["-c", command.replaceAll("<clone>", clone)], { cwd: dir, env, maxBuffer: 16 * 1024 * 1024 }).catch((error: { stderr?: string; message: string }) => {
      throw new Error(`docs/languages.md's \`${command}\` failed in ${dir}: ${error.stderr?.trim() || error.message}`);
    });
    log(`${command} (${Date.now() - started} ms)`);
  }
}

/** The SDK generated once per test file and the virtualenv the docs' commands made with it. */
let environment: Promise<{ clone: string; venvDir: string }> | undefined;

/**
 * The generated SDK and the docs' virtualenv, made once per test file
 * (several worlds share them: pip's install of grpcio and friends is the
 * slow part, 10–20 s) and removed when the file's process exits.
 */
export function pythonEnvironment(python: PythonRuntime, log: (line: string) => void = () => {}): Promise<{ clone: string; venvDir: string }> {
  environment ??= (async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-python-"));
    process.once("exit", () => fs.rmSync(root, { recursive: true, force: true }));
    const clone = path.join(root, "clone");
    let started = Date.now();
    await generateSdks({ schemaPath: path.join(repoRoot, "sdk", "schema.json"), outDir: path.join(clone, "generated-sdks"), languages: ["python"], log });
    log(`Python SDK generated in ${Date.now() - started} ms`);
    started = Date.now();
    const envDir = path.join(root, "project");
    fs.mkdirSync(envDir);
    await runPythonDocCommands(python, envDir, clone, log);
    log(`the docs' virtualenv made in ${Date.now() - started} ms`);
    return { clone, venvDir: path.join(envDir, "venv") };
  })();
  return environment;
}

export interface PythonWorld extends PluginWorld {
  /** The virtualenv the docs' commands made, `venv` in every project of this world. */
  venvDir: string;
  /** A project in a fresh folder of this world: the docs' `Pulumi.yaml` (named `name`), `program` as `__main__.py`, the `venv`. */
  project(name: string, program: string): string;
  /** A copy of a project folder (Pulumi.yaml, __main__.py) in a fresh folder of this world, with the `venv`. */
  copyProject(from: string, name?: string): string;
}

/**
 * A plugin world (the plugin installed from its archive) whose `pulumi`
 * runs Python programs with the generated SDK.
 *
 * @example
 * const world = await pythonWorld(sandbox, python);
 * const dir = world.project("site", programText);
 * await world.pulumi(["up", "--yes"], { cwd: dir });
 */
export async function pythonWorld(sandbox: TestSandbox, python: PythonRuntime, log: (line: string) => void = () => {}): Promise<PythonWorld> {
  const world = await pluginWorld(sandbox);
  const scratch = path.dirname(world.environment.backendDir);
  const { venvDir } = await pythonEnvironment(python, log);
  // The host reads `runtime.options.virtualenv`: nothing of the virtualenv goes on PATH.
  world.environment.env.PATH = [python.languageHostDir, world.environment.env.PATH].join(path.delimiter);
  // Each project's `venv` is the one virtualenv the docs' commands made (a link: making one per project would repeat the pip install).
  const withVenv = (dir: string) => {
    fs.symlinkSync(venvDir, path.join(dir, "venv"));
    return dir;
  };
  const project = (name: string, program: string): string => {
    const dir = path.join(scratch, "projects", name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), pythonDocs().pulumiYaml.replace(/^name: .*$/m, `name: ${name}`));
    fs.writeFileSync(path.join(dir, "__main__.py"), program);
    return withVenv(dir);
  };
  const copyProject = (from: string, name = path.basename(from)): string => {
    const dir = path.join(scratch, "projects", name);
    fs.cpSync(from, dir, { recursive: true });
    return withVenv(dir);
  };
  return { ...world, venvDir, project, copyProject };
}
