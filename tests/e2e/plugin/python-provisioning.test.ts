// scripts/python/: the Python runtime is what a user installs — pulumi at the
// engine's version from PyPI with pip, nothing standing in for a package and
// no Debian Python package — the docs pin the same pulumi, the language
// host's own module is still refused (else the host should move to it), and
// a provisioned runtime is found again from the cache in a moment.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { goBinary } from "../../../scripts/engine/go-build.js";
import { PULUMI_VERSION, repoRoot } from "../../../scripts/engine/index.js";
import { ensurePython, pipFreeze, PYTEST_VERSION, PYTHON_LANGUAGE_HOST_MODULE, venvPython } from "../../../scripts/python/index.js";
import { pythonDocs, pythonRuntime } from "../harness/python.js";

const execFileAsync = promisify(execFile);
const python = pythonRuntime();

describe.skipIf(!python)("the Python runtime of scripts/python", () => {
  it("a provisioned runtime is found from the cache without building anything", async () => {
    // What it did, not how long it took (a loaded machine, or another file holding the provisioning lock, is slow).
    // The interpreter the global setup provisioned with: `python3` on this worker's PATH may be another one (a pyenv
    // shim before /usr/bin, say), and the cache is rightly remade for another interpreter, under every other file's feet.
    const saved = process.env.CERTRESELLER_PYTHON;
    process.env.CERTRESELLER_PYTHON = python!.python;
    const again = await ensurePython().finally(() => {
      if (saved === undefined) delete process.env.CERTRESELLER_PYTHON;
      else process.env.CERTRESELLER_PYTHON = saved;
    });
    expect(again.source).toBe("cache");
    expect(again.steps.map((step) => step.did)).toEqual([expect.stringMatching(/^found /), expect.stringMatching(/^cached/), expect.stringMatching(/^cached/)]);
    expect(again.venvDir).toBe(python!.venvDir);
  });

  it("the virtualenv holds pulumi at the engine's version and pytest, from PyPI: released packages only, in the virtualenv itself", async () => {
    const freeze = await pipFreeze(python!.venvDir);
    console.error(`[python-provisioning] pip freeze: ${freeze.join(" ")}`);
    expect(freeze).toContain(`pulumi==${PULUMI_VERSION}`);
    expect(freeze).toContain(`pytest==${PYTEST_VERSION}`);
    // The SDK's real dependencies, where stand-ins once were.
    expect(freeze).toEqual(expect.arrayContaining([expect.stringMatching(/^opentelemetry-sdk==/), expect.stringMatching(/^semver==3\./), expect.stringMatching(/^grpcio==/)]));
    // `name==version` only: nothing installed from a folder, a file or an editable checkout.
    for (const line of freeze) expect(line).toMatch(/^[A-Za-z0-9._-]+==[A-Za-z0-9.+!-]+$/);
    // No system site-packages: every import resolves inside the virtualenv.
    const { stdout } = await execFileAsync(venvPython(python!.venvDir), ["-c", "import pulumi, grpc, semver, opentelemetry.sdk.trace as o\nfor m in (pulumi, grpc, semver, o): print(m.__file__)"]);
    for (const file of stdout.trim().split("\n")) expect(file.startsWith(`${python!.venvDir}/`), file).toBe(true);
    expect(fs.readFileSync(path.join(python!.venvDir, "pyvenv.cfg"), "utf8")).toMatch(/^include-system-site-packages = false$/m);
  });

  it("docs/languages.md pins pulumi at the engine's version", () => {
    expect(pythonDocs().commands.join("\n")).toContain(`pulumi==${PULUMI_VERSION}`);
  });

  it("scripts/python holds no stand-in package and no Debian package list", () => {
    const dir = path.join(repoRoot, "scripts", "python");
    const files = fs.readdirSync(dir, { recursive: true, encoding: "utf8" });
    expect(files.filter((name) => /(^|\/)(pyproject\.toml|setup\.py|__init__\.py)$/.test(name))).toEqual([]);
    for (const name of files.filter((file) => file.endsWith(".ts"))) expect(fs.readFileSync(path.join(dir, name), "utf8"), name).not.toMatch(/python3-[a-z]+/);
  });

  it("the language host's own module is still refused by the Go module proxy (when it is served, the host moves to it)", async () => {
    const answer = await execFileAsync(goBinary()!, ["list", "-m", "-versions", PYTHON_LANGUAGE_HOST_MODULE], { cwd: "/", env: { ...process.env, GOFLAGS: "-mod=mod" } }).then(
      ({ stdout }) => stdout,
      (error: { stderr?: string }) => error.stderr ?? "",
    );
    expect(answer, "a served language host: build it instead of sdk/v3 v3.79.0's, and drop the proxy's bridges it makes needless").toMatch(/403 Forbidden|not available/);
  });
});
