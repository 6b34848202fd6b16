import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const sdkDir = path.resolve(__dirname, "../..");

/**
 * The provider text loads `pulumi-certreseller/dist/...`: build once if the
 * checkout has no dist yet (`npm test` builds first anyway).
 */
export function ensureBuilt(): void {
  if (!fs.existsSync(path.join(sdkDir, "dist/provider/entry.js"))) {
    execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-b", sdkDir], { stdio: "inherit" });
  }
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
 * Runs `script` with Node in `dir` (no vitest module resolution in between:
 * the text must load exactly as the dynamic-provider host loads it) and
 * returns its stdout.
 */
export function runNodeIn(dir: string, script: string, env: NodeJS.ProcessEnv = {}): string {
  const file = path.join(dir, `run-${process.pid}-${Date.now()}.js`);
  fs.writeFileSync(file, script);
  return execFileSync(process.execPath, [file], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, ...env },
    encoding: "utf8",
  });
}
