/**
 * The Pulumi Cloudflare provider plugin for the tests that compose with
 * `@pulumi/cloudflare`: found in the Pulumi home, else unpacked from a
 * prebuilt copy beside the checkout (as CI provides), else installed with
 * `pulumi plugin install`, what a user with internet access runs.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../engine/paths.js";

const execFileAsync = promisify(execFile);

/** Pinned once: `@pulumi/cloudflare` is pinned to the same version wherever a test runs this plugin. */
export const CLOUDFLARE_PLUGIN_VERSION = "6.17.0";
export const CLOUDFLARE_PLUGIN_EXECUTABLE = "pulumi-resource-cloudflare";
/** The prebuilt copy's file name, in the third-party folder beside the checkout. */
export const CLOUDFLARE_PLUGIN_ARCHIVE = `pulumi-resource-cloudflare-v${CLOUDFLARE_PLUGIN_VERSION}-linux-amd64.xz`;
/** The unpacked binary's sha256, as its provenance records it. */
export const CLOUDFLARE_PLUGIN_SHA256 = "62bf99c4ef139bfef4f4538cb7f56fd7f8d2e45382deffd1d3eca15416d27608";

/** Where the plugin came from, in the order they are tried. */
export type CloudflarePluginSource = "pulumi-home" | "cache" | "third-party" | "plugin-install";

export interface CloudflarePlugin {
  source: CloudflarePluginSource;
  version: string;
  /** The executable; install it into a Pulumi home with {@link cloudflareInstallArgs}. */
  binaryPath: string;
  /** How long finding or making it took. */
  elapsedMs: number;
}

export interface EnsureCloudflarePluginOptions {
  /** The Pulumi CLI, for the last rung (`pulumi plugin install`). */
  pulumiPath?: string;
  log?: (line: string) => void;
  /** Overrides for tests. */
  pulumiHome?: string;
  cacheRoot?: string;
  thirdPartyDir?: string;
}

export class CloudflarePluginUnavailableError extends Error {
  override name = "CloudflarePluginUnavailableError";
}

/** `${PULUMI_HOME:-~/.pulumi}`, where `pulumi plugin install` puts plugins. */
export function defaultPulumiHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.PULUMI_HOME || path.join(os.homedir(), ".pulumi");
}

/** `${XDG_CACHE_HOME:-~/.cache}/pulumi-certreseller/cloudflare`, shared by every clone. */
export function cloudflareCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-certreseller", "cloudflare");
}

/**
 * The third-party folder beside the checkout, where CI puts prebuilt
 * binaries (`CERTRESELLER_THIRD_PARTY_DIR` overrides it).
 */
export function thirdPartyDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CERTRESELLER_THIRD_PARTY_DIR || path.join(path.dirname(repoRoot), "shared", "third-party");
}

/** `pulumi` arguments installing `binaryPath` as the plugin, as its provenance says. */
export function cloudflareInstallArgs(binaryPath: string): string[] {
  return ["plugin", "install", "resource", "cloudflare", CLOUDFLARE_PLUGIN_VERSION, "--file", binaryPath];
}

/** The installed plugin's executable inside a Pulumi home. */
export function installedPluginPath(pulumiHome: string): string {
  return path.join(pulumiHome, "plugins", `resource-cloudflare-v${CLOUDFLARE_PLUGIN_VERSION}`, CLOUDFLARE_PLUGIN_EXECUTABLE);
}

/** A plugin directory Pulumi finished writing (an interrupted install leaves a `.partial` marker beside it). */
function completeInstall(pulumiHome: string): string | undefined {
  const binary = installedPluginPath(pulumiHome);
  const partial = `${path.dirname(binary)}.partial`;
  return fs.existsSync(binary) && !fs.existsSync(partial) ? binary : undefined;
}

/**
 * Finds or makes the Cloudflare provider plugin, trying in order: a plugin
 * already installed in the Pulumi home; the unpacked prebuilt copy in the
 * cache (keyed by the archive's sha256); the prebuilt copy, unpacked and
 * checked now; `pulumi plugin install resource cloudflare <version>` into a
 * Pulumi home of the cache. Throws {@link CloudflarePluginUnavailableError}
 * when all fail.
 *
 * @example
 * const plugin = await ensureCloudflarePlugin({ pulumiPath: engine.pulumiPath });
 * execFileSync(engine.pulumiPath, cloudflareInstallArgs(plugin.binaryPath), { env });
 */
export async function ensureCloudflarePlugin(options: EnsureCloudflarePluginOptions = {}): Promise<CloudflarePlugin> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const done = (source: CloudflarePluginSource, binaryPath: string): CloudflarePlugin => {
    const plugin = { source, version: CLOUDFLARE_PLUGIN_VERSION, binaryPath, elapsedMs: Date.now() - started };
    log(`cloudflare plugin v${plugin.version} (${source}, ${plugin.elapsedMs} ms): ${binaryPath}`);
    return plugin;
  };

  const home = options.pulumiHome ?? defaultPulumiHome();
  const installed = completeInstall(home);
  if (installed) return done("pulumi-home", installed);

  const cacheRoot = path.join(options.cacheRoot ?? cloudflareCacheRoot(), `v${CLOUDFLARE_PLUGIN_VERSION}`);
  const archive = path.join(options.thirdPartyDir ?? thirdPartyDir(), CLOUDFLARE_PLUGIN_ARCHIVE);
  if (fs.existsSync(archive)) {
    const key = await sha256(archive);
    const cached = path.join(cacheRoot, key, CLOUDFLARE_PLUGIN_EXECUTABLE);
    if (fs.existsSync(cached)) return done("cache", cached);
    log(`unpacking the prebuilt copy beside the checkout (${(fs.statSync(archive).size / 1e6).toFixed(1)} MB, xz) into the cache...`);
    fs.mkdirSync(path.dirname(cached), { recursive: true });
    const tmp = `${cached}.${process.pid}.tmp`;
    try {
      await execFileAsync("sh", ["-c", 'xz -dc "$1" > "$2"', "sh", archive, tmp], { maxBuffer: 1 << 20 });
      const got = await sha256(tmp);
      if (got !== CLOUDFLARE_PLUGIN_SHA256) {
        throw new CloudflarePluginUnavailableError(`${archive} unpacked to a binary with sha256 ${got}, not the ${CLOUDFLARE_PLUGIN_SHA256} its provenance records`);
      }
      fs.chmodSync(tmp, 0o755);
      fs.renameSync(tmp, cached);
    } finally {
      fs.rmSync(tmp, { force: true });
    }
    return done("third-party", cached);
  }

  const cacheHome = path.join(cacheRoot, "pulumi-home");
  const fromInstall = completeInstall(cacheHome);
  if (fromInstall) return done("cache", fromInstall);
  if (options.pulumiPath !== undefined) {
    log(`no prebuilt copy (${archive}); running \`pulumi plugin install resource cloudflare ${CLOUDFLARE_PLUGIN_VERSION}\`...`);
    try {
      await execFileAsync(options.pulumiPath, ["plugin", "install", "resource", "cloudflare", CLOUDFLARE_PLUGIN_VERSION, "--non-interactive"], {
        env: { ...process.env, PULUMI_HOME: cacheHome, PULUMI_SKIP_UPDATE_CHECK: "true" },
        maxBuffer: 16 << 20,
      });
      const binary = completeInstall(cacheHome);
      if (binary) return done("plugin-install", binary);
    } catch (error) {
      const e = error as { stderr?: string; message: string };
      log(`pulumi plugin install failed: ${(e.stderr || e.message).trim().split("\n").slice(-3).join(" / ")}`);
    }
  }
  throw new CloudflarePluginUnavailableError(
    [
      `the Pulumi Cloudflare provider plugin v${CLOUDFLARE_PLUGIN_VERSION} is not available: not installed in ${home},`,
      `no prebuilt copy at ${archive}, and \`pulumi plugin install resource cloudflare ${CLOUDFLARE_PLUGIN_VERSION}\` did not install it.`,
      `With internet access run that command; or put the binary in place with \`pulumi plugin install resource cloudflare ${CLOUDFLARE_PLUGIN_VERSION} --file <binary>\`.`,
    ].join("\n"),
  );
}

async function sha256(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
