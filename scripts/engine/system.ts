// What the provisioning scripts (engine, BIND, Python) ask of the machine:
// executables, live processes, commands run with timing lines, and Debian
// packages installed with apt-get.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { findOnPath } from "./which.js";

type Log = (line: string) => void;

export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs a command, printing it, how long it took and its last lines of output; rejects with its last 15 lines on failure. */
export function runLogged(argv: string[], env: NodeJS.ProcessEnv, log: Log): Promise<void> {
  log(`$ ${argv.join(" ")}`);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const tail = output.trim().split("\n").slice(-3).join(" | ");
      if (code === 0) {
        log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s${tail ? `: ${tail}` : ""}`);
        resolve();
      } else {
        reject(new Error(`\`${argv.join(" ")}\` exited with ${code}: ${output.trim().split("\n").slice(-15).join("\n")}`));
      }
    });
  });
}

/**
 * How this process can run apt-get as root: directly as root, else through
 * `sudo -n` (never a password prompt, which would hang a test run); or why it cannot.
 */
export function aptGetCommand(env: NodeJS.ProcessEnv = process.env): { argv: string[] } | { problem: "no apt-get" | "not root and no sudo" } {
  const aptGet = findOnPath("apt-get", env.PATH ?? "") ?? findOnPath("apt-get", "/usr/bin");
  if (!aptGet) return { problem: "no apt-get" };
  if (process.getuid?.() === 0) return { argv: [aptGet] };
  const sudo = findOnPath("sudo", env.PATH ?? "");
  return sudo ? { argv: [sudo, "-n", aptGet] } : { problem: "not root and no sudo" };
}

/** `apt-get update`, then `apt-get install -y --no-install-recommends <packages>`, non-interactive, each with its timing line. */
export async function aptGetInstall(aptGet: string[], packages: readonly string[], env: NodeJS.ProcessEnv, log: Log): Promise<void> {
  const aptEnv = { ...env, DEBIAN_FRONTEND: "noninteractive" };
  await runLogged([...aptGet, "update"], aptEnv, log);
  await runLogged([...aptGet, "install", "-y", "--no-install-recommends", ...packages], aptEnv, log);
}
