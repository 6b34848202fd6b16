import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { mirrorCliConfig, type ExtraMirror } from "./pack.js";

/** A temporary folder to run one Terraform or OpenTofu program in, cut off from the machine's settings. */
export interface IsolatedProgram {
  /** Holds everything below; remove it to clean up. */
  root: string;
  /** The program's folder, empty: the CLIs' working directory. */
  dir: string;
  /** The CLI config installing from the mirrors only. */
  cliConfigPath: string;
  /**
   * The environment to run the CLI with: this process's, without any `TF_*` or
   * `TOFU_*` variable, with the CLI config, a data dir, a plugin cache and a
   * HOME of the folder's own, and this run's `node` first on PATH (the
   * provider's launcher runs `node`).
   */
  env: NodeJS.ProcessEnv;
}

/**
 * Makes a fresh folder under the system's temporary directory (its name
 * starting with `prefix`) whose CLI config installs our provider from
 * `mirrorDir` (and the extra mirrors' providers from theirs) and nothing
 * from a registry.
 *
 * @example
 * const { dir, env, root } = isolatedProgram("bench-tofu-", mirror.mirrorDir);
 */
export function isolatedProgram(prefix: string, mirrorDir: string, extraMirrors: readonly ExtraMirror[] = []): IsolatedProgram {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const dir = path.join(root, "program");
  const home = path.join(root, "home");
  for (const folder of [dir, home, path.join(root, "plugin-cache")]) fs.mkdirSync(folder);
  const cliConfigPath = path.join(root, "cli.tfrc");
  fs.writeFileSync(cliConfigPath, mirrorCliConfig(mirrorDir, extraMirrors));
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^(TF|TOFU)_/.test(key)) env[key] = value;
  Object.assign(env, {
    TF_CLI_CONFIG_FILE: cliConfigPath,
    TF_DATA_DIR: path.join(root, "data"),
    TF_PLUGIN_CACHE_DIR: path.join(root, "plugin-cache"),
    TF_IN_AUTOMATION: "1",
    TF_INPUT: "0",
    CHECKPOINT_DISABLE: "1",
    // No ~/.terraform.d or ~/.tofurc of the user's, nor their credentials.
    HOME: home,
    // The provider's launcher runs `node`: this run's.
    PATH: [path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
  });
  return { root, dir, cliConfigPath, env };
}
