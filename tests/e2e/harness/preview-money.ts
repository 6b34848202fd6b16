/**
 * Running `certreseller-preview-money` as a user does: the bin the SDK's
 * package.json declares, its exit code and output captured.
 */
import { execFile, type ExecFileOptions } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../../scripts/engine/index.js";

/** The bin the SDK's package.json declares, run as npx would. */
export function previewMoneyBin(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "sdk", "package.json"), "utf8")) as { bin: Record<string, string> };
  return path.join(repoRoot, "sdk", pkg.bin["certreseller-preview-money"]!);
}

/** How a command ended: its exit code (2 when it had none, e.g. killed) and its output. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `file` with `args`, resolving (never rejecting) with how it ended;
 * `input`, when given, is written to its stdin.
 *
 * @example
 * const ran = await runCaptured(process.execPath, [previewMoneyBin(), "--json"], { env }, planJson);
 */
export function runCaptured(file: string, args: string[], options: ExecFileOptions, input?: string): Promise<Ran> {
  return new Promise((resolve) => {
    const child = execFile(file, args, { ...options, encoding: "utf8" }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 2) : 0, stdout: String(stdout), stderr: String(stderr) }),
    );
    if (input !== undefined) child.stdin!.end(input);
  });
}
