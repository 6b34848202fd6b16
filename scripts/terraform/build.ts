import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { elapsed, goBinary, lockScratch, removeStalePartials, runGo, scratchDir, type Log } from "../engine/go-build.js";
import { cachedToolPath, terraformCacheRoot } from "./paths.js";
import { OPENTOFU_VERSION, TERRAFORM_VERSION, type TerraformToolName } from "./versions.js";

const execFileAsync = promisify(execFile);

/** A program built inside a writable copy of its own module's zip (as its release builds do), not through a scratch module. */
export interface ModuleZipBuild {
  /** Shown in progress lines: "OpenTofu v1.12.6". */
  label: string;
  module: string;
  /** `v1.12.6` */
  version: string;
  /** The `main` package, relative to the module root: `./cmd/tofu`. */
  pkg: string;
  /** Edits the copied source before the build (the copy is fresh each time). */
  patch?: (sourceDir: string) => void;
  ldflags: string;
  output: string;
  expectedDuration: string;
  /** Checks the fresh binary before it is installed. */
  verify?: (binary: string) => Promise<void>;
}

/**
 * Downloads `module@version` from the Go module proxy, copies it somewhere
 * writable, patches it, and builds `pkg` into `output` (atomically, as
 * scripts/engine/go-build.ts does). `go install module/pkg@version` is refused
 * for these modules: their go.mod has replace directives.
 */
export async function buildFromModuleZip(spec: ModuleZipBuild, log: Log): Promise<void> {
  const go = goBinary();
  if (!go) throw new Error(`cannot build ${spec.label}: no \`go\` on PATH`);
  const scratch = scratchDir(`${path.basename(spec.module)}-${spec.version}`);
  const before = identity(spec.output);
  const { waited, release } = await lockScratch({ label: spec.label, scratchDir: scratch }, log);
  try {
    if (waited && fs.existsSync(spec.output) && identity(spec.output) !== before) {
      log(`${spec.label}: built meanwhile by another run: ${spec.output}`);
      return;
    }
    const started = Date.now();
    const env = { ...process.env, CGO_ENABLED: "0" };
    log(`building ${spec.label} from its module zip in ${scratch} (${spec.expectedDuration})`);
    const { stdout } = await execFileAsync(go, ["mod", "download", "-json", `${spec.module}@${spec.version}`], { env, maxBuffer: 4 * 1024 * 1024 });
    const { Dir: moduleDir, Error: problem } = JSON.parse(stdout) as { Dir?: string; Error?: string };
    if (!moduleDir) throw new Error(`go mod download ${spec.module}@${spec.version}: ${problem ?? "no Dir in its answer"}`);
    // The module cache is read-only; the build needs a copy it may patch. A fresh copy each time: no patch is applied twice.
    const sourceDir = path.join(scratch, "src");
    fs.rmSync(sourceDir, { recursive: true, force: true });
    fs.mkdirSync(scratch, { recursive: true });
    fs.cpSync(moduleDir, sourceDir, { recursive: true });
    await execFileAsync("chmod", ["-R", "u+w", sourceDir]);
    spec.patch?.(sourceDir);
    fs.mkdirSync(path.dirname(spec.output), { recursive: true });
    removeStalePartials(spec.output);
    const partial = `${spec.output}.partial-${process.pid}`;
    try {
      await runGo(go, ["build", "-trimpath", "-buildvcs=false", "-ldflags", spec.ldflags, "-o", partial, spec.pkg], sourceDir, env, started, `${spec.label}: compiling`, log);
      await spec.verify?.(partial);
      fs.renameSync(partial, spec.output);
    } finally {
      fs.rmSync(partial, { force: true });
    }
    // The copy is 40-odd MB of source nobody reads again; the Go caches keep what a rebuild needs.
    fs.rmSync(sourceDir, { recursive: true, force: true });
    log(`built ${spec.label} in ${elapsed(started)}: ${spec.output}`);
  } finally {
    release();
  }
}

function identity(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return "absent";
  }
}

/** `tofu version` / `terraform version` must name exactly the pinned release (no `-dev`). */
export function expectVersion(tool: TerraformToolName, version: string): (binary: string) => Promise<void> {
  return async (binary) => {
    const found = await toolVersion(binary);
    if (found !== version) throw new Error(`the fresh ${tool} reports ${JSON.stringify(found)}, expected ${version}`);
  };
}

/** The version `binary version -json` reports (`1.13.3`, or `1.13.3-dev` for an unstamped build); undefined when it cannot say. */
export async function toolVersion(binary: string): Promise<string | undefined> {
  try {
    const { stdout } = await execFileAsync(binary, ["version", "-json"], {
      timeout: 15_000,
      // No update check, and no user's CLI config: its warnings go to stderr but its mirrors are not ours to read.
      env: { ...process.env, CHECKPOINT_DISABLE: "1", TF_CLI_CONFIG_FILE: "/dev/null" },
    });
    return (JSON.parse(stdout) as { terraform_version?: string }).terraform_version;
  } catch {
    return undefined;
  }
}

// The nine remote-state backends that Terraform keeps as nested modules
// (replaced to ./internal/backend/remote-state/<name> in its go.mod): a module
// zip leaves nested modules out, so their folders are absent and Terraform
// cannot compile with them registered. The e2e suite uses the local backend.
const TERRAFORM_NESTED_BACKENDS: Record<string, string> = {
  azure: "azurerm",
  consul: "consul",
  cos: "cos",
  gcs: "gcs",
  kubernetes: "kubernetes",
  oss: "oss",
  pg: "pg",
  s3: "s3",
  oci: "oci",
};

/** Drops the nested backends' imports and registrations from `internal/backend/init/init.go`. */
export function patchTerraformBackends(sourceDir: string): void {
  const initGo = path.join(sourceDir, "internal", "backend", "init", "init.go");
  const original = fs.readFileSync(initGo, "utf8");
  const kept = original.split("\n").filter((line) => {
    for (const [folder, name] of Object.entries(TERRAFORM_NESTED_BACKENDS)) {
      if (line.includes(`"github.com/hashicorp/terraform/internal/backend/remote-state/${folder}"`)) return false;
      if (new RegExp(`^\\s*"${name}":\\s*func\\(\\)`).test(line)) return false;
    }
    return true;
  });
  if (original.split("\n").length - kept.length !== 2 * Object.keys(TERRAFORM_NESTED_BACKENDS).length) {
    throw new Error(`${initGo}: expected to drop ${2 * Object.keys(TERRAFORM_NESTED_BACKENDS).length} lines (imports and registrations of the nested backends); this release differs, update scripts/terraform/build.ts`);
  }
  fs.writeFileSync(initGo, kept.join("\n"));
  for (const folder of Object.keys(TERRAFORM_NESTED_BACKENDS)) {
    fs.rmSync(path.join(sourceDir, "internal", "backend", "remote-state", folder), { recursive: true, force: true });
  }
}

export function buildOpenTofu(log: Log, root = terraformCacheRoot()): Promise<void> {
  return buildFromModuleZip(
    {
      label: `OpenTofu v${OPENTOFU_VERSION}`,
      module: "github.com/opentofu/opentofu",
      version: `v${OPENTOFU_VERSION}`,
      pkg: "./cmd/tofu",
      // dev=no: a release build's stamp, so `tofu version` says 1.12.6, not 1.12.6-dev.
      ldflags: "-s -w -X github.com/opentofu/opentofu/version.dev=no",
      output: cachedToolPath("tofu", root),
      expectedDuration: "about 10 min cold on 2 cores, seconds with a warm Go build cache",
      verify: expectVersion("tofu", OPENTOFU_VERSION),
    },
    log,
  );
}

export function buildTerraform(log: Log, root = terraformCacheRoot()): Promise<void> {
  return buildFromModuleZip(
    {
      label: `Terraform v${TERRAFORM_VERSION}`,
      module: "github.com/hashicorp/terraform",
      version: `v${TERRAFORM_VERSION}`,
      pkg: ".",
      patch: patchTerraformBackends,
      ldflags: "-s -w -X github.com/hashicorp/terraform/version.dev=no",
      output: cachedToolPath("terraform", root),
      expectedDuration: "about 4 min cold on 2 cores, seconds with a warm Go build cache",
      verify: expectVersion("terraform", TERRAFORM_VERSION),
    },
    log,
  );
}
