// scripts/python/: what the Python runtime is assembled from holds — the
// trims and the patch against the SDK the engine's module serves, the
// stand-ins doing what the SDK and the generated SDK ask of them — and a
// provisioned runtime is found again from the cache in a moment.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { goBinary } from "../../../scripts/engine/go-build.js";
import { PULUMI_VERSION } from "../../../scripts/engine/index.js";
import { ensurePython, patchRpc, trimPyproject } from "../../../scripts/python/index.js";
import { pythonRuntime } from "../harness/python.js";

const execFileAsync = promisify(execFile);
const python = pythonRuntime();

async function sdkModuleDir(): Promise<string> {
  const { stdout } = await execFileAsync(goBinary()!, ["mod", "download", "-json", `github.com/pulumi/pulumi/sdk/v3@v${PULUMI_VERSION}`], { cwd: "/" });
  return (JSON.parse(stdout) as { Dir: string }).Dir;
}

/** Runs Python code in the runtime's virtualenv; resolves with its stdout, rejects with the error (its stderr). */
async function inVenv(code: string, env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await execFileAsync(path.join(python!.venvDir, "bin", "python"), ["-c", code], { env: { ...process.env, ...env } });
  return stdout.trim();
}

describe.skipIf(!python)("the Python runtime of scripts/python", () => {
  it("trims from the SDK's pyproject.toml exactly what hatchling 1.12 refuses", async () => {
    const text = fs.readFileSync(path.join(await sdkModuleDir(), "python", "pyproject.toml"), "utf8");
    const trimmed = trimPyproject(text);
    expect(text).toMatch(/^classifiers = \[/m);
    expect(trimmed).not.toMatch(/^classifiers\b|^license-files\b|^core-metadata-version\b/m);
    expect(trimmed).toContain('license = { text = "Apache-2.0" }');
    expect(trimmed).toContain('name = "pulumi"');
    expect(trimmed).toContain('packages = ["lib/pulumi"]');
    expect(trimmed).toContain("'grpcio>=1.68.1,<2; python_version < \"3.14\"'"); // the dependency list is kept
  });

  it("patches rpc.py's semver import, and refuses an rpc.py that no longer has it", async () => {
    const rpc = fs.readFileSync(path.join(await sdkModuleDir(), "python", "lib", "pulumi", "runtime", "rpc.py"), "utf8");
    expect(patchRpc(rpc)).toContain("from semver import VersionInfo as Version");
    expect(() => patchRpc("import semver\n")).toThrow(/semver fallback/);
  });

  it("a provisioned runtime is found from the cache without building anything", async () => {
    const started = Date.now();
    const again = await ensurePython();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(again.source).toBe("cache");
    expect(again.steps.map((step) => step.did)).toEqual(["all present", expect.stringMatching(/^cached/), expect.stringMatching(/^cached/)]);
    expect(again.venvDir).toBe(python!.venvDir);
  });

  it("the virtualenv's pulumi is the engine's version, and semver 2.10 parses through the patched rpc.py", async () => {
    expect(await inVenv("from pulumi._version import _VERSION; print(_VERSION)")).toBe(PULUMI_VERSION);
    expect(await inVenv("from pulumi.runtime import rpc; print(rpc.Version.parse('3.259.0') > rpc.Version.parse('3.79.0'))")).toBe("True");
  });

  it("the parver stand-in reads versions as generated SDKs do", async () => {
    const read = "from parver import Version as V; v = V.parse('%s'); print(v.release, v.pre_tag, v.pre, v.dev, v.local)";
    expect(await inVenv(read.replace("%s", "0.1.0"))).toBe("(0, 1, 0) None None None None");
    expect(await inVenv(read.replace("%s", "1.2.3rc4"))).toBe("(1, 2, 3) rc 4 None None");
    expect(await inVenv(read.replace("%s", "1.2.3.dev5"))).toBe("(1, 2, 3) None None 5 None");
  });

  it("the OpenTelemetry stand-in keeps tracing off, and with TRACEPARENT set the SDK stops naming the stand-in", async () => {
    expect(await inVenv("import pulumi; print('imported')")).toBe("imported");
    const failed = await inVenv("import pulumi", { TRACEPARENT: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" }).then(
      () => "",
      (error: { stderr?: string }) => error.stderr ?? "",
    );
    expect(failed).toMatch(/do-nothing OpenTelemetry stand-in/);
    expect(failed).toMatch(/unset TRACEPARENT/);
  });
});
