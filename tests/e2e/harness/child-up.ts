import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import { repoRoot } from "../../../scripts/engine/index.js";
import type { ChildUpSpec } from "./up-child.js";

/** An `up` running in a process of its own (see up-child.ts), so a test can kill the engine mid-operation. */
export interface ChildUp {
  child: ChildProcess;
  /** Everything it printed so far (one JSON line per engine event, then errors). */
  output(): string;
  /** Resolves when the process has exited, however. */
  exited: Promise<void>;
}

/**
 * Starts `spec`'s `up` in a child process with `env` (the world's engine environment).
 *
 * @example
 * const up = startChildUp(spec, world.environment.env); await until(...); killTree(up.child.pid!); await up.exited;
 */
export function startChildUp(spec: ChildUpSpec, env: NodeJS.ProcessEnv): ChildUp {
  const child = spawn(path.join(repoRoot, "node_modules", ".bin", "tsx"), [path.join(__dirname, "up-child.ts"), JSON.stringify(spec)], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return { child, output: () => output, exited };
}
