// The generated Python SDK as a wheel, installed with pip from PyPI by the
// docs' commands (tests/e2e/harness/python.ts), checked by pytest
// (tests/e2e/python/test_generated_sdk.py: it imports the installed package,
// one resource's argument types, one enum, the plugin file the engine reads)
// without the engine: a broken wheel fails here in seconds, before any
// program runs.
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../scripts/engine/index.js";
import { pipFreeze, PYTEST_VERSION, venvPython } from "../../../scripts/python/index.js";
import { pythonEnvironment, pythonRuntime } from "../harness/python.js";
import { skipWithout } from "../../support/ci.js";

const execFileAsync = promisify(execFile);
const python = pythonRuntime();
const skipPython = skipWithout(python ? undefined : "no Python runtime (see the e2e setup's [python] lines)");
const log = (line: string) => console.error(`[python-wheel] ${line}`);

describe.skipIf(skipPython)("the generated Python SDK's wheel, installed with pip", () => {
  it("installs with its dependencies from PyPI, and pytest passes against the installed package", async () => {
    const { venvDir } = await pythonEnvironment(python!, log);
    const freeze = await pipFreeze(venvDir);
    log(`pip freeze: ${freeze.join(" ")}`);
    // The wheel's own name and its declared dependencies, resolved by pip.
    expect(freeze).toEqual(expect.arrayContaining([expect.stringMatching(/^pulumi_certreseller @ file:\/\/\S+\/pulumi_certreseller-[\d.]+-py3-none-any\.whl(#sha256=[0-9a-f]+)?$/), expect.stringMatching(/^parver==/), expect.stringMatching(/^pulumi==/)]));

    // pytest from PyPI into the same virtualenv (the docs' commands do not install it).
    await execFileAsync(venvPython(venvDir), ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--quiet", `pytest==${PYTEST_VERSION}`]);
    const test = path.join(repoRoot, "tests", "e2e", "python", "test_generated_sdk.py");
    const result = await execFileAsync(venvPython(venvDir), ["-m", "pytest", "-q", "-p", "no:cacheprovider", test], { cwd: path.dirname(test) }).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`pytest failed:\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
    });
    const passed = /\b(\d+) passed\b/.exec(result.stdout)?.[1];
    // Not pytest's own summary line: the suite's closing line is vitest's.
    log(`pytest: ${passed ?? "no"} tests of ${path.basename(test)} pass`);
    expect(Number(passed)).toBeGreaterThan(0);
    expect(result.stdout).not.toMatch(/failed|error/);
  });
});
