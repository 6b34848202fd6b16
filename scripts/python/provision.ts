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
import { isAlive, isExecutable } from "../engine/system.js";

const execFileAsync = promisify(execFile);

/**
 * The Python language host's own Go module. The proxy here refuses it at
 * every version (its version list and each version answer 403), so the
 * host comes from {@link PYTHON_LANGUAGE_HOST_SDK_VERSION}.
 */
export const PYTHON_LANGUAGE_HOST_MODULE = "github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3";

/**
 * The last `sdk/v3` module that holds the Python language host
 * (`python/cmd/pulumi-language-python`; v3.80.0 moved it to its own module):
 * the newest Python host the Go module proxy serves. It lacks GenerateProgram
 * (`pulumi import`) and reads `runtime.options.virtualenv` only from flags the
 * engine no longer passes: `language-host/main.go` runs it behind a proxy
 * that bridges both.
 */
export const PYTHON_LANGUAGE_HOST_SDK_VERSION = "3.79.0";

/** pytest from PyPI, for the test that imports the installed generated SDK (tests/e2e/python/). */
export const PYTEST_VERSION = "9.2.0";

/** The Python the SDK's `requires-python` accepts (pulumi 3.259: >= 3.10). */
const MINIMUM_PYTHON = [3, 10] as const;

const HOST = "pulumi-language-python";
const HOST_PROXY_SOURCE = path.join(repoRoot, "scripts", "python", "language-host", "main.go");
const hostProxyGoMod = () => pulumiPkgGoMod("example.com/certreseller-python-language-host", PULUMI_VERSION);
/** From the SDK module at the engine's version, as the CLI bundles them beside its hosts: the shim the host runs programs with (it looks beside itself), and the dynamic-provider plugin (on PATH). */
const SDK_SCRIPTS = [
  { name: "pulumi-language-python-exec", from: "python/cmd/pulumi-language-python-exec", beside: "innerHostPath" },
  { name: "pulumi-resource-pulumi-python", from: "python/dist/pulumi-resource-pulumi-python", beside: "languageHostPath" },
] as const;
// Bump when the way the runtime virtualenv is made changes: a cached one made the old way is remade.
const RECIPE = "3";

/** A Python runtime for Pulumi programs: a Python with venv and pip, the language host, and a virtualenv with the Pulumi SDK from PyPI. */
export interface PythonRuntime {
  source: "cache" | "built";
  /** `3.11.7` */
  pythonVersion: string;
  /** The interpreter virtualenvs are made from (`sys.executable` of `python3` on PATH, or `CERTRESELLER_PYTHON`). */
  python: string;
  /** The Pulumi Python SDK's version in the virtualenv: the engine's. */
  sdkVersion: string;
  /** A virtualenv holding `pulumi` (at the engine's version) and `pytest`, installed from PyPI with pip. */
  venvDir: string;
  /** Holds `pulumi-language-python`, `pulumi-language-python-exec`, `pulumi-resource-pulumi-python`: on PATH for a `runtime: python` program, as the CLI's own folder is for a user. */
  languageHostDir: string;
  /** What each step did and how long it took. */
  steps: { step: string; did: string; ms: number }[];
}

export interface EnsurePythonOptions {
  log?: Log;
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
 * 1. a Python (3.10 or later) with `venv` and `pip`: `CERTRESELLER_PYTHON`, else `python3` on PATH;
 * 2. the language host, built from the Go module proxy (`sdk/v3` v3.79.0 behind
 *    `language-host/main.go`) into the engine cache;
 * 3. a virtualenv (`python -m venv`) with `pulumi` at the engine's version and
 *    pytest, installed from PyPI with pip; remade when a version changes.
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
    if (!/^(cached|found)/.test(did)) log(`${name}: ${did} (${elapsed(started)}, ${Date.now() - started} ms)`);
  };
  let built = false;

  let interpreter = { python: "", version: "" };
  await step("Python", async () => {
    interpreter = await findPython();
    return `found ${interpreter.python} (${interpreter.version})`;
  });

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
      did.push(`its proxy (GenerateProgram, runtime.options.virtualenv; pkg/v3 v${PULUMI_VERSION})`);
    }
    const sdkModule = await goModuleDir(`github.com/pulumi/pulumi/sdk/v3@v${PULUMI_VERSION}`);
    for (const script of SDK_SCRIPTS) {
      const target = scriptPath(script);
      fs.copyFileSync(path.join(sdkModule, script.from), `${target}.partial`);
      fs.chmodSync(`${target}.partial`, 0o755);
      fs.renameSync(`${target}.partial`, target);
    }
    built = true;
    return `${did.length ? `built ${did.join(" and ")}, ` : ""}with the v${PULUMI_VERSION} exec shim: ${layout.languageHostDir}`;
  });

  const fingerprint = `recipe ${RECIPE}\npulumi ${PULUMI_VERSION}\npytest ${PYTEST_VERSION}\npython ${interpreter.python} ${interpreter.version}\n`;
  const marker = path.join(layout.venvDir, ".certreseller-runtime");
  await step("virtualenv (pip, PyPI)", async () => {
    if (readOr(marker) === fingerprint) return `cached: ${layout.venvDir}`;
    await withLock(`${layout.venvDir}.lock`, log, async () => {
      if (readOr(marker) === fingerprint) return; // another process made it while this one waited
      // Made in its final place (a virtualenv's scripts name their folder); the marker, written last, says it is whole.
      fs.rmSync(layout.venvDir, { recursive: true, force: true });
      await makeVenv(interpreter.python, layout.venvDir, [`pulumi==${PULUMI_VERSION}`, `pytest==${PYTEST_VERSION}`], log);
      const { stdout } = await execFileAsync(venvPython(layout.venvDir), ["-c", "import pulumi, pulumi.runtime, pulumi.dynamic; from pulumi._version import _VERSION; print(_VERSION)"]);
      if (stdout.trim() !== PULUMI_VERSION) throw new PythonUnavailableError(`the virtualenv's pulumi reports ${JSON.stringify(stdout.trim())}, expected ${PULUMI_VERSION}`);
      fs.writeFileSync(marker, fingerprint);
      built = true;
    });
    return `pulumi ${PULUMI_VERSION} and pytest ${PYTEST_VERSION} from PyPI in ${layout.venvDir}`;
  });

  return {
    source: built ? "built" : "cache",
    pythonVersion: interpreter.version,
    python: interpreter.python,
    sdkVersion: PULUMI_VERSION,
    venvDir: layout.venvDir,
    languageHostDir: layout.languageHostDir,
    steps,
  };
}

/** `<venv>/bin/python`. */
export function venvPython(venvDir: string): string {
  return path.join(venvDir, "bin", "python");
}

/**
 * `python -m venv <dir>` and `pip install <requirements>` into it from PyPI,
 * as a user makes a program's virtualenv.
 *
 * @example
 * await makeVenv(runtime.python, "/tmp/v", ["pulumi==3.259.0", "dist/pulumi_certreseller-0.1.0-py3-none-any.whl"]);
 */
export async function makeVenv(python: string, dir: string, requirements: readonly string[], log: Log = () => {}): Promise<void> {
  await run(python, ["-m", "venv", dir], "python -m venv");
  log(`pip install ${requirements.join(" ")}`);
  await run(venvPython(dir), ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--quiet", ...requirements], `pip install ${requirements.join(" ")}`);
}

/**
 * A wheel of a Python package folder (such as the generated SDK), built by
 * `pip wheel --no-deps` (its build backend comes from PyPI); resolves with
 * the wheel's path.
 */
export async function buildWheel(python: string, packageDir: string, outDir: string): Promise<string> {
  fs.mkdirSync(outDir, { recursive: true });
  const before = new Set(fs.readdirSync(outDir));
  await run(python, ["-m", "pip", "wheel", "--disable-pip-version-check", "--no-input", "--quiet", "--use-pep517", "--no-deps", "--wheel-dir", outDir, packageDir], `pip wheel ${packageDir}`);
  const wheels = fs.readdirSync(outDir).filter((name) => name.endsWith(".whl") && !before.has(name));
  if (wheels.length !== 1) throw new PythonUnavailableError(`pip wheel ${packageDir} wrote ${JSON.stringify(wheels)} into ${outDir}, expected one wheel`);
  return path.join(outDir, wheels[0]!);
}

/** `pip freeze` of a virtualenv: one `name==version` a line. */
export async function pipFreeze(venvDir: string): Promise<string[]> {
  const { stdout } = await execFileAsync(venvPython(venvDir), ["-m", "pip", "freeze", "--disable-pip-version-check"]);
  return stdout.trim().split("\n").filter(Boolean);
}

async function run(file: string, args: string[], what: string): Promise<void> {
  await execFileAsync(file, args, { env: { ...process.env, PIP_NO_INPUT: "1" }, maxBuffer: 16 * 1024 * 1024 }).catch((error: { stderr?: string; message: string }) => {
    throw new PythonUnavailableError(`${what} failed: ${error.stderr?.trim() || error.message}`);
  });
}

/** The interpreter virtualenvs are made from, and its version; refuses one older than 3.10 or without venv and pip. */
async function findPython(): Promise<{ python: string; version: string }> {
  const candidate = process.env.CERTRESELLER_PYTHON || "python3";
  const probe = "import sys, platform, venv, ensurepip; print(sys.executable); print(platform.python_version())";
  const result = await execFileAsync(candidate, ["-c", probe]).catch((error: { stderr?: string; message: string }) => {
    throw new PythonUnavailableError(`no usable ${candidate} (Python ${MINIMUM_PYTHON.join(".")} or later with venv and pip; set CERTRESELLER_PYTHON to choose one): ${error.stderr?.trim() || error.message}`);
  });
  const [python, version] = result.stdout.trim().split("\n");
  const [major, minor] = version!.split(".").map(Number);
  if (major! < MINIMUM_PYTHON[0] || (major === MINIMUM_PYTHON[0] && minor! < MINIMUM_PYTHON[1])) {
    throw new PythonUnavailableError(`${python} is Python ${version}; pulumi ${PULUMI_VERSION} needs ${MINIMUM_PYTHON.join(".")} or later (set CERTRESELLER_PYTHON to choose one)`);
  }
  return { python: python!, version: version! };
}

/** Runs `work` holding a lock folder; waits for a live holder, takes over from a dead one. */
async function withLock(lockDir: string, log: Log, work: () => Promise<void>): Promise<void> {
  fs.mkdirSync(path.dirname(lockDir), { recursive: true });
  const owner = path.join(lockDir, "pid");
  for (let waited = 0; ; waited += 1) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(owner, String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(readOr(owner));
      if (pid && !isAlive(pid)) {
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (waited === 0) log(`waiting for process ${pid || "?"}, which is making the virtualenv`);
      if (waited > 1200) throw new PythonUnavailableError(`${lockDir} has been held for 10 minutes by process ${pid}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    await work();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
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
      label: "Python language host proxy (GenerateProgram, runtime.options.virtualenv)",
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
  if (!go) throw new PythonUnavailableError(`the language host's scripts come from the Go module ${module}, and there is no \`go\` to download it`);
  const { stdout } = await execFileAsync(go, ["mod", "download", "-json", module], { cwd: os.tmpdir(), maxBuffer: 4 * 1024 * 1024 });
  const dir = (JSON.parse(stdout) as { Dir?: string; Error?: string }).Dir;
  if (!dir) throw new PythonUnavailableError(`go mod download ${module}: ${stdout.trim()}`);
  return dir;
}

function readOr(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
