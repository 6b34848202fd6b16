// The provisioning steps of `npm run engine` in isolation: which CLI is taken,
// which is refused and why, what a machine with nothing says, and that a
// failed build leaves nothing in the cache.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { goBuild, scratchDir } from "../../scripts/engine/go-build.js";
import { cacheLayout, ensureEngine, EngineUnavailableError, PULUMI_VERSION, repoRoot } from "../../scripts/engine/index.js";

describe("engine provisioning", () => {
  let dir: string;
  const saved = { PATH: process.env.PATH, PULUMI_BINARY: process.env.PULUMI_BINARY, GOPROXY: process.env.GOPROXY };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-provisioning-"));
  });
  afterEach(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A stand-in `pulumi` that answers `pulumi version` with `version`. */
  function fakeCli(folder: string, version: string): string {
    fs.mkdirSync(folder, { recursive: true });
    const file = path.join(folder, "pulumi");
    fs.writeFileSync(file, `#!/bin/sh\necho ${version}\n`, { mode: 0o755 });
    return file;
  }
  const emptyCache = () => cacheLayout(PULUMI_VERSION, path.join(dir, "cache"));

  it("takes PULUMI_BINARY when its version is recent enough", async () => {
    process.env.PULUMI_BINARY = fakeCli(path.join(dir, "explicit"), "v3.300.1");
    const engine = await ensureEngine({ layout: emptyCache(), build: false });
    expect(engine).toMatchObject({ source: "env", version: "3.300.1", pulumiPath: process.env.PULUMI_BINARY });
  });

  it("takes the YAML language host beside a PULUMI_BINARY CLI, without building one", async () => {
    process.env.PULUMI_BINARY = fakeCli(path.join(dir, "explicit"), "v3.300.1");
    fs.writeFileSync(path.join(dir, "explicit", "pulumi-language-yaml"), "#!/bin/sh\n", { mode: 0o755 });
    const layout = emptyCache();
    const engine = await ensureEngine({ layout, build: false });
    expect(engine.yamlLanguageHostDir).toBe(path.join(dir, "explicit"));
    expect(fs.existsSync(layout.yamlLanguageHostDir)).toBe(false);
  });

  it("a cached engine reports the cached YAML language host in its own folder", async () => {
    delete process.env.PULUMI_BINARY;
    process.env.PATH = path.join(dir, "empty");
    const layout = emptyCache();
    fakeCli(layout.binDir, `v${PULUMI_VERSION}`);
    fs.mkdirSync(layout.yamlLanguageHostDir, { recursive: true });
    fs.writeFileSync(layout.yamlLanguageHostPath, "#!/bin/sh\n", { mode: 0o755 });
    const engine = await ensureEngine({ layout, build: false, languageHost: false });
    expect(engine).toMatchObject({ source: "cache", yamlLanguageHostDir: layout.yamlLanguageHostDir });
    expect(layout.yamlLanguageHostDir).not.toBe(layout.binDir);
  });

  it("refuses an old PULUMI_BINARY, saying which version it needs", async () => {
    process.env.PULUMI_BINARY = fakeCli(path.join(dir, "explicit"), "v3.100.0");
    await expect(ensureEngine({ layout: emptyCache(), build: false })).rejects.toThrow(/3\.100\.0 is older than the required 3\.259\.0/);
  });

  it("skips an old pulumi on PATH and takes the cache", async () => {
    delete process.env.PULUMI_BINARY;
    process.env.PATH = `${path.join(dir, "old")}${path.delimiter}${saved.PATH}`;
    fakeCli(path.join(dir, "old"), "v3.100.0");
    const layout = emptyCache();
    fakeCli(layout.binDir, `v${PULUMI_VERSION}`);
    const log: string[] = [];
    const engine = await ensureEngine({ layout, build: false, languageHost: false, log: (l) => log.push(l) });
    expect(engine).toMatchObject({ source: "cache", pulumiPath: layout.pulumiPath });
    expect(log.join("\n")).toMatch(/ignoring .*old\/pulumi: version 3\.100\.0 is older/);
    expect(fs.existsSync(path.join(layout.binDir, "pulumi-resource-pulumi-nodejs"))).toBe(true);
    expect(fs.existsSync(layout.analyzerPath)).toBe(true);
  });

  it("with nothing to use or build, fails with install instructions", async () => {
    delete process.env.PULUMI_BINARY;
    process.env.PATH = path.join(dir, "empty");
    const failure = await ensureEngine({ layout: emptyCache(), build: false }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(EngineUnavailableError);
    expect(String((failure as Error).message)).toMatch(/get\.pulumi\.com/);
    expect(String((failure as Error).message)).toMatch(/PULUMI_BINARY/);
  });

  it("a failed build leaves neither the binary nor a partial file in the cache", async () => {
    process.env.GOPROXY = "off"; // fail fast and offline
    const output = path.join(dir, "cache", "bin", "pulumi");
    await expect(
      goBuild(
        {
          label: "a package that does not exist",
          scratchDir: scratchDir(`provisioning-test-${process.pid}`),
          goMod: "module example.com/broken\n\ngo 1.26.6\n\nrequire example.com/nowhere v1.0.0\n",
          pkg: "example.com/nowhere/cmd",
          version: "v0.0.0",
          output,
          expectedDuration: "seconds",
        },
        () => {},
      ),
    ).rejects.toThrow(/go mod tidy failed|go build failed/);
    expect(fs.readdirSync(path.dirname(output))).toEqual([]);
    fs.rmSync(scratchDir(`provisioning-test-${process.pid}`), { recursive: true, force: true });
  });
});

describe("`npm run engine` says what to export", () => {
  // Before: it printed the hosts' folders only, and the CLI it names found no language host
  // (`no language plugin 'pulumi-language-yaml' found`) in a shell that did not add them.
  it("its `export PATH=…` line, run in a shell with only the system on PATH, makes pulumi, both language hosts and a Node new enough resolve", async () => {
    const run = promisify(execFile);
    const { stdout } = await run("npm", ["run", "--silent", "engine"], { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024, timeout: 900_000 });
    const lines = stdout.split("\n").filter((line) => line.startsWith("export PATH="));
    expect(lines, stdout).toHaveLength(1);
    const script = `${lines[0]}\nfor c in pulumi pulumi-language-yaml pulumi-language-nodejs node; do command -v "$c" || echo "missing $c"; done\nnode -p process.versions.node`;
    const shell = await run("sh", ["-c", script], { env: { HOME: os.homedir(), PATH: "/usr/bin:/bin" } });
    const [pulumi, yaml, nodejs, node, version] = shell.stdout.trim().split("\n");
    expect(pulumi).toMatch(/\/pulumi$/);
    expect(yaml).toMatch(/\/pulumi-language-yaml$/);
    expect(nodejs).toMatch(/\/pulumi-language-nodejs$/);
    expect(node).toBe(path.join(repoRoot, "node_modules", "node", "bin", "node"));
    expect(shell.stdout).not.toMatch(/^missing /m);
    expect(Number(version!.split(".")[0])).toBeGreaterThanOrEqual(22);
    const { stdout: said } = await run("sh", ["-c", `${lines[0]}\npulumi version`], { env: { HOME: os.homedir(), PATH: "/usr/bin:/bin" } });
    expect(said.trim()).toMatch(/^v3\.\d+\.\d+/);
  }, 900_000);
});
