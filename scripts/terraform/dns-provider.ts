/**
 * hashicorp/dns for Terraform and OpenTofu, built from its vendored source
 * (third_party/terraform-provider-dns/, see its PROVENANCE.md: the Go module
 * proxy answers 403 for the module) and laid out as a filesystem mirror:
 *
 *   <mirror>/registry.terraform.io/hashicorp/dns/3.6.1/linux_amd64/terraform-provider-dns_v3.6.1
 *   <mirror>/registry.opentofu.org/hashicorp/dns/3.6.1/linux_amd64/terraform-provider-dns_v3.6.1   (the same file)
 *
 * A bare `source = "hashicorp/dns"` means registry.terraform.io to Terraform
 * and registry.opentofu.org to OpenTofu: the mirror answers for both, so one
 * program runs under either CLI.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { elapsed, goBinary, lockScratch, removeStalePartials, runGo, scratchDir, type Log } from "../engine/go-build.js";
import { repoRoot } from "../engine/paths.js";
import { isExecutable } from "../engine/system.js";
import { cachedDnsProviderPath, terraformCacheRoot } from "./paths.js";
import { DNS_PROVIDER_VERSION } from "./versions.js";

const run = promisify(execFile);

/** The vendored module: `go build` runs here (it writes nothing into the folder). */
export const DNS_PROVIDER_SOURCE_DIR = path.join(repoRoot, "third_party", "terraform-provider-dns");

/** The sources the mirror answers for (`include` of its `filesystem_mirror`). */
export const DNS_PROVIDER_SOURCES = ["registry.terraform.io/hashicorp/dns", "registry.opentofu.org/hashicorp/dns"] as const;

/** The platform the CLIs are built for here (the provider is a native binary). */
const TARGET = "linux_amd64";

// main.go stamps no version (no `main.version` to set): the mirror's folder names it.
const LDFLAGS = "-s -w";

export class DnsProviderUnavailableError extends Error {
  override name = "DnsProviderUnavailableError";
}

export interface DnsProvider {
  version: string;
  /** The cached binary. */
  path: string;
  source: "cache" | "built";
}

/**
 * The key of the vendored source's content: every `.go` file, `go.mod` and
 * `go.sum` (paths and bytes), and the build flags. Docs in the folder do not
 * count: editing PROVENANCE.md rebuilds nothing.
 */
export function dnsProviderSourceKey(sourceDir = DNS_PROVIDER_SOURCE_DIR): string {
  const hash = createHash("sha256").update(`ldflags=${LDFLAGS}\0`);
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".go") || entry.name === "go.mod" || entry.name === "go.sum") files.push(path.relative(sourceDir, full));
    }
  };
  walk(sourceDir);
  if (!files.includes("go.mod")) throw new DnsProviderUnavailableError(`no go.mod in ${sourceDir}: the vendored hashicorp/dns source is missing`);
  for (const file of files.sort()) hash.update(`${file}\0`).update(fs.readFileSync(path.join(sourceDir, file))).update("\0");
  return hash.digest("hex").slice(0, 16);
}

/**
 * The hashicorp/dns binary for the vendored source as it is now: cached
 * (`<cache>/hashicorp-dns-v3.6.1/<key>/`), or built with `go` (2 to 5 min
 * cold on 2 cores, seconds with a warm Go build cache). Parallel runs wait
 * for one build.
 *
 * @example
 * const dns = await ensureDnsProvider({ log: console.error });
 * // dns.path: ~/.cache/pulumi-certreseller/terraform/hashicorp-dns-v3.6.1/<key>/terraform-provider-dns_v3.6.1
 */
export async function ensureDnsProvider(options: { log?: Log; root?: string } = {}): Promise<DnsProvider> {
  const log = options.log ?? (() => {});
  const output = cachedDnsProviderPath(dnsProviderSourceKey(), options.root ?? terraformCacheRoot());
  const found = { version: DNS_PROVIDER_VERSION, path: output };
  if (isExecutable(output)) return { ...found, source: "cache" };
  const go = goBinary();
  if (!go) {
    throw new DnsProviderUnavailableError(
      `No hashicorp/dns ${DNS_PROVIDER_VERSION} cached at ${output}, and no \`go\` to build it from third_party/terraform-provider-dns (Go 1.25.8 or later).`,
    );
  }
  const label = `hashicorp/dns v${DNS_PROVIDER_VERSION}`;
  const { release } = await lockScratch({ label, scratchDir: scratchDir(`hashicorp-dns-v${DNS_PROVIDER_VERSION}`) }, log);
  try {
    // Keyed by content: whoever held the lock built exactly this.
    if (isExecutable(output)) return { ...found, source: "cache" };
    const started = Date.now();
    log(`building ${label} from ${path.relative(process.cwd(), DNS_PROVIDER_SOURCE_DIR) || "."} (2 to 5 min cold on 2 cores, seconds with a warm Go build cache)`);
    fs.mkdirSync(path.dirname(output), { recursive: true });
    removeStalePartials(output);
    const partial = `${output}.partial-${process.pid}`;
    // No workspace or flags of the user's: -mod=readonly builds what go.sum pins or fails; no VCS stamp from this repository.
    const env = { ...process.env, CGO_ENABLED: "0", GOWORK: "off", GOFLAGS: "" };
    try {
      await runGo(go, ["build", "-trimpath", "-mod=readonly", "-buildvcs=false", "-ldflags", LDFLAGS, "-o", partial, "."], DNS_PROVIDER_SOURCE_DIR, env, started, `${label}: compiling`, log);
      await verifyPlugin(partial);
      fs.renameSync(partial, output);
    } finally {
      fs.rmSync(partial, { force: true });
    }
    log(`built ${label} in ${elapsed(started)}: ${output}`);
    return { ...found, source: "built" };
  } finally {
    release();
  }
}

/** A Terraform plugin run by hand says so and exits 1: proof the binary starts and is go-plugin's. */
async function verifyPlugin(binary: string): Promise<void> {
  try {
    await run(binary, [], { timeout: 15_000, env: { PATH: process.env.PATH ?? "" } });
  } catch (error) {
    if (String((error as { stderr?: string }).stderr).includes("This binary is a plugin")) return;
    throw new Error(`the fresh hashicorp/dns binary does not start as a Terraform plugin: ${(error as Error).message}`);
  }
  throw new Error("the fresh hashicorp/dns binary exited 0 when run by hand; a Terraform plugin refuses that");
}

export interface DnsMirror {
  version: string;
  /** The folder to name as `filesystem_mirror { path = … }`. */
  mirrorDir: string;
  /** What it holds: its `include`. */
  include: string[];
}

/**
 * Lays the binary out as a filesystem mirror: `<outDir>/mirror-hashicorp-dns`
 * (replaced when the binary changes), or with `perContent` one folder per
 * binary, `<outDir>/hashicorp-dns-<key>/mirror`, never changed once made (the
 * e2e suite's runs share the tree). Built beside and renamed into place: both
 * CLIs read every entry under a mirror.
 */
export function packDnsMirror(provider: DnsProvider, options: { outDir: string; perContent?: boolean; log?: Log }): DnsMirror {
  const log = options.log ?? (() => {});
  const outDir = path.resolve(options.outDir);
  const key = path.basename(path.dirname(provider.path));
  const mirrorDir = options.perContent ? path.join(outDir, `hashicorp-dns-${key}`, "mirror") : path.join(outDir, "mirror-hashicorp-dns");
  const stampPath = options.perContent ? undefined : path.join(outDir, ".mirror-hashicorp-dns-stamp");
  const name = `terraform-provider-dns_v${provider.version}`;
  const relative = (source: string) => path.join(source, provider.version, TARGET, name);
  const result = { version: provider.version, mirrorDir, include: [...DNS_PROVIDER_SOURCES] };
  const current = DNS_PROVIDER_SOURCES.every((source) => isExecutable(path.join(mirrorDir, relative(source))));
  if (current && (!stampPath || readText(stampPath) === key)) return result;

  log(`laying out hashicorp/dns ${provider.version} as a filesystem mirror at ${mirrorDir}`);
  fs.mkdirSync(outDir, { recursive: true });
  const staging = fs.mkdtempSync(path.join(outDir, ".staging-dns-"));
  fs.chmodSync(staging, 0o755);
  try {
    for (const source of DNS_PROVIDER_SOURCES) {
      const target = path.join(staging, "mirror", relative(source));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      // A hard link where the cache shares the file system (22 MB saved per copy), a copy elsewhere.
      try {
        fs.linkSync(provider.path, target);
      } catch {
        fs.copyFileSync(provider.path, target);
        fs.chmodSync(target, 0o755);
      }
    }
    if (options.perContent) {
      fs.mkdirSync(path.dirname(path.dirname(mirrorDir)), { recursive: true });
      try {
        fs.renameSync(staging, path.dirname(mirrorDir));
      } catch (error) {
        // Another run made the same mirror meanwhile: theirs is as good.
        if (!fs.existsSync(mirrorDir)) throw error;
      }
    } else {
      if (stampPath) fs.rmSync(stampPath, { force: true });
      const old = path.join(outDir, `.old-dns-${process.pid}`);
      if (fs.existsSync(mirrorDir)) fs.renameSync(mirrorDir, old);
      fs.renameSync(path.join(staging, "mirror"), mirrorDir);
      fs.rmSync(old, { recursive: true, force: true });
      if (stampPath) fs.writeFileSync(stampPath, key);
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return result;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
