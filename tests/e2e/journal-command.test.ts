// The journal command a stop prints, run as printed from the user's own
// project (issue 40, item 4): a Pulumi YAML project with the packed plugin
// installed, and a TypeScript project with the package installed from its
// packed archive (docs/install.md). A lost CreateOrder answer leaves an
// intent; the next `up` stops and prints how to remove it. The printed
// command lists the entry and removes it, with the npm registry unreachable:
// nothing is fetched. Also (item 7): run with no journal variable in the
// project's folder, the command reads the stack's `certreseller:journalDir`.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/engine/index.js";
import { startPluginStack, type PluginStack } from "./harness/plugin.js";
import { startSandboxWorld, closeSandboxWorld, failureOf, type E2eWorld } from "./harness/stack.js";
import type { TestSandbox } from "./harness/sandbox.js";

const YAML_PROGRAM = path.join(repoRoot, "tests", "e2e", "fixtures", "yaml-money", "order-and-certificate");
const NODE_DIR = path.join(repoRoot, "node_modules", "node", "bin");
/** npm's registry where nothing answers: a command that tried to fetch a package would fail. */
const NO_REGISTRY = { npm_config_registry: "http://127.0.0.1:9/", npm_config_fetch_retries: "0" };

/** A shell command line run as a user's shell runs it, in `cwd`: its exit code and output. */
function sh(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile("sh", ["-c", command], { cwd, env, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: stdout + stderr }),
    );
  });
}

/** The `journal rm` command the stop printed (backticked), and the same command with `ls`. */
function printedCommands(message: string): { rm: string; ls: string; id: string } {
  const match = /`(CERTRESELLER_JOURNAL_DIR=\S+ (.+?) journal rm ([0-9a-f]{32}))`/.exec(message);
  if (!match) throw new Error(`no printed journal rm command in:\n${message}`);
  return { rm: match[1]!, ls: match[1]!.replace(/ journal rm [0-9a-f]{32}$/, " journal ls"), id: match[3]! };
}

/** The environment without journal variables: what the user's shell has. */
function userEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { CERTRESELLER_JOURNAL_DIR: _dir, CERTRESELLER_JOURNAL_URL: _url, ...rest } = base;
  return { ...rest, ...NO_REGISTRY, PATH: `${NODE_DIR}${path.delimiter}${base.PATH ?? ""}` };
}

describe("the printed journal command, from a Pulumi YAML project (packed plugin installed)", () => {
  const domain = "journal-command.yaml.e2e.example.com";
  let stack: PluginStack | undefined;
  beforeAll(async () => void (stack = await startPluginStack({ program: YAML_PROGRAM, config: { domain } })));
  afterAll(() => stack?.dispose());

  it("runs the installed plugin's executable (no npx): lists the entry, reads the stack's journal without the variable, and removes it", async () => {
    const { sandbox, world, dir, run } = stack!;
    await sandbox.management.setFaults({ CreateOrder: { commitThenFail: "drop", times: 1 } });
    expect(await failureOf(run(["up", "--yes"]))).toMatch(/MAY have been charged/);
    const stop = await failureOf(run(["up", "--yes"]));
    const { rm, ls, id } = printedCommands(stop);
    const executable = path.join(world.environment.homeDir, "plugins", "resource-certreseller-v0.1.0", "pulumi-resource-certreseller");
    expect(rm).toBe(`CERTRESELLER_JOURNAL_DIR=${world.journalDir} ${executable} journal rm ${id}`);
    const env = userEnv({ ...process.env, ...world.environment.env });

    const listed = await sh(ls, dir, env);
    expect(listed.code, listed.output).toBe(0);
    expect(listed.output).toMatch(new RegExp(`^purchase journal ${world.journalDir} \\(from environment variable CERTRESELLER_JOURNAL_DIR\\): 1 entry\n`));
    expect(listed.output).toContain(`purchase: ${domain}`);
    expect(listed.output).toContain("MAY have been charged");

    // In the project's folder without the variable: the selected stack's certreseller:journalDir.
    const bare = await sh(`${executable} journal ls`, dir, env);
    expect(bare.code, bare.output).toBe(0);
    expect(bare.output).toMatch(new RegExp(`^purchase journal ${world.journalDir} \\(from stack dev's config, certreseller:journalDir in Pulumi\\.dev\\.yaml\\): 1 entry\n`));

    const removed = await sh(rm, dir, env);
    expect(removed.code, removed.output).toBe(0);
    expect(removed.output).toMatch(/^removed /);
    expect(fs.readdirSync(world.journalDir).filter((f) => f.endsWith(".json"))).toEqual([]);
  });
});

describe("the printed journal command, from a TypeScript project (the package installed from its packed archive)", () => {
  const domain = "journal-command.ts.e2e.example.com";
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let project: string;
  let scratch: string;
  const env = () => ({ ...process.env, ...world.environment.env, PATH: `${NODE_DIR}${path.delimiter}${world.environment.env.PATH ?? process.env.PATH ?? ""}` });
  const pulumi = (args: string[], input?: string) =>
    new Promise<string>((resolve, reject) => {
      const child = execFile(world.environment.pulumiPath, [...args, "--non-interactive"], { cwd: project, env: env(), maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
        error ? reject(new Error(`pulumi ${args.join(" ")} failed:\n${stdout}\n${stderr}`, { cause: error })) : resolve(stdout),
      );
      child.stdin!.end(input ?? "");
    });
  const run = (words: string[], cwd: string) =>
    new Promise<void>((resolve, reject) =>
      execFile(words[0]!, words.slice(1), { cwd, env: env(), maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${words.join(" ")} failed:\n${stdout}\n${stderr}`, { cause: error })) : resolve(),
      ),
    );

  beforeAll(async () => {
    ({ sandbox, world } = await startSandboxWorld({}, { directoryProgram: true }));
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-journal-command-"));
    project = path.join(scratch, "project");
    fs.mkdirSync(project);
    // docs/install.md's two lines; the archive packed into the scratch folder, not the shared clone.
    await run(["npm", "pack", "-w", "sdk", "--pack-destination", scratch, "--silent"], repoRoot);
    await run(["npm", "init", "-y"], project);
    await run(["npm", "install", "--no-audit", "--no-fund", path.join(scratch, "pulumi-certreseller-0.1.0.tgz"), "@pulumi/pulumi"], project);
    fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: journal-command\nruntime: nodejs\nmain: index.js\n");
    fs.writeFileSync(
      path.join(project, "index.js"),
      `const certs = require("pulumi-certreseller");\nnew certs.Order("site", { productCode: "sandbox-dv-single", domain: ${JSON.stringify(domain)}, verificationMethod: "dns" });\n`,
    );
    await pulumi(["stack", "init", "dev"]);
    await pulumi(["config", "set", "certreseller:baseUrl", sandbox.url]);
    await pulumi(["config", "set", "--secret", "certreseller:apiKey"], sandbox.apiKey);
    await pulumi(["config", "set", "certreseller:journalDir", world.journalDir]);
  });
  afterAll(async () => {
    if (world && project) await pulumi(["destroy", "--yes"]).catch(() => undefined);
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
    await closeSandboxWorld({ sandbox, world });
  });

  it("runs the project's installed bin (npx --no-install): lists the entry from the project and a subfolder, and removes it", async () => {
    await sandbox.management.setFaults({ CreateOrder: { commitThenFail: "drop", times: 1 } });
    expect(await failureOf(pulumi(["up", "--yes"]))).toMatch(/MAY have been charged/);
    const stop = await failureOf(pulumi(["up", "--yes"]));
    const { rm, ls, id } = printedCommands(stop);
    expect(rm).toBe(`CERTRESELLER_JOURNAL_DIR=${world.journalDir} npx --no-install certreseller journal rm ${id}`);
    const user = userEnv(env());

    fs.mkdirSync(path.join(project, "sub"), { recursive: true });
    for (const cwd of [project, path.join(project, "sub")]) {
      const listed = await sh(ls, cwd, user);
      expect(listed.code, listed.output).toBe(0);
      expect(listed.output).toMatch(new RegExp(`^purchase journal ${world.journalDir} \\(from environment variable CERTRESELLER_JOURNAL_DIR\\): 1 entry\n`));
      expect(listed.output).toContain(`purchase: ${domain}`);
    }
    const removed = await sh(rm, project, user);
    expect(removed.code, removed.output).toBe(0);
    expect(removed.output).toMatch(/^removed /);
    expect(fs.readdirSync(world.journalDir).filter((f) => f.endsWith(".json"))).toEqual([]);
  });
});
