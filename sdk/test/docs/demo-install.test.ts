// The first screen of `npm run demo` on a fresh clone: its `npm ci`
// (scripts/demo/install.sh) runs under whatever Node the machine has, often
// older than `engines` asks; the install brings Node 24 itself. npm's
// EBADENGINE blocks are then noise the newcomer cannot act on: one line says
// why, and errors still show. Real npm, `--dry-run` in a copy of the
// workspace's manifests (no download, seconds).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skipWithout } from "../../../tests/support/ci.js";
import { REPO_ROOT } from "../../../tests/support/docs.js";
import { findOldNode, provisionOldNode } from "../support/old-node.js";

const INSTALL = path.join(REPO_ROOT, "scripts", "demo", "install.sh");
const minimum = /^>=(\d+)\.(\d+)/.exec((JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { engines: { node: string } }).engines.node)!;

const engines: [number, number] = [Number(minimum[1]), Number(minimum[2])];

describe(`npm ci for the demo under a Node older than ${minimum[0]}`, () => {
  let dir: string;
  /** A folder holding a `node` (and `npm`) older than `engines` allows — a system Node, as on a fresh machine — or undefined outside CI when none could be had. */
  let oldNode: string | undefined;
  const run = (command: string, args: string[]) =>
    spawnSync(command, args, { cwd: dir, encoding: "utf8", env: { ...process.env, PATH: `${oldNode}${path.delimiter}/usr/bin${path.delimiter}/bin` } });
  /** Skips outside CI when there is no old Node; under CI the beforeAll below has failed instead. */
  const needOldNode = (ctx: { skip: (note?: string) => void }) => {
    if (oldNode === undefined) ctx.skip("no Node older than engines on this machine, and none could be cached");
  };

  beforeAll(async () => {
    oldNode = findOldNode(engines);
    if (oldNode === undefined) {
      try {
        oldNode = await provisionOldNode((line) => console.error(`[old-node] ${line}`));
      } catch (error) {
        skipWithout(`no Node older than ${minimum[0]} here, and caching one failed: ${(error as Error).message}`);
      }
    }
    if (oldNode !== undefined) console.error(`[old-node] npm ci under ${spawnSync(path.join(oldNode, "node"), ["--version"], { encoding: "utf8" }).stdout.trim()} from ${oldNode}`);
  }, 600_000);

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-demo-install-"));
    const manifests = ["package.json", "package-lock.json"];
    const workspaces = ["sdk", "sandbox", "policy", ...fs.readdirSync(path.join(REPO_ROOT, "examples")).map((e) => `examples/${e}`)];
    for (const ws of workspaces) if (fs.existsSync(path.join(REPO_ROOT, ws, "package.json"))) manifests.push(`${ws}/package.json`);
    for (const file of manifests) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.copyFileSync(path.join(REPO_ROOT, file), path.join(dir, file));
    }
  });
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("plain `npm ci` there prints EBADENGINE blocks (what the first screen showed)", (ctx) => {
    needOldNode(ctx);
    const plain = run("npm", ["ci", "--no-audit", "--no-fund", "--dry-run", "--ignore-scripts"]);
    expect(plain.status).toBe(0);
    expect(plain.stderr).toMatch(/npm warn EBADENGINE/);
  });

  it("the demo's install prints one line saying why instead, and succeeds", (ctx) => {
    needOldNode(ctx);
    const quiet = run("bash", [INSTALL, "--dry-run", "--ignore-scripts"]);
    expect(quiet.status).toBe(0);
    expect(quiet.stderr).not.toMatch(/npm warn/);
    expect((quiet.stdout + quiet.stderr).split("\n").filter((line) => line.includes("EBADENGINE"))).toHaveLength(1); // the one line below
    expect(quiet.stdout).toMatch(/^ {3}npm runs under Node v\d+\.\d+\.\d+ here, the workspace needs Node >=\d+\.\d+: this install brings Node 24 for every later step, so npm's EBADENGINE warnings are harmless and not shown \(errors are\)\.$/m);
  });

  it("an error still shows and fails the install", (ctx) => {
    needOldNode(ctx);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
    manifest.devDependencies["left-pad"] = "^1.3.0"; // not in the lockfile: npm ci refuses
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(manifest));
    const broken = run("bash", [INSTALL, "--dry-run", "--ignore-scripts"]);
    expect(broken.status).not.toBe(0);
    expect(broken.stderr).toMatch(/^npm error /m);
  });
});
