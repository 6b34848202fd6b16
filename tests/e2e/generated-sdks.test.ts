// `scripts/sdkgen/`: the SDKs for other languages, generated from the schema
// as it is now (resources read from sdk/schema.json, never listed here), and
// checked as far as this machine can: the Go module builds, the Python
// compiles (the `pulumi` Python package is not installable here), the .NET and
// Node.js files exist (no .NET SDK here; Node.js is the package's own SDK).
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { goBinary } from "../../scripts/engine/go-build.js";
import { repoRoot } from "../../scripts/engine/index.js";
import { findOnPath } from "../../scripts/engine/which.js";
import { generateSdks, LANGUAGES, SdkGenerationError, type GeneratedSdk, type Language } from "../../scripts/sdkgen/index.js";

const execFileAsync = promisify(execFile);
const SCHEMA_PATH = path.join(repoRoot, "sdk", "schema.json");

interface SchemaFile {
  name: string;
  resources?: Record<string, { inputProperties?: Record<string, unknown> }>;
}

const readSchema = (): SchemaFile => JSON.parse(fs.readFileSync(SCHEMA_PATH, "utf8")) as SchemaFile;

/** Every file under `dir`, relative to it, with `/` separators. */
function listFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
}

describe("generated SDKs (scripts/sdkgen) from sdk/schema.json", () => {
  let tmp: string;
  let sdks: Map<Language, GeneratedSdk>;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-sdkgen-test-"));
    const log = (line: string) => console.error(`[sdkgen] ${line}`);
    const generated = await generateSdks({ schemaPath: SCHEMA_PATH, outDir: path.join(tmp, "out"), languages: LANGUAGES, log });
    sdks = new Map(generated.map((sdk) => [sdk.language, sdk]));
  });
  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  const sdk = (language: Language): GeneratedSdk => {
    const found = sdks.get(language);
    if (!found) throw new Error(`no ${language} SDK was generated`);
    return found;
  };

  it("writes every language, each with the file count it reports", () => {
    expect([...sdks.keys()]).toEqual([...LANGUAGES]);
    for (const { dir, files } of sdks.values()) {
      expect(files).toBeGreaterThan(0);
      expect(listFiles(dir)).toHaveLength(files);
    }
  });

  it("Python: every generated .py file compiles with python3 -m py_compile", async () => {
    const python = findOnPath("python3");
    if (!python) throw new Error("python3 is needed on PATH");
    const { dir } = sdk("python");
    const sources = listFiles(dir).filter((file) => file.endsWith(".py"));
    expect(sources.length).toBeGreaterThan(0);
    // Bytecode goes to the temporary folder, not beside the sources.
    await execFileAsync(python, ["-m", "py_compile", ...sources], {
      cwd: dir,
      env: { ...process.env, PYTHONPYCACHEPREFIX: path.join(tmp, "pycache") },
    });
  });

  it("Go: the generated module builds (go mod tidy, go build ./...)", async () => {
    const go = goBinary();
    if (!go) throw new Error("go is needed on PATH");
    const { dir } = sdk("go");
    const schema = readSchema();
    const goMod = fs.readFileSync(path.join(dir, "go.mod"), "utf8");
    expect(goMod).toMatch(/^require github\.com\/pulumi\/pulumi\/sdk\/v3 v3\.\d+\.\d+$/m);
    // One folder per schema module below the package root, e.g. `testing`.
    for (const token of Object.keys(schema.resources ?? {})) {
      const module = token.split(":")[1]!;
      if (module !== "index") expect(fs.existsSync(path.join(dir, schema.name, module))).toBe(true);
    }
    const env = { ...process.env, GOFLAGS: "-mod=mod", CGO_ENABLED: "0" };
    await execFileAsync(go, ["mod", "tidy"], { cwd: dir, env });
    await execFileAsync(go, ["build", "./..."], { cwd: dir, env });
  });

  it(".NET: the .csproj and one .cs file per schema resource exist (no .NET SDK here to build them)", () => {
    const files = listFiles(sdk("dotnet").dir);
    expect(files.filter((file) => file.endsWith(".csproj"))).toHaveLength(1);
    const classFiles = new Set(files.filter((file) => file.endsWith(".cs")).map((file) => path.posix.basename(file)));
    const resources = Object.keys(readSchema().resources ?? {});
    expect(resources.length).toBeGreaterThan(0);
    for (const token of resources) expect(classFiles, token).toContain(`${token.split(":")[2]}.cs`);
  });

  it("Node.js: an index.ts is generated", () => {
    expect(fs.existsSync(path.join(sdk("nodejs").dir, "index.ts"))).toBe(true);
  });

  it("a schema with a broken $ref fails binding: non-zero exit, the ref named, nothing written", async () => {
    const schema = readSchema();
    const [token, resource] = Object.entries(schema.resources ?? {}).find(([, r]) => Object.keys(r.inputProperties ?? {}).length > 0) ?? [];
    if (!token || !resource?.inputProperties) throw new Error("the schema has no resource with an input to break");
    const property = Object.keys(resource.inputProperties)[0]!;
    const brokenRef = `#/types/${schema.name}:index:NoSuchType`;
    resource.inputProperties[property] = { $ref: brokenRef };
    const brokenPath = path.join(tmp, "broken-schema.json");
    fs.writeFileSync(brokenPath, JSON.stringify(schema));
    const outDir = path.join(tmp, "broken-out");

    const failure = await generateSdks({ schemaPath: brokenPath, outDir, languages: ["go"] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SdkGenerationError);
    expect((failure as SdkGenerationError).exitCode).not.toBe(0);
    expect((failure as SdkGenerationError).exitCode).not.toBeNull();
    expect((failure as SdkGenerationError).stderr).toContain(`#/resources/${token}/inputProperties/${property}/$ref`);
    expect((failure as SdkGenerationError).stderr).toContain(`${schema.name}:index:NoSuchType`);
    expect(fs.existsSync(outDir)).toBe(false);
  });
});
