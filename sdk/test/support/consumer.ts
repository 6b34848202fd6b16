import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";

const sdkDir = path.resolve(__dirname, "../..");

/**
 * The provider text loads `pulumi-certreseller/dist/...`, so the tests that
 * run it need a dist as new as the sources. `tsc -b` decides that itself
 * (a few seconds when nothing changed); an mtime shortcut here raced with
 * concurrent builds.
 */
export function ensureBuilt(): void {
  execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-b", sdkDir], { stdio: "inherit" });
}

/**
 * A directory shaped like a user's Pulumi project where only
 * `pulumi-certreseller` is installed (symlinked to this sdk).
 */
export function makeConsumerDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-consumer-"));
  fs.mkdirSync(path.join(dir, "node_modules"));
  fs.symlinkSync(sdkDir, path.join(dir, "node_modules", "pulumi-certreseller"), "dir");
  return dir;
}

/**
 * Runs `script` with Node in `dir` — no vitest module resolution in between:
 * the text must load exactly as the dynamic-provider host loads it — and
 * returns its stdout. Asynchronous, so a sandbox in this process can answer.
 */
export async function runNodeIn(dir: string, script: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const file = path.join(dir, `run-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.js`);
  fs.writeFileSync(file, script);
  const { stdout } = await promisify(execFile)(process.execPath, [file], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, ...env },
    encoding: "utf8",
  });
  return stdout;
}
