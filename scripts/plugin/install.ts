/**
 * Installing the packed plugin into a Pulumi home, as the README says, and
 * keeping ambient copies out of the way: shared by the e2e suite and the
 * benchmark, so both run what users install.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { PackedPlugin } from "./pack.js";

/**
 * The README's install command, after `pulumi`.
 *
 * @example
 * execFile(pulumiPath, [...pluginInstallArgs({ version: "0.1.0", archivePath }), "--non-interactive"])
 */
export function pluginInstallArgs({ version, archivePath }: PackedPlugin): string[] {
  return ["plugin", "install", "resource", "certreseller", version, "--file", archivePath];
}

/**
 * `PATH` without the folders holding a `pulumi-resource-certreseller` (npm
 * links one into node_modules/.bin): the engine prefers a plugin on PATH to
 * the installed one.
 *
 * @example
 * env.PATH = withoutAmbientPlugin(env.PATH);
 */
export function withoutAmbientPlugin(pathValue: string | undefined): string {
  return (pathValue ?? "")
    .split(path.delimiter)
    .filter((dir) => dir !== "" && !fs.existsSync(path.join(dir, "pulumi-resource-certreseller")))
    .join(path.delimiter);
}

/**
 * Gives `toHome` (a `PULUMI_HOME`) the plugins installed in `fromHome` as hard
 * links: the same files, in a fraction of a second, where `pulumi plugin
 * install` spends seconds unpacking the archive again. The engine only reads
 * an installed plugin; its lock files are made afresh, never shared. False
 * when the two folders cannot share files (another file system): the caller
 * installs instead.
 *
 * @example
 * if (!linkInstalledPlugins(installedHome, world.homeDir)) await pulumi(pluginInstallArgs(packed));
 */
export function linkInstalledPlugins(fromHome: string, toHome: string): boolean {
  const from = path.join(fromHome, "plugins");
  const to = path.join(toHome, "plugins");
  try {
    linkTree(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    fs.rmSync(to, { recursive: true, force: true });
    return false;
  }
}

function linkTree(from: string, to: string): void {
  fs.mkdirSync(to, { mode: fs.statSync(from).mode & 0o7777 });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else if (entry.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(source), target);
    else if (entry.name.endsWith(".lock")) fs.writeFileSync(target, "");
    else fs.linkSync(source, target);
  }
}
