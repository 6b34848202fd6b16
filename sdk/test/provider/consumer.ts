import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";

const sdkDir = path.resolve(__dirname, "../..");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * The provider text loads `pulumi-certreseller/dist/...`, so the tests that
 * run it need a dist as new as the sources (`npm test` builds first; a
 * targeted `vitest run` may not have).
 */
export function ensureBuilt(): void {
  const buildInfo = path.join(sdkDir, "dist/.tsbuildinfo");
  if (fs.existsSync(buildInfo) && fs.statSync(buildInfo).mtimeMs >= newestMtime(path.join(sdkDir, "src"))) return;
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
