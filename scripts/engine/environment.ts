import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Engine } from "./provision.js";
import { repoRoot } from "./paths.js";
import { DYNAMIC_PROVIDER_PLUGIN } from "./plugin-scripts.js";

/** Everything a single isolated engine run needs. */
export interface IsolatedEnvironment {
  pulumiPath: string;
  /** The folder holding `bin/pulumi`, as the Automation API's `PulumiCommand.get({ root })` wants it. */
  pulumiRoot: string;
  /** Prepended to PATH, in order. */
  binDirs: string[];
  /** Variables to lay over `process.env` for every engine process (includes PATH). */
  env: Record<string, string>;
  /** `file://` backend folder; the state files live here. */
  backendDir: string;
  /** Private `PULUMI_HOME`. */
  homeDir: string;
  /** Removes the temporary folders. */
  dispose(): void;
}

export interface IsolatedEnvironmentOptions {
  /**
   * Put the language host on PATH: needed by directory programs (`pulumi up`
   * in a folder), and it must stay off PATH otherwise, because the v3.68 host
   * makes policy packs fail ("not supported").
   */
  directoryProgram?: boolean;
  /**
   * Put the YAML language host on PATH: needed by YAML directory programs
   * (`runtime: yaml`). It does not break policy packs as the Node host does;
   * opt-in all the same, so a run sees only the plugins it asked for.
   */
  yamlProgram?: boolean;
  /** Stack secrets passphrase (default: a fixed test value; these stacks are throwaway). */
  passphrase?: string;
}

/**
 * A private engine environment: file backend and `PULUMI_HOME` in a fresh
 * temporary folder, no update check, no plugin download, Node 24 first on
 * PATH, the dynamic-provider plugin and the policy analyzer reachable.
 *
 * @example
 * const engine = await ensureEngine();
 * const isolated = isolatedEnvironment(engine);
 * execFileSync(isolated.pulumiPath, ["stack", "ls"], { env: { ...process.env, ...isolated.env } });
 * isolated.dispose();
 */
export function isolatedEnvironment(engine: Engine, options: IsolatedEnvironmentOptions = {}): IsolatedEnvironment {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-pulumi-"));
  const backendDir = path.join(dir, "state");
  const homeDir = path.join(dir, "home");
  fs.mkdirSync(backendDir);
  fs.mkdirSync(homeDir);

  const cliDir = path.dirname(engine.pulumiPath);
  const binDirs = [nodeBinDir(), cliDir, engine.analyzerDir];
  // A cached CLI has the dynamic-provider plugin beside it; an installed one normally too.
  if (!fs.existsSync(path.join(cliDir, DYNAMIC_PROVIDER_PLUGIN))) binDirs.push(dynamicProviderPluginDir());
  if (options.directoryProgram) {
    if (!engine.languageHostDir) {
      throw new Error("a directory program needs the Node language host; run `npm run engine` with `go` available to build it");
    }
    binDirs.push(engine.languageHostDir);
  }
  if (options.yamlProgram) {
    if (!engine.yamlLanguageHostDir) {
      throw new Error("a YAML program needs the YAML language host; run `npm run engine` with `go` available to build it");
    }
    binDirs.push(engine.yamlLanguageHostDir);
  }
  const env: Record<string, string> = {
    PATH: [...new Set(binDirs), process.env.PATH ?? ""].join(path.delimiter),
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_HOME: homeDir,
    PULUMI_CONFIG_PASSPHRASE: options.passphrase ?? "certreseller-throwaway-test-stacks",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
  };
  return {
    pulumiPath: engine.pulumiPath,
    pulumiRoot: pulumiRootFor(engine.pulumiPath, dir),
    binDirs,
    env,
    backendDir,
    homeDir,
    dispose: () => {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(path.join(repoRoot, "tmp", "pulumi-projects", path.basename(dir)), { recursive: true, force: true });
    },
  };
}

/** Node 24 from the `node` devDependency; the system Node (20) is too old for @pulumi/pulumi. */
export function nodeBinDir(): string {
  const fromPackage = path.join(repoRoot, "node_modules", "node", "bin");
  if (fs.existsSync(path.join(fromPackage, "node"))) return fromPackage;
  const major = Number(process.versions.node.split(".")[0]);
  if (major >= 22) return path.dirname(process.execPath);
  throw new Error(`Node >= 22 is needed for the engine's Node processes; found ${process.version} and no node_modules/node`);
}

/** `pulumi-resource-pulumi-nodejs` ships at the root of @pulumi/pulumi. */
export function dynamicProviderPluginDir(): string {
  return path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [repoRoot] }));
}

/** `PulumiCommand.get({ root })` runs `<root>/bin/pulumi`; give a CLI outside a `bin` folder one. */
function pulumiRootFor(pulumiPath: string, scratch: string): string {
  if (path.basename(path.dirname(pulumiPath)) === "bin") return path.dirname(path.dirname(pulumiPath));
  const root = path.join(scratch, "cli");
  fs.mkdirSync(path.join(root, "bin"), { recursive: true });
  fs.symlinkSync(pulumiPath, path.join(root, "bin", "pulumi"));
  return root;
}
