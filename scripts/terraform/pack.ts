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
  /** The CLI configuration that installs it from the mirror (also written as `cliConfigPath`). */
  cliConfig: string;
  cliConfigPath: string;
  /** The other mirrors the CLI config names (hashicorp/dns's, when packed). */
  extraMirrors: ExtraMirror[];
}

/** Another provider's filesystem mirror and the sources it holds (its `include`). */
export interface ExtraMirror {
  path: string;
  include: readonly string[];
}

export interface PackTerraformMirrorOptions {
  /** Default `dist-terraform/`. */
  outDir?: string;
  /** The plugin archive to unpack (default: packed now into `<outDir>/plugin-archive`). */
  plugin?: PackedPlugin;
  /**
   * One mirror per archive content, `<outDir>/<hash>/mirror`, never changed
   * once made (default false: `<outDir>/mirror`, replaced when the archive
   * changes). For a tree several test runs share: a run repacking never
   * swaps the provider under another run's `init`, which reads every entry
   * of the mirror.
   */
  perContent?: boolean;
  /** Other providers' mirrors the CLI config names beside ours (scripts/terraform/dns-provider.ts's). */
  extraMirrors?: readonly ExtraMirror[];
  log?: (line: string) => void;
}

/** How long an unused per-content mirror is kept: a whole `npm test` (about 20 minutes) may still be using it. */
const PER_CONTENT_KEEP_MS = 60 * 60 * 1000;

/**
 * Packs the built SDK (`npm run build` first) into a filesystem mirror. Reuses
 * the plugin archive when current (its stamp), and the mirror when it was
 * unpacked from an archive of the same bytes.
 *
 * @example
 * const { mirrorDir, cliConfigPath } = await packTerraformMirror({ outDir: "dist-terraform" });
 * // TF_CLI_CONFIG_FILE=<cliConfigPath> tofu init
 */
export async function packTerraformMirror(options: PackTerraformMirrorOptions = {}): Promise<PackedMirror> {
  const log = options.log ?? (() => undefined);
  const outDir = path.resolve(options.outDir ?? path.join(repoRoot, "dist-terraform"));
  const plugin = options.plugin ?? (await packPlugin({ outDir: path.join(outDir, "plugin-archive"), log }));
  const { version } = plugin;
  const key = createHash("sha256").update(fs.readFileSync(plugin.archivePath)).update("\0").update(MIRROR_LAUNCHER).digest("hex").slice(0, 16);
  const root = options.perContent ? path.join(outDir, key) : outDir;
  const mirrorDir = path.join(root, "mirror");
  const relative = path.join(PROVIDER_HOST, PROVIDER_NAMESPACE, PROVIDER_TYPE, version, MIRROR_TARGET);
  const targetDir = path.join(mirrorDir, relative);
  const executable = path.join(targetDir, `terraform-provider-${PROVIDER_TYPE}_v${version}`);
  // Beside the mirror, never inside it: both CLIs read every entry under the mirror's folder.
  const stampPath = path.join(root, ".mirror-stamp");
  const extraMirrors = [...(options.extraMirrors ?? [])];
  const cliConfig = mirrorCliConfig(mirrorDir, extraMirrors);
  const cliConfigPath = path.join(root, "terraformrc");

  fs.mkdirSync(outDir, { recursive: true });
  if (readText(stampPath) === key && fs.existsSync(executable)) {
    log(`${path.relative(process.cwd(), targetDir) || targetDir} is current (unpacked from the same plugin archive): reused`);
    if (options.perContent) touch(root);
  } else {
    log(`unpacking ${path.basename(plugin.archivePath)} into the mirror at ${targetDir}`);
    // Built in a staging folder beside the output and renamed into place: no reader sees half a provider.
    const staging = fs.mkdtempSync(path.join(outDir, ".staging-"));
    fs.chmodSync(staging, 0o755); // mkdtemp makes it private; the per-content mirror is this folder renamed
    try {
      const stagedTarget = path.join(staging, "mirror", relative);
      fs.mkdirSync(stagedTarget, { recursive: true });
      await run("tar", ["-xzf", plugin.archivePath, "-C", stagedTarget]);
      // The Pulumi launcher is the archive's; this mirror's executable is the Terraform one.
      fs.rmSync(path.join(stagedTarget, "pulumi-resource-certreseller"), { force: true });
      fs.writeFileSync(path.join(stagedTarget, path.basename(executable)), MIRROR_LAUNCHER, { mode: 0o755 });
      if (options.perContent) {
        fs.writeFileSync(path.join(staging, ".mirror-stamp"), key);
        try {
          fs.renameSync(staging, root);
        } catch (error) {
          // Another run made the same mirror meanwhile: theirs is as good.
          if (!fs.existsSync(executable)) throw error;
        }
      } else {
        fs.rmSync(stampPath, { force: true });
        const old = path.join(outDir, `.old-${process.pid}`);
        if (fs.existsSync(mirrorDir)) fs.renameSync(mirrorDir, old);
        fs.renameSync(path.join(staging, "mirror"), mirrorDir);
        fs.rmSync(old, { recursive: true, force: true });
        fs.writeFileSync(stampPath, key);
      }
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
  }
  if (options.perContent) removeUnusedMirrors(outDir, key);
  writeIfChanged(cliConfigPath, cliConfig);
  return { version, mirrorDir, executable, cliConfig, cliConfigPath, extraMirrors };
}

/** Per-content mirrors (16 hex digits) not used for {@link PER_CONTENT_KEEP_MS}, and staging left by killed runs. */
function removeUnusedMirrors(outDir: string, current: string): void {
  for (const name of fs.readdirSync(outDir)) {
    if (name === current || !/^([0-9a-f]{16}|\.staging-.*)$/.test(name)) continue;
    const dir = path.join(outDir, name);
    try {
      if (Date.now() - fs.statSync(dir).mtimeMs > PER_CONTENT_KEEP_MS) fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // removed meanwhile by another run
    }
  }
}

function touch(dir: string): void {
  const now = new Date();
  try {
    fs.utimesSync(dir, now, now);
  } catch {
    // best effort: a mirror removed early is made again by the next run
  }
}

/**
 * The CLI configuration (`~/.terraformrc`, `~/.tofurc`, or the file
 * `TF_CLI_CONFIG_FILE` names) that installs the provider from `mirrorDir`
 * and every other provider as usual. `extraMirrors` adds other mirrors with
 * what they hold (hashicorp/dns's, built from third_party/: packDnsMirror).
 *
 * @example
 * mirrorCliConfig("/opt/certreseller/mirror")
 */
export function mirrorCliConfig(mirrorDir: string, extraMirrors: readonly ExtraMirror[] = []): string {
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
