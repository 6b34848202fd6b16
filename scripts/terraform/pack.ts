/**
 * The provider for Terraform and OpenTofu as a filesystem mirror, the
 * unpacked layout both CLIs read (`HOST/NAMESPACE/TYPE/VERSION/TARGET/`
 * holding an executable named `terraform-provider-TYPE…`):
 *
 *   dist-terraform/mirror/certreseller.invalid/certreseller/certreseller/<version>/linux_amd64/
 *     terraform-provider-certreseller_v<version>   a #!/bin/sh launcher: node …/bin/terraform-provider-certreseller
 *     node_modules/                                the packed SDK and its production dependencies
 *
 * The target folder holds everything the launcher runs: `init` links it (or
 * copies it) into `.terraform/providers/` or the plugin cache, and the
 * launcher finds its node_modules beside its own real path either way. The
 * production install is the Pulumi plugin archive's (scripts/plugin/pack.ts),
 * unpacked: one recipe for both front ends.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../engine/paths.js";
import { packPlugin, type PackedPlugin } from "../plugin/pack.js";

const run = promisify(execFile);

/**
 * The provider's source host. `.invalid` is reserved (RFC 2606, RFC 6761):
 * it never resolves, so no registry of anyone else's can ever answer for it,
 * and a CLI config without the mirror fails at once instead of installing
 * something else under this name.
 */
export const PROVIDER_HOST = "certreseller.invalid";
export const PROVIDER_NAMESPACE = "certreseller";
export const PROVIDER_TYPE = "certreseller";
/** `certreseller.invalid/certreseller/certreseller`: what `required_providers` names as `source`. */
export const PROVIDER_SOURCE = `${PROVIDER_HOST}/${PROVIDER_NAMESPACE}/${PROVIDER_TYPE}`;

/** The platform both CLIs are built for here; the launcher itself runs wherever Node does. */
export const MIRROR_TARGET = "linux_amd64";

export const MIRROR_LAUNCHER = `#!/bin/sh
# terraform-provider-certreseller: the certreseller provider for Terraform and OpenTofu (Node 22 or later on PATH).
# readlink -f: init links this folder into .terraform/providers; node_modules is beside the real file.
here="$(dirname "$(readlink -f "$0")")"
exec node "$here/node_modules/pulumi-certreseller/bin/terraform-provider-certreseller" "$@"
`;

export interface PackedMirror {
  version: string;
  /** The folder to name as `filesystem_mirror { path = … }`. */
  mirrorDir: string;
  /** The provider's executable inside the mirror. */
  executable: string;
  /** The CLI configuration that installs it from the mirror (also written as `<outDir>/terraformrc`). */
  cliConfig: string;
  cliConfigPath: string;
}

/**
 * Packs the built SDK (`npm run build` first) into `<outDir>/mirror`. Reuses
 * the plugin archive when current (its stamp), and the mirror when it was
 * unpacked from that same archive.
 *
 * @example
 * const { mirrorDir, cliConfigPath } = await packTerraformMirror({ outDir: "dist-terraform" });
 * // TF_CLI_CONFIG_FILE=<cliConfigPath> tofu init
 */
export async function packTerraformMirror(
  options: { outDir?: string; plugin?: PackedPlugin; log?: (line: string) => void } = {},
): Promise<PackedMirror> {
  const log = options.log ?? (() => undefined);
  const outDir = path.resolve(options.outDir ?? path.join(repoRoot, "dist-terraform"));
  const plugin = options.plugin ?? (await packPlugin({ outDir: path.join(outDir, "plugin-archive"), log }));
  const { version } = plugin;
  const mirrorDir = path.join(outDir, "mirror");
  const versionDir = path.join(mirrorDir, PROVIDER_HOST, PROVIDER_NAMESPACE, PROVIDER_TYPE, version);
  const targetDir = path.join(versionDir, MIRROR_TARGET);
  const executable = path.join(targetDir, `terraform-provider-${PROVIDER_TYPE}_v${version}`);
  const stamp = `${archiveIdentity(plugin.archivePath)} ${hashText(MIRROR_LAUNCHER)}`;
  const stampPath = path.join(versionDir, `.${MIRROR_TARGET}.stamp`);
  const cliConfig = mirrorCliConfig(mirrorDir);
  const cliConfigPath = path.join(outDir, "terraformrc");

  if (readText(stampPath) === stamp && fs.existsSync(executable)) {
    log(`${path.relative(process.cwd(), targetDir) || targetDir} is current (unpacked from the same plugin archive): reused`);
  } else {
    log(`unpacking ${path.basename(plugin.archivePath)} into the mirror at ${targetDir}`);
    fs.mkdirSync(versionDir, { recursive: true });
    // Built aside and renamed into place: a concurrent init never reads half a provider.
    const partial = fs.mkdtempSync(path.join(versionDir, `.${MIRROR_TARGET}.partial-`));
    try {
      await run("tar", ["-xzf", plugin.archivePath, "-C", partial]);
      // The Pulumi launcher is the archive's; this mirror's executable is the Terraform one.
      fs.rmSync(path.join(partial, "pulumi-resource-certreseller"), { force: true });
      fs.writeFileSync(path.join(partial, path.basename(executable)), MIRROR_LAUNCHER, { mode: 0o755 });
      fs.rmSync(stampPath, { force: true });
      const old = `${targetDir}.old-${process.pid}`;
      if (fs.existsSync(targetDir)) fs.renameSync(targetDir, old);
      fs.renameSync(partial, targetDir);
      fs.rmSync(old, { recursive: true, force: true });
      fs.writeFileSync(stampPath, stamp);
    } finally {
      fs.rmSync(partial, { recursive: true, force: true });
    }
  }
  writeIfChanged(cliConfigPath, cliConfig);
  return { version, mirrorDir, executable, cliConfig, cliConfigPath };
}

/**
 * The CLI configuration (`~/.terraformrc`, `~/.tofurc`, or the file
 * `TF_CLI_CONFIG_FILE` names) that installs the provider from `mirrorDir`
 * and every other provider as usual. `extraMirrors` adds other mirrors with
 * what they hold (the e2e suite's hashicorp/dns).
 *
 * @example
 * mirrorCliConfig("/opt/certreseller/mirror")
 */
export function mirrorCliConfig(mirrorDir: string, extraMirrors: readonly { path: string; include: readonly string[] }[] = []): string {
  const ours = `${PROVIDER_HOST}/*/*`;
  const mirrors = [{ path: mirrorDir, include: [ours] }, ...extraMirrors];
  const excluded = mirrors.flatMap((mirror) => mirror.include);
  const list = (items: readonly string[]) => `[${items.map((item) => JSON.stringify(item)).join(", ")}]`;
  return [
    "provider_installation {",
    ...mirrors.flatMap((mirror) => ["  filesystem_mirror {", `    path    = ${JSON.stringify(mirror.path)}`, `    include = ${list(mirror.include)}`, "  }"]),
    "  direct {",
    `    exclude = ${list(excluded)}`,
    "  }",
    "}",
    "",
  ].join("\n");
}

function archiveIdentity(file: string): string {
  const stat = fs.statSync(file);
  return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
}

function hashText(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function writeIfChanged(file: string, content: string): void {
  if (readText(file) === content) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial-${process.pid}`;
  fs.writeFileSync(partial, content);
  fs.renameSync(partial, file);
}
