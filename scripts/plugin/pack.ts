/**
 * The provider plugin as an archive `pulumi plugin install` takes:
 * `pulumi-resource-certreseller-v<version>.tar.gz`, holding the launcher
 * `pulumi-resource-certreseller` and a production install of the packed
 * package (`node_modules/`). It runs with the `node` on PATH (22 or later),
 * on any platform Node runs on.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../engine/paths.js";

const run = promisify(execFile);

/** The launcher the engine starts: the package's own bin, with this archive's node_modules. */
export const LAUNCHER = `#!/bin/sh
# pulumi-resource-certreseller: the certreseller provider plugin (Node 22 or later on PATH).
here="$(cd "$(dirname "$0")" && pwd)"
exec node "$here/node_modules/pulumi-certreseller/bin/pulumi-resource-certreseller" "$@"
`;

/** Bumped when the way the archive is built changes, so a cached archive of the old way is rebuilt. */
const ARCHIVE_FORMAT = "2";

export interface PackedPlugin {
  version: string;
  archivePath: string;
}

/**
 * Packs the built SDK (`npm run build` first) into the plugin archive in
 * `outDir`. Its dependencies are the versions the workspace's lockfile pins
 * (installed as `npm ci` installs, from npm's cache when it holds them). An
 * archive already in `outDir` built from the same inputs (the packed package,
 * the pinned dependencies, the launcher) is reused: the stamp beside it says
 * which inputs made it.
 *
 * @example
 * const { archivePath, version } = await packPlugin({ outDir: "dist-plugin" });
 * // pulumi plugin install resource certreseller <version> --file <archivePath>
 */
export async function packPlugin(options: { outDir?: string; log?: (line: string) => void } = {}): Promise<PackedPlugin> {
  const log = options.log ?? (() => undefined);
  const sdkDir = path.join(repoRoot, "sdk");
  if (!fs.existsSync(path.join(sdkDir, "dist", "cmd", "pulumi-resource-certreseller.js"))) throw new Error("the SDK is not built: run `npm run build` first");
  const manifest = JSON.parse(fs.readFileSync(path.join(sdkDir, "package.json"), "utf8")) as { name: string; version: string; dependencies?: Record<string, string> };
  const { version } = manifest;
  const outDir = path.resolve(options.outDir ?? path.join(repoRoot, "dist-plugin"));
  fs.mkdirSync(outDir, { recursive: true });
  const archivePath = path.join(outDir, `pulumi-resource-certreseller-v${version}.tar.gz`);
  const stampPath = `${archivePath}.stamp`;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-plugin-"));
  try {
    // npm pack writes fixed timestamps, so the tarball's bytes are a stamp of what it packs.
    const { stdout } = await run("npm", ["pack", "--silent", "--pack-destination", work], { cwd: sdkDir });
    const tarball = path.join(work, stdout.trim().split("\n").pop()!);
    const dependencies = manifest.dependencies ?? {};
    const lockfile = JSON.stringify(pluginLockfile(readWorkspaceLockfile(), dependencies), null, 2);
    const stamp = createHash("sha256").update(ARCHIVE_FORMAT).update("\0").update(fs.readFileSync(tarball)).update("\0").update(lockfile).update("\0").update(LAUNCHER).digest("hex");
    if (readStamp(stampPath) === `${stamp} ${archiveIdentity(archivePath)}`) {
      log(`${path.relative(process.cwd(), archivePath) || archivePath} is current (same package and pinned dependencies): reused`);
      return { version, archivePath };
    }

    log(`packing ${manifest.name} ${version}`);
    const root = path.join(work, "plugin");
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "pulumi-resource-certreseller", private: true, dependencies }));
    fs.writeFileSync(path.join(root, "package-lock.json"), lockfile);
    log("installing its production dependencies as the workspace's lockfile pins them");
    await run("npm", ["ci", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
    const packageDir = path.join(root, "node_modules", manifest.name);
    fs.mkdirSync(packageDir, { recursive: true });
    await run("tar", ["-xzf", tarball, "-C", packageDir, "--strip-components=1"]);
    for (const file of ["package.json", "package-lock.json"]) fs.rmSync(path.join(root, file));
    fs.writeFileSync(path.join(root, "pulumi-resource-certreseller"), LAUNCHER, { mode: 0o755 });
    // Written aside and renamed: concurrent runs (and a reader installing it) never see half an archive.
    const partial = `${archivePath}.partial-${process.pid}`;
    await run("tar", ["-czf", partial, "-C", root, "."]);
    fs.rmSync(stampPath, { force: true });
    fs.renameSync(partial, archivePath);
    // The stamp names the archive file it describes: a concurrent run's archive renamed over this one does not match it.
    fs.writeFileSync(`${stampPath}.partial-${process.pid}`, `${stamp} ${archiveIdentity(archivePath)}\n`);
    fs.renameSync(`${stampPath}.partial-${process.pid}`, stampPath);
    log(`wrote ${path.relative(process.cwd(), archivePath) || archivePath}`);
    return { version, archivePath };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function readStamp(stampPath: string): string | undefined {
  return fs.existsSync(stampPath) ? fs.readFileSync(stampPath, "utf8").trim() : undefined;
}

/** The archive file as it is on disk (inode, size, modification time); "absent" when there is none. */
function archiveIdentity(archivePath: string): string {
  if (!fs.existsSync(archivePath)) return "absent";
  const stat = fs.statSync(archivePath);
  return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
}

/** One package of a lockfile (v2/v3 `packages`), as far as the plugin's lockfile needs it. */
interface LockedPackage {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dev?: boolean;
  devOptional?: boolean;
  link?: boolean;
  [key: string]: unknown;
}

interface Lockfile {
  lockfileVersion: number;
  packages: Record<string, LockedPackage>;
}

function readWorkspaceLockfile(): Lockfile {
  const file = path.join(repoRoot, "package-lock.json");
  const lock = JSON.parse(fs.readFileSync(file, "utf8")) as Lockfile;
  if (!lock.packages || lock.lockfileVersion < 2) throw new Error(`${file}: a lockfile of version 2 or later is needed (npm 7+)`);
  return lock;
}

/**
 * The lockfile of a project depending on `dependencies` exactly as the
 * workspace's lockfile resolves them for the SDK (which the workspace hoists
 * to its root): every package Node's resolution reaches from them, at the
 * same paths, marked as production packages.
 *
 * @example
 * pluginLockfile(workspaceLock, { zod: "^4.6.0" }).packages["node_modules/zod"].version // "4.6.1"
 */
export function pluginLockfile(workspace: Lockfile, dependencies: Record<string, string>): Lockfile {
  const packages: Record<string, LockedPackage> = { "": { name: "pulumi-resource-certreseller", dependencies } };
  /** Where `name` resolves from the package at `from` ("" is the root): its own node_modules, then each ancestor's. */
  const resolve = (from: string, name: string): string | undefined => {
    for (let dir = from; ; dir = parentPackage(dir)) {
      const candidate = dir === "" ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
      if (workspace.packages[candidate]) return candidate;
      if (dir === "") return undefined;
    }
  };
  const visit = (from: string, names: string[], required: boolean) => {
    for (const name of names) {
      const at = resolve(from, name);
      if (!at) {
        if (required) throw new Error(`package-lock.json does not resolve ${name} (needed by ${from || "the SDK"}): run \`npm install\``);
        continue;
      }
      if (packages[at]) continue;
      const { dev: _dev, devOptional: _devOptional, ...entry } = workspace.packages[at]!;
      if (entry.link) throw new Error(`package-lock.json links ${name} to a workspace folder: the plugin cannot ship it`);
      packages[at] = entry;
      const peers = Object.keys(entry.peerDependencies ?? {}).filter((peer) => !entry.peerDependenciesMeta?.[peer]?.optional);
      visit(at, Object.keys(entry.dependencies ?? {}), true);
      visit(at, peers, true);
      visit(at, Object.keys(entry.optionalDependencies ?? {}), false);
    }
  };
  visit("", Object.keys(dependencies), true);
  return { name: "pulumi-resource-certreseller", lockfileVersion: workspace.lockfileVersion, requires: true, packages } as Lockfile;
}

/** `node_modules/a/node_modules/@s/b` → `node_modules/a`; a top-level package → "" (the root). */
function parentPackage(at: string): string {
  const cut = at.lastIndexOf("/node_modules/");
  return cut < 0 ? "" : at.slice(0, cut);
}
