import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { buildCli, buildLanguageHost, buildYamlLanguageHost } from "./builds.js";
import { elapsed, goBinary, type Log } from "./go-build.js";
import { cacheLayout, YAML_LANGUAGE_HOST, type CacheLayout } from "./paths.js";
import { writeDynamicProviderPlugin, writePolicyAnalyzer } from "./plugin-scripts.js";
import { MINIMUM_PULUMI_VERSION, PULUMI_VERSION, isAtLeast, parseVersion } from "./version.js";
import { isExecutable } from "./system.js";
import { findOnPath } from "./which.js";

const execFileAsync = promisify(execFile);

/** Where the engine came from, in the order they are tried. */
export type EngineSource = "env" | "path" | "cache" | "built";

/** A usable Pulumi engine on this machine. */
export interface Engine {
  source: EngineSource;
  /** `3.259.0` */
  version: string;
  pulumiPath: string;
  /**
   * Folder holding `pulumi-language-nodejs` (directory programs only); undefined
   * when none is available. For a CLI from PATH it is the CLI's own folder.
   */
  languageHostDir: string | undefined;
  /**
   * Folder holding `pulumi-language-yaml` (YAML directory programs); undefined
   * when none is available. For a CLI from PATH or `PULUMI_BINARY` it may be
   * the CLI's folder or the PATH entry that has one.
   */
  yamlLanguageHostDir: string | undefined;
  /** Folder holding the `pulumi-analyzer-policy-nodejs` script (policy packs with inline programs). */
  analyzerDir: string;
}

export interface EnsureEngineOptions {
  /** Build from Go modules when nothing usable is found (default true). */
  build?: boolean;
  /** Also provide the v3.68 language host for directory programs (default true). */
  languageHost?: boolean;
  /** Also provide the YAML language host for YAML directory programs (default true). */
  yamlHost?: boolean;
  log?: Log;
  /** Cache layout override (tests; default: the pinned version in the user's cache). */
  layout?: CacheLayout;
}

/** No engine found and none could be built. The message says how to install one. */
export class EngineUnavailableError extends Error {
  override name = "EngineUnavailableError";
}

export const INSTALL_INSTRUCTIONS = [
  `Install the official Pulumi CLI (v${MINIMUM_PULUMI_VERSION} or later): \`curl -fsSL https://get.pulumi.com | sh\``,
  "(or see https://www.pulumi.com/docs/iac/download-install/), then put it on PATH or set PULUMI_BINARY=/path/to/pulumi.",
  "Alternatively install Go (1.26 or later) and rerun `npm run engine`: it builds the CLI from the Go module proxy (about 7 minutes).",
].join("\n");

/**
 * Makes the Pulumi engine available, trying in order: `PULUMI_BINARY`, a
 * `pulumi` on PATH at least the pinned minimum, the user's cache, a build from
 * Go modules. Throws {@link EngineUnavailableError} when all fail.
 *
 * @example
 * const engine = await ensureEngine({ log: (l) => console.error(l) });
 * console.log(engine.pulumiPath); // ~/.cache/pulumi-certreseller/engine/v3.259.0/bin/pulumi
 */
export async function ensureEngine(options: EnsureEngineOptions = {}): Promise<Engine> {
  const log = options.log ?? (() => {});
  const layout = options.layout ?? cacheLayout(PULUMI_VERSION);
  const build = options.build ?? true;
  const wantLanguageHost = options.languageHost ?? true;
  const wantYamlHost = options.yamlHost ?? true;
  const canBuild = () => build && goBinary() !== undefined;
  const analyzerDir = writePolicyAnalyzer(layout);

  const installed = await fromEnvironmentOrPath(layout, log);
  if (installed) {
    // An installed CLI may come with the YAML host (official installs bundle it); else the cache's.
    const found = installedYamlHost(installed.pulumiPath) ?? cachedYamlHost(layout);
    const yamlLanguageHostDir = found ?? (wantYamlHost ? await provideYamlHost(layout, canBuild(), log) : undefined);
    return { ...installed, yamlLanguageHostDir, analyzerDir };
  }

  const started = Date.now();
  let source: EngineSource = "cache";
  if (!isExecutable(layout.pulumiPath)) {
    if (!canBuild()) {
      throw new EngineUnavailableError(
        `No Pulumi CLI: none on PATH or in PULUMI_BINARY, none cached at ${layout.pulumiPath}` +
          (build ? ", and no `go` to build one.\n" : " (building was not allowed).\n") +
          INSTALL_INSTRUCTIONS,
      );
    }
    await buildCli(layout, log);
    source = "built";
  }
  let languageHostDir: string | undefined = isExecutable(layout.languageHostPath) ? layout.languageHostDir : undefined;
  if (!languageHostDir && wantLanguageHost) {
    if (canBuild()) {
      await buildLanguageHost(layout, log);
      languageHostDir = layout.languageHostDir;
      if (source === "cache") source = "built";
    } else {
      log(`no language host at ${layout.languageHostPath} and no \`go\` to build it: directory programs will not run`);
    }
  }
  let yamlLanguageHostDir = cachedYamlHost(layout);
  if (!yamlLanguageHostDir && wantYamlHost) {
    yamlLanguageHostDir = await provideYamlHost(layout, canBuild(), log);
    if (yamlLanguageHostDir && source === "cache") source = "built";
  }
  writeDynamicProviderPlugin(layout);
  if (source === "built") log(`engine ready after ${elapsed(started)}`);
  return { source, version: PULUMI_VERSION, pulumiPath: layout.pulumiPath, languageHostDir, yamlLanguageHostDir, analyzerDir };
}

/** A `pulumi-language-yaml` beside an installed CLI, else on PATH: that user's own, kept in step with their CLI. */
function installedYamlHost(pulumiPath: string): string | undefined {
  const beside = path.dirname(pulumiPath);
  if (isExecutable(path.join(beside, YAML_LANGUAGE_HOST))) return beside;
  const onPath = findOnPath(YAML_LANGUAGE_HOST);
  return onPath ? path.dirname(onPath) : undefined;
}

function cachedYamlHost(layout: CacheLayout): string | undefined {
  return isExecutable(layout.yamlLanguageHostPath) ? layout.yamlLanguageHostDir : undefined;
}

/**
 * Builds the YAML host into the cache. When it cannot be built (no `go`, or
 * building not allowed) only YAML directory programs are lost, so it logs
 * instead of failing.
 */
async function provideYamlHost(layout: CacheLayout, canBuild: boolean, log: Log): Promise<string | undefined> {
  if (!canBuild) {
    log(
      `no YAML language host at ${layout.yamlLanguageHostPath}, and no building it (no \`go\`, or building not allowed): ` +
        "YAML directory programs will not run",
    );
    return undefined;
  }
  await buildYamlLanguageHost(layout, log);
  return layout.yamlLanguageHostDir;
}

/** Step 1: `PULUMI_BINARY` (must be usable: it was asked for), then PATH (skipped when too old). */
async function fromEnvironmentOrPath(
  layout: CacheLayout,
  log: Log,
): Promise<InstalledEngine | undefined> {
  const explicit = process.env.PULUMI_BINARY;
  if (explicit) {
    const version = await cliVersion(explicit);
    if (!version.ok) throw new EngineUnavailableError(`PULUMI_BINARY=${explicit}: ${version.problem}\n${INSTALL_INSTRUCTIONS}`);
    return installedEngine("env", explicit, version.version);
  }
  const onPath = findOnPath("pulumi");
  if (!onPath || sameFile(onPath, layout.pulumiPath)) return undefined;
  const version = await cliVersion(onPath);
  if (version.ok) return installedEngine("path", onPath, version.version);
  log(`ignoring ${onPath}: ${version.problem}`);
  return undefined;
}

type InstalledEngine = Omit<Engine, "analyzerDir" | "yamlLanguageHostDir">;

function installedEngine(source: EngineSource, pulumiPath: string, version: string): InstalledEngine {
  // An installed CLI ships its own current language host beside it.
  const dir = path.dirname(pulumiPath);
  const languageHostDir = isExecutable(path.join(dir, "pulumi-language-nodejs")) ? dir : undefined;
  return { source, version, pulumiPath, languageHostDir };
}

type VersionCheck = { ok: true; version: string } | { ok: false; problem: string };

async function cliVersion(pulumiPath: string): Promise<VersionCheck> {
  try {
    const { stdout } = await execFileAsync(pulumiPath, ["version"], {
      timeout: 15_000,
      env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
    });
    const parsed = parseVersion(stdout);
    if (!parsed) return { ok: false, problem: `\`pulumi version\` printed ${JSON.stringify(stdout.trim())}, not a version` };
    const version = parsed.join(".");
    if (!isAtLeast(parsed, MINIMUM_PULUMI_VERSION)) {
      return { ok: false, problem: `version ${version} is older than the required ${MINIMUM_PULUMI_VERSION}` };
    }
    return { ok: true, version };
  } catch (error) {
    return { ok: false, problem: `\`pulumi version\` failed: ${(error as Error).message.split("\n")[0]}` };
  }
}

function sameFile(a: string, b: string): boolean {
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return false;
  }
}
