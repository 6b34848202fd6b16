/**
 * A Node older than the workspace's `engines` asks, with an npm that runs
 * under it: what a fresh machine's system Node often is, for the test of the
 * demo's first `npm ci` (sdk/test/docs/demo-install.test.ts). The machine's
 * own when it has one; else provisioned once into the user cache from the
 * npm registry (the `node-<platform>-<arch>` package, the binary the
 * workspace's `node` dev dependency also comes from, and `npm`), as the
 * engine is cached in scripts/engine/.
 */
import { execFile, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";

/** Node 20 is what many machines still carry; npm 11 (which writes this lockfile, and reads its `overrides` as npm 10 does not) runs under it. */
export const OLD_NODE_VERSION = "20.20.2";
export const OLD_NPM_VERSION = "11.19.1";

/** `${XDG_CACHE_HOME:-~/.cache}/pulumi-certreseller/old-node/node-<version>-npm-<version>`. */
export function oldNodeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const cacheHome = env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(cacheHome, "pulumi-certreseller", "old-node", `node-${OLD_NODE_VERSION}-npm-${OLD_NPM_VERSION}`);
}

/** The version `dir/node` reports, or undefined when it does not run. */
function versionOf(dir: string): [number, number] | undefined {
  const run = spawnSync(path.join(dir, "node"), ["-p", "process.versions.node"], { encoding: "utf8" });
  if (run.status !== 0) return undefined;
  const [major, minor] = run.stdout.trim().split(".").map(Number);
  return major === undefined || minor === undefined ? undefined : [major, minor];
}

const older = (version: [number, number], than: [number, number]) => version[0] < than[0] || (version[0] === than[0] && version[1] < than[1]);

/**
 * A folder on this machine holding a `node` older than `than` and an `npm`,
 * outside any node_modules (the workspace's own Node 24 lives there): PATH,
 * then where Debian and a tarball install put Node, then the cache.
 */
export function findOldNode(than: [number, number], env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = [...(env.PATH ?? "").split(path.delimiter), "/usr/bin", "/usr/local/bin", path.join(oldNodeCacheDir(env), "bin")];
  for (const dir of dirs) {
    if (dir === "" || dir.includes("node_modules") || !fs.existsSync(path.join(dir, "node")) || !fs.existsSync(path.join(dir, "npm"))) continue;
    const version = versionOf(dir);
    if (version && older(version, than)) return dir;
  }
  return undefined;
}

/**
 * Installs Node {@link OLD_NODE_VERSION} and npm {@link OLD_NPM_VERSION} into
 * the cache (a fresh folder renamed into place, so a second process racing
 * it finds a whole copy or makes its own) and returns the folder holding
 * `node` and `npm`. Throws with npm's output when the install fails.
 */
export async function provisionOldNode(log: (line: string) => void = () => {}, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const root = oldNodeCacheDir(env);
  const bin = path.join(root, "bin");
  if (versionOf(bin) !== undefined && fs.existsSync(path.join(bin, "npm"))) return bin;
  const started = Date.now();
  fs.mkdirSync(path.dirname(root), { recursive: true });
  const tmp = fs.mkdtempSync(`${root}.tmp-`);
  try {
    const nodePackage = `node-${process.platform}-${process.arch}`;
    log(`installing ${nodePackage}@${OLD_NODE_VERSION} and npm@${OLD_NPM_VERSION} into ${root} ...`);
    // No install scripts: both packages ship what runs; the binary package is the one `node`'s own preinstall fetches.
    await promisify(execFile)(
      "npm",
      ["install", "--prefix", tmp, "--no-save", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error", `${nodePackage}@${OLD_NODE_VERSION}`, `npm@${OLD_NPM_VERSION}`],
      { env, maxBuffer: 16 * 1024 * 1024, timeout: 600_000 },
    ).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`npm install of Node ${OLD_NODE_VERSION} failed: ${error.message}\n${error.stdout ?? ""}${error.stderr ?? ""}`);
    });
    fs.mkdirSync(path.join(tmp, "bin"));
    // Relative links: they keep working after the rename below. npm's own script finds `node` on PATH, which is this folder.
    fs.symlinkSync(path.join("..", "node_modules", nodePackage, "bin", "node"), path.join(tmp, "bin", "node"));
    fs.symlinkSync(path.join("..", "node_modules", "npm", "bin", "npm-cli.js"), path.join(tmp, "bin", "npm"));
    if (versionOf(path.join(tmp, "bin")) === undefined) throw new Error(`the Node ${OLD_NODE_VERSION} installed into ${tmp} does not run`);
    try {
      fs.renameSync(tmp, root);
    } catch (error) {
      // Another process finished first: its copy is as good.
      if (versionOf(bin) === undefined) throw error;
    }
    log(`Node ${OLD_NODE_VERSION} with npm ${OLD_NPM_VERSION} cached in ${Math.round((Date.now() - started) / 1000)} s: ${bin}`);
    return bin;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
