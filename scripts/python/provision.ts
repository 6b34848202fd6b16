import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { pulumiPkgGoMod } from "../engine/builds.js";
import { elapsed, goBinary, goBuild, scratchDir, type Log } from "../engine/go-build.js";
import { cacheLayout, repoRoot } from "../engine/paths.js";
import { PULUMI_VERSION } from "../engine/version.js";
import { aptGetCommand, aptGetInstall, isAlive, isExecutable } from "../engine/system.js";
import { findOnPath } from "../engine/which.js";

const execFileAsync = promisify(execFile);

/**
 * The last `sdk/v3` module that holds the Python language host
 * (`python/cmd/pulumi-language-python`); its own module is refused by the
 * proxy. It ignores `runtime.options.virtualenv`: the program's virtualenv
 * goes first on PATH instead. It lacks GenerateProgram (`pulumi import`
 * needs it): `language-host/main.go` runs it behind a proxy that answers
 * that call with Pulumi's Python program generator at the engine's version.
 */
export const PYTHON_LANGUAGE_HOST_SDK_VERSION = "3.79.0";

/** What the Pulumi Python SDK needs, from Debian (no Python package index is reachable here). */
export const PYTHON_DEBIAN_PACKAGES = [
  "python3-grpcio",
  "python3-protobuf",
  "python3-dill",
  "python3-semver",
  "python3-yaml",
  "python3-packaging",
  "python3-debugpy",
  "python3-hatchling",
  "python3-venv",
  "python3-pip",
] as const;

/** The system Python, which sees Debian's packages (a pyenv `python3` first on PATH does not). */
export const SYSTEM_PYTHON = "/usr/bin/python3";

/**
 * Packages Debian lacks, each standing in for what `pip install` brings
 * elsewhere: OpenTelemetry (the Pulumi SDK imports it; do-nothing while
 * TRACEPARENT is unset) and parver (generated SDKs import it; on `packaging`).
 */
const STAND_INS_DIR = path.join(repoRoot, "scripts", "python", "stand-ins");
const STAND_INS = ["opentelemetry", "parver"].map((name) => path.join(STAND_INS_DIR, name));
const HOST = "pulumi-language-python";
const HOST_PROXY_SOURCE = path.join(repoRoot, "scripts", "python", "language-host", "main.go");
const hostProxyGoMod = () => pulumiPkgGoMod("example.com/certreseller-python-language-host", PULUMI_VERSION);
/** From the SDK module: the shim the v3.79.0 host runs programs with (it looks beside itself), and the dynamic-provider plugin (on PATH). */
const SDK_SCRIPTS = [
  { name: "pulumi-language-python-exec", from: "python/cmd/pulumi-language-python-exec", beside: "innerHostPath" },
  { name: "pulumi-resource-pulumi-python", from: "python/dist/pulumi-resource-pulumi-python", beside: "languageHostPath" },
] as const;
// Bump when the way the runtime virtualenv is made changes (the pyproject trims, the rpc.py patch):
// a cached one made the old way is remade. The stand-ins' files are hashed.
const RECIPE = "2";

/** A Python runtime for Pulumi programs: the SDK in a virtualenv, and the language host. */
export interface PythonRuntime {
  source: "cache" | "built";
  /** `3.11.2` */
  pythonVersion: string;
  /** The Pulumi Python SDK's version: the engine's. */
  sdkVersion: string;
  /** The virtualenv holding the `pulumi` package (made with `--system-site-packages`). */
  venvDir: string;
  /** `<venvDir>/lib/python3.X/site-packages`. */
  sitePackages: string;
  /** Holds `pulumi-language-python`, `pulumi-language-python-exec`, `pulumi-resource-pulumi-python`: on PATH for a `runtime: python` program. */
  languageHostDir: string;
  /** What each step did and how long it took. */
  steps: { step: string; did: string; ms: number }[];
}

export interface EnsurePythonOptions {
  log?: Log;
  /** Install missing Debian packages with apt-get (default true). */
  install?: boolean;
  /** Engine cache root override (tests). */
  cacheRoot?: string;
}

/** A piece is missing and could not be provided. The message says which and how. */
export class PythonUnavailableError extends Error {
  override name = "PythonUnavailableError";
}

/**
 * `<engine cache>/v<version>/python/`: `language-host/` (the proxy host, the
 * exec shim, the dynamic-provider plugin; `v3.79.0/` the host it runs) and `venv/`.
 */
export function pythonCacheLayout(cacheRoot?: string) {
  const dir = path.join(cacheLayout(PULUMI_VERSION, cacheRoot).versionDir, "python");
  const languageHostDir = path.join(dir, "language-host");
  return {
    dir,
    languageHostDir,
    languageHostPath: path.join(languageHostDir, HOST),
    /** What the proxy at languageHostPath was built from (a hash of its go.mod and source). */
    languageHostSourceMarker: path.join(languageHostDir, ".source"),
    innerHostPath: path.join(languageHostDir, `v${PYTHON_LANGUAGE_HOST_SDK_VERSION}`, HOST),
    venvDir: path.join(dir, "venv"),
  };
}

/**
 * Makes a Python runtime for Pulumi programs available, as `ensureEngine`
 * makes the CLI available, each step cached and idempotent:
 * 1. Debian's packages ({@link PYTHON_DEBIAN_PACKAGES}), installed with apt-get when missing (as root or `sudo -n`);
 * 2. the language host, built from the Go module proxy (`sdk/v3` v3.79.0) into the engine cache;
 * 3. a virtualenv of the system Python holding the Pulumi Python SDK at the engine's version, from the
 *    served `sdk/v3` module, plus small stand-ins for OpenTelemetry and parver (`stand-ins/`).
 * Throws {@link PythonUnavailableError} when a piece cannot be had.
 *
 * @example
 * const python = await ensurePython({ log: (l) => console.error(`[python] ${l}`) });
 * // python.venvDir ~/.cache/pulumi-certreseller/engine/v3.259.0/python/venv
 */
export async function ensurePython(options: EnsurePythonOptions = {}): Promise<PythonRuntime> {
  const log = options.log ?? (() => {});
  const layout = pythonCacheLayout(options.cacheRoot);
  const steps: PythonRuntime["steps"] = [];
  const step = async (name: string, work: () => Promise<string>) => {
    const started = Date.now();
    const did = await work();
    steps.push({ step: name, did, ms: Date.now() - started });
    if (!/^(cached|all present)/.test(did)) log(`${name}: ${did} (${elapsed(started)}, ${Date.now() - started} ms)`);
  };
  let built = false;

  await step("Debian packages", async () => {
    const missing = await missingPackages();
    if (missing.length === 0) return "all present";
    await aptInstall(missing, options.install ?? true, log);
    built = true;
    return `installed ${missing.join(" ")}`;
  });
  if (!fs.existsSync(SYSTEM_PYTHON)) throw new PythonUnavailableError(`no ${SYSTEM_PYTHON} after installing ${PYTHON_DEBIAN_PACKAGES.join(" ")}`);
  const pythonVersion = (await execFileAsync(SYSTEM_PYTHON, ["-c", "import platform; print(platform.python_version())"])).stdout.trim();

  let sdkDir: string | undefined;
  const sdkModule = async () => (sdkDir ??= await goModuleDir(`github.com/pulumi/pulumi/sdk/v3@v${PULUMI_VERSION}`));

  await step("language host", async () => {
    const proxySource = createHash("sha256").update(hostProxyGoMod()).update(fs.readFileSync(HOST_PROXY_SOURCE)).digest("hex");
    const scriptPath = (script: (typeof SDK_SCRIPTS)[number]) => path.join(path.dirname(layout[script.beside]), script.name);
    const scriptsReady = SDK_SCRIPTS.every((script) => isExecutable(scriptPath(script)));
    const proxyReady = isExecutable(layout.languageHostPath) && readOr(layout.languageHostSourceMarker) === proxySource;
    if (isExecutable(layout.innerHostPath) && proxyReady && scriptsReady) return `cached: ${layout.languageHostDir}`;
    if (!goBinary()) throw new PythonUnavailableError(`no Python language host at ${layout.languageHostPath} and no \`go\` to build it`);
    const did: string[] = [];
    if (!isExecutable(layout.innerHostPath)) {
      await buildPythonLanguageHost(layout.innerHostPath, log);
      did.push(`sdk/v3 v${PYTHON_LANGUAGE_HOST_SDK_VERSION} ${HOST}`);
    }
    if (!proxyReady) {
      await buildHostProxy(layout.languageHostPath, log);
      fs.writeFileSync(layout.languageHostSourceMarker, proxySource);
      did.push(`its GenerateProgram proxy (pkg/v3 v${PULUMI_VERSION})`);
    }
    for (const script of SDK_SCRIPTS) {
      const target = scriptPath(script);
      fs.copyFileSync(path.join(await sdkModule(), script.from), `${target}.partial`);
      fs.chmodSync(`${target}.partial`, 0o755);
      fs.renameSync(`${target}.partial`, target);
    }
    built = true;
    return `${did.length ? `built ${did.join(" and ")}, ` : ""}with the v${PULUMI_VERSION} exec shim: ${layout.languageHostDir}`;
  });

  const fingerprint = venvFingerprint(pythonVersion);
  const marker = path.join(layout.venvDir, ".certreseller-runtime");
  await step("virtualenv with the Pulumi SDK", async () => {
    if (readOr(marker) === fingerprint) return `cached: ${layout.venvDir}`;
    await makeRuntimeVenv(layout.venvDir, await sdkModule(), fingerprint, log);
    built = true;
    return `pulumi ${PULUMI_VERSION} and the stand-ins (opentelemetry, parver) in ${layout.venvDir}`;
  });

  return {
    source: built ? "built" : "cache",
    pythonVersion,
    sdkVersion: PULUMI_VERSION,
    venvDir: layout.venvDir,
    sitePackages: sitePackagesOf(layout.venvDir, pythonVersion),
    languageHostDir: layout.languageHostDir,
    steps,
  };
}

/**
 * A program's own virtualenv, as `python -m venv` and `pip install` make one
 * for a user: it sees the runtime's `pulumi` (a `.pth` line) and Debian's
 * packages; `packages` (folders with a pyproject.toml, e.g. the generated
 * SDK) are installed into it offline. Put its `bin` first on PATH.
 *
 * @example
 * const venv = await programVenv(python, path.join(dir, "venv"), ["generated-sdks/python"]);
 * env.PATH = `${venv.binDir}:${python.languageHostDir}:${env.PATH}`;
 */
export async function programVenv(runtime: PythonRuntime, dir: string, packages: readonly string[] = []): Promise<{ dir: string; binDir: string }> {
  await execFileAsync(SYSTEM_PYTHON, ["-m", "venv", "--system-site-packages", "--without-pip", dir]);
  fs.writeFileSync(path.join(sitePackagesOf(dir, runtime.pythonVersion), "certreseller-pulumi-runtime.pth"), `${runtime.sitePackages}\n`);
  const python = path.join(dir, "bin", "python");
  for (const from of packages) await pipInstall(python, from);
  return { dir, binDir: path.join(dir, "bin") };
}

/**
 * `pip install` with nothing from the network: no index, no dependency
 * resolution, the build backend (hatchling) from Debian. A copy of the
 * package is built, with the pyproject settings Debian's hatchling 1.12
 * refuses removed (see {@link trimPyproject}). No bytecode at install: the
 * runtime virtualenv is made under another name and renamed, and bytecode
 * written then would name the old paths in tracebacks.
 */
export async function pipInstall(python: string, packageDir: string): Promise<void> {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-pip-"));
  try {
    fs.cpSync(packageDir, copy, { recursive: true });
    const pyproject = path.join(copy, "pyproject.toml");
    if (fs.existsSync(pyproject)) fs.writeFileSync(pyproject, trimPyproject(fs.readFileSync(pyproject, "utf8")));
    await execFileAsync(python, ["-m", "pip", "install", "--no-index", "--no-deps", "--no-build-isolation", "--no-cache-dir", "--no-compile", "--disable-pip-version-check", "--quiet", copy], {
      env: { ...process.env, PIP_NO_INPUT: "1" },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stderr?: string; message: string }) => {
      throw new PythonUnavailableError(`pip install ${packageDir} failed: ${error.stderr?.trim() || error.message}`);
    });
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * Removes what hatchling 1.12 (Debian 12) refuses in a newer pyproject.toml:
 * the `classifiers` list (it rejects those it does not know, e.g. Python
 * 3.13 and 3.14), `license-files`, `core-metadata-version`; a PEP 639 SPDX
 * `license = "..."` string becomes the older `{ text = "..." }`.
 *
 * @example
 * trimPyproject('license-files = ["LICENSE"]\nname = "x"\n') // 'name = "x"\n'
 */
export function trimPyproject(text: string): string {
  return text
    .replace(/^classifiers\s*=\s*\[[^\]]*\]\s*\n/m, "")
    .replace(/^license-files\s*=.*\n/m, "")
    .replace(/^core-metadata-version\s*=.*\n/m, "")
    .replace(/^license\s*=\s*("[^"\n]*")\s*$/m, "license = { text = $1 }");
}

/**
 * semver 2.10 (Debian 12) has the class under its old name only: the SDK's
 * `from semver import Version` falls back to `VersionInfo` (same `parse`,
 * same comparisons).
 */
export function patchRpc(text: string): string {
  const line = "from semver import Version\n";
  if (!text.includes(line)) throw new PythonUnavailableError("pulumi/runtime/rpc.py no longer imports `from semver import Version`: review the semver fallback in scripts/python/provision.ts");
  return text.replace(line, "try:\n    from semver import Version\nexcept ImportError:  # semver < 3\n    from semver import VersionInfo as Version\n");
}

async function makeRuntimeVenv(venvDir: string, sdkModuleDir: string, fingerprint: string, log: Log): Promise<void> {
  // Made beside its final place and renamed: an interrupted run leaves no half-made virtualenv behind the marker.
  fs.mkdirSync(path.dirname(venvDir), { recursive: true });
  for (const name of fs.readdirSync(path.dirname(venvDir))) {
    const pid = /^venv\.partial-(\d+)$/.exec(name)?.[1];
    if (pid && !isAlive(Number(pid))) fs.rmSync(path.join(path.dirname(venvDir), name), { recursive: true, force: true });
  }
  const partial = `${venvDir}.partial-${process.pid}`;
  const source = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-python-sdk-"));
  try {
    log(`copying the Pulumi Python SDK from ${sdkModuleDir}/python`);
    for (const name of ["pyproject.toml", "README.md", "LICENSE"]) {
      const from = path.join(sdkModuleDir, "python", name);
      if (fs.existsSync(from)) fs.copyFileSync(from, path.join(source, name));
    }
    fs.cpSync(path.join(sdkModuleDir, "python", "lib", "pulumi"), path.join(source, "lib", "pulumi"), { recursive: true });
    // The module cache is read-only; the copy is not.
    await execFileAsync("chmod", ["-R", "u+w", source]);
    const rpc = path.join(source, "lib", "pulumi", "runtime", "rpc.py");
    fs.writeFileSync(rpc, patchRpc(fs.readFileSync(rpc, "utf8")));

    fs.rmSync(partial, { recursive: true, force: true });
    await execFileAsync(SYSTEM_PYTHON, ["-m", "venv", "--system-site-packages", "--without-pip", partial]);
    const python = path.join(partial, "bin", "python");
    log("pip install (offline): the stand-ins, the Pulumi SDK");
    for (const standIn of STAND_INS) await pipInstall(python, standIn);
    await pipInstall(python, source);
    const { stdout } = await execFileAsync(python, ["-c", "import pulumi, pulumi.runtime, pulumi.dynamic, parver; from pulumi._version import _VERSION; print(_VERSION)"], {
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
    });
    if (stdout.trim() !== PULUMI_VERSION) throw new PythonUnavailableError(`the virtualenv's pulumi reports ${JSON.stringify(stdout.trim())}, expected ${PULUMI_VERSION}`);
    fs.writeFileSync(path.join(partial, ".certreseller-runtime"), fingerprint);
    fs.rmSync(venvDir, { recursive: true, force: true });
    try {
      fs.renameSync(partial, venvDir);
    } catch (error) {
      // Another process made it at the same moment: keep theirs.
      if ((error as NodeJS.ErrnoException).code !== "ENOTEMPTY" && (error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  } finally {
    fs.rmSync(source, { recursive: true, force: true });
    fs.rmSync(partial, { recursive: true, force: true });
  }
}

/** What the cached virtualenv was made from: remade when any of it changes. */
function venvFingerprint(pythonVersion: string): string {
  const hash = createHash("sha256");
  hash.update(`recipe ${RECIPE}\npulumi ${PULUMI_VERSION}\npython ${pythonVersion}\n`);
  for (const file of listFiles(STAND_INS_DIR)) hash.update(`${path.relative(STAND_INS_DIR, file)}\n`).update(fs.readFileSync(file));
  return hash.digest("hex");
}

function buildPythonLanguageHost(output: string, log: Log): Promise<void> {
  const version = PYTHON_LANGUAGE_HOST_SDK_VERSION;
  return goBuild(
    {
      label: `Python language host (SDK v${version})`,
      scratchDir: scratchDir(`python-language-host-v${version}`),
      goMod: `module example.com/certreseller-engine-python-language-host

go 1.26.6

require github.com/pulumi/pulumi/sdk/v3 v${version}

tool github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python
`,
      pkg: "github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python",
      version: `v${version}`,
      output,
      expectedDuration: "about 30 s with a warm Go cache",
    },
    log,
  );
}

function buildHostProxy(output: string, log: Log): Promise<void> {
  return goBuild(
    {
      label: "Python language host proxy (GenerateProgram)",
      scratchDir: scratchDir("python-language-host-proxy"),
      goMod: hostProxyGoMod(),
      files: { "main.go": fs.readFileSync(HOST_PROXY_SOURCE, "utf8") },
      pkg: ".",
      version: `v${PULUMI_VERSION}`,
      output,
      expectedDuration: "about 30 s with a warm Go cache (it links pkg/v3's Python program generator)",
    },
    log,
  );
}

/** The module's folder in the Go module cache, downloading it from the proxy when missing. */
async function goModuleDir(module: string): Promise<string> {
  const go = goBinary();
  if (!go) throw new PythonUnavailableError(`the Pulumi Python SDK comes from the Go module ${module}, and there is no \`go\` to download it`);
  const { stdout } = await execFileAsync(go, ["mod", "download", "-json", module], { cwd: os.tmpdir(), maxBuffer: 4 * 1024 * 1024 });
  const dir = (JSON.parse(stdout) as { Dir?: string; Error?: string }).Dir;
  if (!dir) throw new PythonUnavailableError(`go mod download ${module}: ${stdout.trim()}`);
  return dir;
}

async function missingPackages(): Promise<string[]> {
  const dpkg = findOnPath("dpkg-query") ?? findOnPath("dpkg-query", "/usr/bin");
  if (!dpkg) throw new PythonUnavailableError(`no dpkg-query: this needs Debian's packages ${PYTHON_DEBIAN_PACKAGES.join(" ")}`);
  // dpkg-query exits 1 when a package is unknown; its stdout still lists the known ones.
  const result = await execFileAsync(dpkg, ["-W", "-f=${Package} ${Status}\n", ...PYTHON_DEBIAN_PACKAGES]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
  const installed = new Set(
    result.stdout
      .split("\n")
      .filter((line) => line.endsWith(" install ok installed"))
      .map((line) => line.split(" ")[0]!.replace(/:.*$/, "")),
  );
  return PYTHON_DEBIAN_PACKAGES.filter((name) => !installed.has(name));
}

async function aptInstall(packages: string[], allowed: boolean, log: Log): Promise<void> {
  const instructions = `apt-get update && apt-get install -y --no-install-recommends ${packages.join(" ")}`;
  if (!allowed) throw new PythonUnavailableError(`missing Debian packages ${packages.join(" ")} (installing was not allowed): run \`${instructions}\` as root`);
  const aptGet = aptGetCommand();
  if ("problem" in aptGet) {
    throw new PythonUnavailableError(
      aptGet.problem === "no apt-get"
        ? `missing Debian packages ${packages.join(" ")} and no apt-get: run \`${instructions}\` as root`
        : `missing Debian packages ${packages.join(" ")}; installing them needs root: run \`${instructions}\``,
    );
  }
  await aptGetInstall(aptGet.argv, packages, process.env, log).catch((cause: Error) => {
    throw new PythonUnavailableError(cause.message, { cause });
  });
}

function sitePackagesOf(venvDir: string, pythonVersion: string): string {
  const [major, minor] = pythonVersion.split(".");
  return path.join(venvDir, "lib", `python${major}.${minor}`, "site-packages");
}

function listFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.parentPath.includes("__pycache__"))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

function readOr(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
