/**
 * The `export PATH=…` line `npm run engine` prints: the CLI alone finds no
 * language host (`no language plugin 'pulumi-language-yaml' found`), since
 * the engine looks for `pulumi-language-<runtime>` beside itself and on
 * PATH, and it runs every Node process with the first `node` on PATH.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { dynamicProviderPluginDir, nodeBinDir } from "./environment.js";
import { DYNAMIC_PROVIDER_PLUGIN } from "./plugin-scripts.js";
import type { Engine } from "./provision.js";

/**
 * The folders a shell needs for `pulumi up` in a project folder, in order:
 * a Node new enough, the CLI, the YAML and Node language hosts, and
 * @pulumi/pulumi's dynamic-provider plugin when it is not beside the CLI.
 *
 * @example
 * shellPathDirs(engine) // ["<repo>/node_modules/node/bin", "~/.cache/…/bin", "~/.cache/…/yaml-language-host", "~/.cache/…/language-host"]
 */
export function shellPathDirs(engine: Engine): string[] {
  const cliDir = path.dirname(engine.pulumiPath);
  const dirs: string[] = [];
  try {
    dirs.push(nodeBinDir());
  } catch {
    // No Node new enough here: the line still gives the CLI and hosts; the package's own check names the Node.
  }
  dirs.push(cliDir);
  if (engine.yamlLanguageHostDir) dirs.push(engine.yamlLanguageHostDir);
  if (engine.languageHostDir) dirs.push(engine.languageHostDir);
  if (!fs.existsSync(path.join(cliDir, DYNAMIC_PROVIDER_PLUGIN))) dirs.push(dynamicProviderPluginDir());
  return [...new Set(dirs)];
}

/**
 * `export PATH="<dirs>:$PATH"`, quoted for a POSIX shell.
 *
 * @example
 * exportPathLine(["/a b", "/c"]) // 'export PATH="/a b:/c:$PATH"'
 */
export function exportPathLine(dirs: readonly string[]): string {
  const quoted = dirs.map((dir) => dir.replace(/["$`\\]/g, "\\$&")).join(path.delimiter);
  return `export PATH="${quoted}${path.delimiter}$PATH"`;
}
