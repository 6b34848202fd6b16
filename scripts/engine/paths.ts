import * as os from "node:os";
import * as path from "node:path";

/** The YAML language host's file name, in the cache and beside an installed CLI. */
export const YAML_LANGUAGE_HOST = "pulumi-language-yaml";

/** The repository root (this file lives in `scripts/engine/`). */
export const repoRoot = path.resolve(__dirname, "..", "..");

/**
 * `${CERTRESELLER_ENGINE_CACHE:-${XDG_CACHE_HOME:-~/.cache}/pulumi-certreseller/engine}`:
 * the cache is per user, not per checkout, so every clone shares one build.
 */
export function engineCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CERTRESELLER_ENGINE_CACHE) return path.resolve(env.CERTRESELLER_ENGINE_CACHE);
  const cacheHome = env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(cacheHome, "pulumi-certreseller", "engine");
}

/**
 * Where one version lives in the cache. The language hosts and the policy
 * analyzer each get their own folder: the CLI discovers plugins beside its
 * binary, and a discoverable v3.68 language host breaks policy packs; each
 * run puts on PATH only the hosts it asked for.
 */
export interface CacheLayout {
  /** `<cache>/v<version>`; also the Automation API's `PulumiCommand` root. */
  versionDir: string;
  binDir: string;
  pulumiPath: string;
  languageHostDir: string;
  languageHostPath: string;
  /** Folder holding only `pulumi-language-yaml` (YAML directory programs). */
  yamlLanguageHostDir: string;
  yamlLanguageHostPath: string;
  analyzerDir: string;
  analyzerPath: string;
  /** The SDK generators of `scripts/sdkgen/`, one file per source hash (never on PATH). */
  sdkgenDir: string;
}

export function cacheLayout(version: string, root = engineCacheRoot()): CacheLayout {
  const versionDir = path.join(root, `v${version}`);
  const binDir = path.join(versionDir, "bin");
  const languageHostDir = path.join(versionDir, "language-host");
  const yamlLanguageHostDir = path.join(versionDir, "yaml-language-host");
  const analyzerDir = path.join(versionDir, "policy-analyzer");
  return {
    versionDir,
    binDir,
    pulumiPath: path.join(binDir, "pulumi"),
    languageHostDir,
    languageHostPath: path.join(languageHostDir, "pulumi-language-nodejs"),
    yamlLanguageHostDir,
    yamlLanguageHostPath: path.join(yamlLanguageHostDir, YAML_LANGUAGE_HOST),
    analyzerDir,
    analyzerPath: path.join(analyzerDir, "pulumi-analyzer-policy-nodejs"),
    sdkgenDir: path.join(versionDir, "sdkgen"),
  };
}
