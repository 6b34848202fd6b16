// Under a Node older than `engines`, the plugin and a TypeScript program used
// to crash inside undici ("TypeError: Cannot read properties of undefined
// (reading 'bind')", undici/lib/interceptor/decompress.js). Each entry now
// checks first and says which Node runs, which is needed and how to put it
// first on PATH: the plugin's launcher (sdk/bin and the one the packed
// archive runs), the package's main entry and `pulumi-certreseller/provider`.
// The old Node is the one sdk/test/docs/demo-install.test.ts uses.
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skipWithout } from "../../tests/support/ci.js";
import { REPO_ROOT } from "../../tests/support/docs.js";
import { LAUNCHER } from "../../scripts/plugin/pack.js";
import { findOldNode, provisionOldNode } from "./support/old-node.js";

const declared = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "sdk", "package.json"), "utf8")) as { engines: { node: string } }).engines.node;
const minimum = /^>=(\d+)\.(\d+)$/.exec(declared)!;
const BIN = path.join(REPO_ROOT, "sdk", "bin", "pulumi-resource-certreseller");
/** The workspace's own Node (the `node` dev dependency), new enough. */
const NEW_NODE_DIR = path.join(REPO_ROOT, "node_modules", "node", "bin");
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe(`each entry under a Node older than ${declared}`, () => {
  let oldNode: string | undefined;
  let oldVersion = "";
  let project: string;
  /** PATH as a machine whose first `node` is the old one, with only system folders after it. */
  const oldPath = () => [oldNode!, "/usr/bin", "/bin"].join(path.delimiter);
  const needOldNode = (ctx: { skip: (note?: string) => void }) => {
    if (oldNode === undefined) ctx.skip("no Node older than engines on this machine, and none could be cached");
  };
  const run = (command: string, args: string[], PATH: string) => spawnSync(command, args, { cwd: project, encoding: "utf8", env: { ...process.env, PATH }, timeout: 60_000 });

  /** The message's claims, for a run whose PATH holds no newer node. */
  function expectMessage(stderr: string) {
    expect(stderr).toContain(`pulumi-certreseller needs Node.js ${minimum[1]}.${minimum[2]} or later (engines in its package.json); this is Node.js v${oldVersion} (`);
    expect(stderr).toContain("Pulumi runs programs, the dynamic-provider host and plugins with the first `node` on PATH.");
    expect(stderr).toMatch(/^ {2}export PATH="<the folder of a node \d+\.\d+ or later>:\$PATH"$/m);
    expect(stderr).not.toMatch(/undici|TypeError/);
  }

  beforeAll(async () => {
    oldNode = findOldNode([Number(minimum[1]), Number(minimum[2])]);
    if (oldNode === undefined) {
      try {
        oldNode = await provisionOldNode((line) => console.error(`[old-node] ${line}`));
      } catch (error) {
        skipWithout(`no Node older than ${declared} here, and caching one failed: ${(error as Error).message}`);
      }
    }
    if (oldNode !== undefined) oldVersion = spawnSync(path.join(oldNode, "node"), ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim();
    // A project that installed the package: node_modules/pulumi-certreseller is this repository's sdk/.
    project = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-node-version-"));
    fs.mkdirSync(path.join(project, "node_modules"));
    fs.symlinkSync(path.join(REPO_ROOT, "sdk"), path.join(project, "node_modules", "pulumi-certreseller"));
    // The packed plugin archive's layout: its launcher beside that node_modules (scripts/plugin/pack.ts).
    fs.writeFileSync(path.join(project, "pulumi-resource-certreseller"), LAUNCHER, { mode: 0o755 });
  }, 600_000);
  afterAll(() => {
    if (project) fs.rmSync(project, { recursive: true, force: true });
  });

  it("the plugin's bin (sdk/bin/pulumi-resource-certreseller) says which Node runs and which is needed, exit 1", (ctx) => {
    needOldNode(ctx);
    const result = run(path.join(oldNode!, "node"), [BIN], oldPath());
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^pulumi-resource-certreseller: pulumi-certreseller needs Node\.js/);
    expectMessage(result.stderr);
  });

  it("the packed archive's launcher (the first node on PATH) says the same", (ctx) => {
    needOldNode(ctx);
    const result = run(path.join(project, "pulumi-resource-certreseller"), [], oldPath());
    expect(result.status).toBe(1);
    expectMessage(result.stderr);
  });

  it("a newer node later on PATH is named, with the line that puts it first", (ctx) => {
    needOldNode(ctx);
    const result = run(path.join(project, "pulumi-resource-certreseller"), [], `${oldPath()}${path.delimiter}${NEW_NODE_DIR}`);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`A newer one is later on PATH, in ${NEW_NODE_DIR}: put it first, then run the command again:`);
    expect(result.stderr).toMatch(new RegExp(`^ {2}export PATH="${escape(NEW_NODE_DIR)}:\\$PATH"$`, "m"));
  });

  it.each(["pulumi-certreseller", "pulumi-certreseller/provider", "pulumi-certreseller/dist/provider/entry.js"])("require(%j) (a TypeScript program, the dynamic-provider host) throws the message", (entry, ctx) => {
    needOldNode(ctx);
    const result = run(path.join(oldNode!, "node"), ["-e", `require(${JSON.stringify(entry)})`], oldPath());
    expect(result.status).toBe(1);
    expectMessage(result.stderr);
  });
});

describe(`each entry under the workspace's Node (${declared})`, () => {
  let project: string;
  beforeAll(() => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-node-version-"));
    fs.mkdirSync(path.join(project, "node_modules"));
    fs.symlinkSync(path.join(REPO_ROOT, "sdk"), path.join(project, "node_modules", "pulumi-certreseller"));
  });
  afterAll(() => {
    if (project) fs.rmSync(project, { recursive: true, force: true });
  });

  it("require of the package and of its provider entry print nothing", () => {
    const result = spawnSync(path.join(NEW_NODE_DIR, "node"), ["-e", 'require("pulumi-certreseller"); require("pulumi-certreseller/provider")'], { cwd: project, encoding: "utf8", timeout: 60_000 });
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("");
    expect(result.status).toBe(0);
  });

  it("the plugin's bin prints its port and nothing else", async () => {
    const child = spawn(path.join(NEW_NODE_DIR, "node"), [BIN], { cwd: project, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes("\n")) resolve();
      });
      child.on("exit", (code) => reject(new Error(`the plugin exited (${code}) before printing its port: ${stderr}`)));
    });
    child.kill();
    expect(stdout).toMatch(/^\d+\n$/);
    expect(stderr).toBe("");
  });
});

describe("the declared minimum", () => {
  // undici (the HTTP client) declares its own minimum; an `engines` below it lets a Node through that then crashes
  // inside undici (22.12–22.18: `zlib.createZstdDecompress` is missing), which this check exists to prevent.
  it("is at least what undici itself declares", () => {
    const read = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as { engines?: { node?: string } };
    const minimum = (range: string | undefined) => (/(\d+)\.(\d+)(?:\.(\d+))?/.exec(range ?? "") ?? []).slice(1, 4).map((n) => Number(n ?? 0));
    const ours = minimum(read(path.join(__dirname, "..", "package.json")).engines?.node);
    const undici = minimum(read(require.resolve("undici/package.json", { paths: [path.join(__dirname, "..")] })).engines?.node);
    const compare = ours[0]! - undici[0]! || ours[1]! - undici[1]! || ours[2]! - undici[2]!;
    expect(compare, `sdk engines ${ours.join(".")} vs undici's ${undici.join(".")}`).toBeGreaterThanOrEqual(0);
  });
});
