/**
 * The provider plugin as an archive `pulumi plugin install` takes:
 * `pulumi-resource-certreseller-v<version>.tar.gz`, holding the launcher
 * `pulumi-resource-certreseller` and a production install of the packed
 * package (`node_modules/`). It runs with the `node` on PATH (22 or later),
 * on any platform Node runs on.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../engine/paths.js";

const run = promisify(execFile);

/** The launcher the engine starts: the package's own bin, with this archive's node_modules. */
const LAUNCHER = `#!/bin/sh
# pulumi-resource-certreseller: the certreseller provider plugin (Node 22 or later on PATH).
here="$(cd "$(dirname "$0")" && pwd)"
exec node "$here/node_modules/pulumi-certreseller/bin/pulumi-resource-certreseller" "$@"
`;

export interface PackedPlugin {
  version: string;
  archivePath: string;
}

/**
 * Packs the built SDK (`npm run build` first) into the plugin archive in `outDir`.
 *
 * @example
 * const { archivePath, version } = await packPlugin({ outDir: "dist-plugin" });
 * // pulumi plugin install resource certreseller <version> --file <archivePath>
 */
export async function packPlugin(options: { outDir?: string; log?: (line: string) => void } = {}): Promise<PackedPlugin> {
  const log = options.log ?? (() => undefined);
  const sdkDir = path.join(repoRoot, "sdk");
  if (!fs.existsSync(path.join(sdkDir, "dist", "cmd", "pulumi-resource-certreseller.js"))) throw new Error("the SDK is not built: run `npm run build` first");
  const { version } = JSON.parse(fs.readFileSync(path.join(sdkDir, "package.json"), "utf8")) as { version: string };
  const outDir = path.resolve(options.outDir ?? path.join(repoRoot, "dist-plugin"));
  fs.mkdirSync(outDir, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-plugin-"));
  try {
    log(`packing pulumi-certreseller ${version}`);
    const { stdout } = await run("npm", ["pack", "--silent", "--pack-destination", work], { cwd: sdkDir });
    const tarball = path.join(work, stdout.trim().split("\n").pop()!);
    const root = path.join(work, "plugin");
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "pulumi-resource-certreseller", private: true }));
    log("installing its production dependencies");
    await run("npm", ["install", "--omit=dev", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error", tarball], { cwd: root });
    fs.rmSync(path.join(root, "package.json"));
    fs.writeFileSync(path.join(root, "pulumi-resource-certreseller"), LAUNCHER, { mode: 0o755 });
    const archivePath = path.join(outDir, `pulumi-resource-certreseller-v${version}.tar.gz`);
    // Written aside and renamed: concurrent runs (and a reader installing it) never see half an archive.
    const partial = `${archivePath}.partial-${process.pid}`;
    await run("tar", ["-czf", partial, "-C", root, "."]);
    fs.renameSync(partial, archivePath);
    log(`wrote ${path.relative(process.cwd(), archivePath) || archivePath}`);
    return { version, archivePath };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
