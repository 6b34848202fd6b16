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
