/**
 * Python programs served by the provider plugin: the SDK generated from
 * sdk/schema.json installed into the program's own virtualenv (beside the
 * runtime's `pulumi`, scripts/python/), that virtualenv's `bin` and the
 * Python language host first on PATH, and `runtime: python` projects run
 * with the `pulumi` commands a user types.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { inject } from "vitest";
import { repoRoot } from "../../../scripts/engine/index.js";
import { programVenv, type PythonRuntime } from "../../../scripts/python/index.js";
import { generateSdks } from "../../../scripts/sdkgen/index.js";
import { pluginWorld, type PluginWorld } from "./plugin.js";
import type { TestSandbox } from "./sandbox.js";

/** The runtime the global setup provided, or why there is none (the file then skips). */
export function pythonRuntime(): PythonRuntime | null {
  return inject("python");
}

export interface PythonWorld extends PluginWorld {
  /** The program virtualenv, with `pulumi_certreseller` installed. */
  venvDir: string;
  /** A `runtime: python` project in a fresh folder of this world, its `__main__.py` the given text. */
  project(name: string, program: string): string;
  /** A copy of a project folder (Pulumi.yaml, __main__.py) in a fresh folder of this world. */
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
  let started = Date.now();
  const [sdk] = await generateSdks({ schemaPath: path.join(repoRoot, "sdk", "schema.json"), outDir: path.join(scratch, "sdk"), languages: ["python"], log });
  log(`Python SDK generated in ${Date.now() - started} ms`);
  started = Date.now();
  const venv = await programVenv(python, path.join(scratch, "venv"), [sdk!.dir]);
  log(`program virtualenv with pulumi_certreseller in ${Date.now() - started} ms`);
  // The language host runs `python` from PATH (it ignores runtime.options.virtualenv).
  world.environment.env.PATH = [venv.binDir, python.languageHostDir, world.environment.env.PATH].join(path.delimiter);
  const project = (name: string, program: string): string => {
    const dir = path.join(scratch, "projects", name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: python\n`);
    fs.writeFileSync(path.join(dir, "__main__.py"), program);
    return dir;
  };
  const copyProject = (from: string, name = path.basename(from)): string => {
    const dir = path.join(scratch, "projects", name);
    fs.cpSync(from, dir, { recursive: true });
    return dir;
  };
  return { ...world, venvDir: venv.dir, project, copyProject };
}
