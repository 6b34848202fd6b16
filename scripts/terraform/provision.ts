import * as fs from "node:fs";
import { elapsed, goBinary, type Log } from "../engine/go-build.js";
import { isExecutable } from "../engine/system.js";
import { findOnPath } from "../engine/which.js";
import { buildOpenTofu, buildTerraform, toolVersion } from "./build.js";
import { cachedToolPath, terraformCacheRoot } from "./paths.js";
import { TOOL_NAMES, TOOL_VERSIONS, type TerraformToolName } from "./versions.js";

/** Where a tool came from, in the order they are tried. */
export type TerraformToolSource = "path" | "cache" | "built";

export interface TerraformTool {
  name: TerraformToolName;
  /** `1.13.3` */
  version: string;
  path: string;
  source: TerraformToolSource;
}

export type TerraformTools = Record<TerraformToolName, TerraformTool>;

export interface EnsureTerraformToolsOptions {
  /** Build from the Go module proxy when nothing usable is found (default true). */
  build?: boolean;
  log?: Log;
  /** Cache root override (tests). */
  root?: string;
}

export class TerraformToolUnavailableError extends Error {
  override name = "TerraformToolUnavailableError";
}

export const TOOLS_INSTALL_INSTRUCTIONS = [
  `Put \`tofu\` ${TOOL_VERSIONS.tofu} and \`terraform\` ${TOOL_VERSIONS.terraform} on PATH,`,
  "or install Go (1.26 or later) and run `npm run terraform:tools`: it builds both from the Go module proxy (about 14 minutes on 2 cores).",
].join("\n");

/**
 * Makes OpenTofu and Terraform available at their pinned versions, each tried
 * in order: on PATH at exactly that version, the user's cache, a build from
 * the Go module proxy. The builds run one after the other (each takes both
 * cores). Throws {@link TerraformToolUnavailableError} when one cannot be had.
 *
 * @example
 * const { tofu, terraform } = await ensureTerraformTools({ log: console.error });
 * // tofu.path: ~/.cache/pulumi-certreseller/terraform/tofu-v1.12.6/bin/tofu
 */
export async function ensureTerraformTools(options: EnsureTerraformToolsOptions = {}): Promise<TerraformTools> {
  const tools = {} as TerraformTools;
  for (const name of TOOL_NAMES) tools[name] = await ensureTool(name, options);
  return tools;
}

async function ensureTool(name: TerraformToolName, options: EnsureTerraformToolsOptions): Promise<TerraformTool> {
  const log = options.log ?? (() => {});
  const root = options.root ?? terraformCacheRoot();
  const version = TOOL_VERSIONS[name];
  const cached = cachedToolPath(name, root);
  const onPath = findOnPath(name);
  if (onPath && !sameFile(onPath, cached)) {
    const found = await toolVersion(onPath);
    // Exactly the pinned release: the e2e suite asserts what these versions print and accept.
    if (found === version) return { name, version, path: onPath, source: "path" };
    log(`ignoring ${onPath}: it is ${found ?? "of unknown version"}, not ${version}`);
  }
  if (isExecutable(cached)) return { name, version, path: cached, source: "cache" };
  if (options.build === false || !goBinary()) {
    throw new TerraformToolUnavailableError(
      `No ${name} ${version}: none on PATH, none cached at ${cached}` +
        (options.build === false ? " (building was not allowed).\n" : ", and no `go` to build one.\n") +
        TOOLS_INSTALL_INSTRUCTIONS,
    );
  }
  const started = Date.now();
  await (name === "tofu" ? buildOpenTofu : buildTerraform)(log, root);
  log(`${name} ${version} ready after ${elapsed(started)}`);
  return { name, version, path: cached, source: "built" };
}

function sameFile(a: string, b: string): boolean {
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return false;
  }
}
