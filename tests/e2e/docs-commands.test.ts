// The commands of README.md, docs/install.md, docs/sandbox.md and
// docs/languages.md that no other test runs, typed as the docs write them
// (each line read from its doc with tests/support/docs.ts). Only what a doc
// says is the reader's to choose is chosen here: the sandbox's port, the
// backend, the stack name and the clone's path. The table of every doc
// command and the test that runs it: DOC_COMMAND_RUNS in tests/support/docs.ts
// (the plugin's install: harness/plugin.ts; `pulumi import`:
// plugin/import.test.ts; the SDKs: generated-sdks.test.ts).
import { execFile, spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DOCS_SANDBOX_PORT, REPO_ROOT, docCommand, readDoc, shellWords } from "../support/docs.js";
import { ManagementClient } from "../support/sandbox-management.js";
import { pluginWorld, type PluginWorld } from "./harness/plugin.js";
import type { TestSandbox } from "./harness/sandbox.js";
import { backendFiles, createWorld, type E2eWorld } from "./harness/stack.js";

const NODE_FIRST = `${path.join(REPO_ROOT, "node_modules", "node", "bin")}${path.delimiter}${process.env.PATH ?? ""}`;

/** Runs a command line's words; resolves with stdout and stderr, rejects with both. */
function run(words: string[], options: { cwd: string; env?: Record<string, string>; input?: string }): Promise<{ stdout: string; stderr: string }> {
  const [file, ...args] = words as [string, ...string[]];
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { cwd: options.cwd, env: { ...process.env, PATH: NODE_FIRST, ...options.env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${words.join(" ")} failed:\n${stdout}\n${stderr}`, { cause: error })) : resolve({ stdout, stderr }),
    );
    child.stdin!.end(options.input ?? "");
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** `line` with the docs' sandbox port replaced by `port` (the reader's to choose, docs/sandbox.md). */
const onPort = (line: string, port: number) => line.replaceAll(String(DOCS_SANDBOX_PORT), String(port));

interface Printed {
  url: string;
  managementUrl: string;
  caCertificatePem: string;
  accounts: { username: string; apiKey: string }[];
}

describe("the docs' commands, as written", () => {
  let sandboxProcess: ChildProcess;
  let printed: Printed;
  let port: number;
  let sandbox: TestSandbox;

  beforeAll(async () => {
    // docs/sandbox.md: `npx certreseller-sandbox --port 8080`, on a port of this test's choosing.
    port = await freePort();
    const [npx, ...args] = shellWords(onPort(docCommand("docs/sandbox.md", "npx certreseller-sandbox"), port)) as [string, ...string[]];
    sandboxProcess = spawn(npx, args, { cwd: REPO_ROOT, env: { ...process.env, PATH: NODE_FIRST }, stdio: ["ignore", "pipe", "ignore"], detached: true });
    printed = await new Promise<Printed>((resolve, reject) => {
      let out = "";
      sandboxProcess.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
        if (out.includes("\n")) resolve(JSON.parse(out.slice(0, out.indexOf("\n"))) as Printed);
      });
      sandboxProcess.on("exit", (code) => reject(new Error(`certreseller-sandbox exited with ${code} before printing its line`)));
    });
    const account = printed.accounts[0]!;
    sandbox = {
      url: printed.url,
      managementUrl: printed.managementUrl,
      apiKey: account.apiKey,
      username: account.username,
      caCertificatePem: printed.caCertificatePem,
      management: new ManagementClient(printed.managementUrl),
      stop: async () => {
        if (sandboxProcess.exitCode === null) process.kill(-sandboxProcess.pid!, "SIGTERM");
      },
    };
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  it("docs/sandbox.md: the sandbox prints what the doc says, on the port it was given", () => {
    expect(printed.url).toBe(`http://127.0.0.1:${port}`);
    expect(printed.managementUrl).toBe(`http://127.0.0.1:${port}/management`);
    expect(printed.caCertificatePem).toMatch(/BEGIN CERTIFICATE/);
    expect(printed.accounts[0]).toEqual(expect.objectContaining({ username: expect.any(String), apiKey: expect.stringMatching(/^ak_/) }));
  });

  describe("README.md's configuration, then docs/sandbox.md's quickstart at the repository root", () => {
    let world: E2eWorld;
    const stackName = `docs-${process.pid}`;
    const pulumi = (line: string) => {
      const [, ...args] = shellWords(line);
      return run([world.environment.pulumiPath, ...args], { cwd: REPO_ROOT, env: { ...world.environment.env, CERTRESELLER_JOURNAL_DIR: world.journalDir } });
    };

    beforeAll(() => {
      world = createWorld(sandbox, { directoryProgram: true });
    });
    afterAll(async () => {
      await pulumi("pulumi destroy --yes").catch(() => undefined);
      await pulumi("pulumi stack rm --yes --force").catch(() => undefined);
      fs.rmSync(path.join(REPO_ROOT, `Pulumi.${stackName}.yaml`), { force: true });
      world?.dispose();
    });

    it("the commands run as written; up buys one order and issues within seconds", async () => {
      // "or any backend": this test's own file backend instead of ~/.pulumi.
      expect(docCommand("docs/sandbox.md", "pulumi login --local")).toBe("pulumi login --local");
      await pulumi(`pulumi login ${world.environment.env.PULUMI_BACKEND_URL}`);
      // "any stack name"
      await pulumi(docCommand("docs/sandbox.md", "pulumi stack init").replace(/ dev$/, ` ${stackName}`));

      await pulumi(docCommand("README.md", "pulumi config set certreseller:baseUrl https://"));
      await pulumi(docCommand("README.md", 'pulumi config set --secret certreseller:apiKey "ak_'));
      expect((await pulumi("pulumi config get certreseller:baseUrl")).stdout.trim()).toBe("https://partner.example.net");
      expect((await pulumi("pulumi config get certreseller:apiKey")).stdout.trim()).toBe("ak_…:…");

      await pulumi(onPort(docCommand("docs/sandbox.md", "pulumi config set certreseller:baseUrl http://"), port));
      await pulumi(docCommand("docs/sandbox.md", "pulumi config set --secret certreseller:apiKey <").replace("<an apiKey it printed>", sandbox.apiKey));
      const started = Date.now();
      const up = await pulumi(docCommand("docs/sandbox.md", "pulumi up"));
      expect((Date.now() - started) / 1000).toBeLessThan(60); // "finishes in seconds": no 180 s status cooldown waited out
      expect(up.stdout).toMatch(/created/);
      const orders = await sandbox.management.orders();
      expect(orders).toHaveLength(1);
      expect((await pulumi("pulumi stack output orderNo")).stdout.trim()).toBe(orders[0]!.orderNo);
    });
  });

  describe("docs/configuration.md: the plugin with the API key set without --secret", () => {
    let world: PluginWorld;
    let dir: string;

    beforeAll(async () => {
      world = await pluginWorld(sandbox, { yamlProgram: true });
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-docs-yaml-"));
      const program = /A first program in Pulumi YAML[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readDoc("README.md"))![1]!;
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), onPort(program, port).replaceAll("example.com", "plain-key.example.com"));
      await world.pulumi(["stack", "init", "dev"], { cwd: dir });
      await world.pulumi(["config", "set", "certreseller:baseUrl", sandbox.url], { cwd: dir });
      await world.pulumi(["config", "set", "certreseller:journalDir", world.journalDir], { cwd: dir });
    });
    afterAll(async () => {
      await world?.pulumi(["destroy", "--yes"], { cwd: dir }).catch(() => undefined);
      world?.dispose();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it("no warning; the checkpoint holds the key encrypted, Pulumi.<stack>.yaml and the update history in plaintext", async () => {
      await world.pulumi(["config", "set", "certreseller:apiKey", sandbox.apiKey], { cwd: dir });
      const up = await world.pulumi(["up", "--yes"], { cwd: dir });
      expect(up).toMatch(/certreseller:index:Certificate/);
      expect(up).not.toMatch(/PLAINTEXT/);
      const secretPart = sandbox.apiKey.split(":")[1]!;
      const text = (under: string) =>
        backendFiles(world)
          .filter((file) => file.includes(`${path.sep}.pulumi${path.sep}${under}${path.sep}`))
          .map((file) => fs.readFileSync(file, "utf8"))
          .join("\n");
      const checkpoint = text("stacks");
      expect(checkpoint).toMatch(/"apiKey":\{"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","ciphertext"/);
      expect(checkpoint).not.toContain(secretPart);
      expect(text("history")).toContain(secretPart);
      expect(fs.readFileSync(path.join(dir, "Pulumi.dev.yaml"), "utf8")).toContain(`certreseller:apiKey: ${sandbox.apiKey}`);
    });
  });

  it("docs/install.md: the package packed in the clone installs into a new project and loads", async () => {
    // `npm install && npm run build` ran before this suite (`npm install && npm test`); the rest of the line as written.
    const packLine = docCommand("docs/install.md", "npm install && npm run build && npm pack");
    const [, pack] = packLine.split(" && npm run build && ") as [string, string];
    const tarball = path.join(REPO_ROOT, "pulumi-certreseller-0.1.0.tgz");
    const project = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-docs-install-"));
    try {
      await run(shellWords(pack), { cwd: REPO_ROOT });
      expect(fs.existsSync(tarball)).toBe(true);
      await run(["npm", "init", "-y"], { cwd: project });
      await run(shellWords(docCommand("docs/install.md", "npm install <clone>/").replace("<clone>", REPO_ROOT)), { cwd: project });
      const loaded = await run(["node", "-e", 'const c = require("pulumi-certreseller"); console.log(typeof c.Order, typeof c.Certificate)'], { cwd: project });
      expect(loaded.stdout.trim()).toBe("function function");
    } finally {
      fs.rmSync(tarball, { force: true });
      fs.rmSync(project, { recursive: true, force: true });
    }
  });

  it("docs/languages.md: the plugin archive's size is the one the suite packs", async () => {
    const { archivePath } = inject("plugin");
    const [, packed, unpacked] = /about (\d+) MB packed, (\d+) MB\s+unpacked/.exec(readDoc("docs/languages.md"))!;
    const listing = (await run(["tar", "-tzvf", archivePath], { cwd: os.tmpdir() })).stdout;
    const unpackedBytes = listing
      .split("\n")
      .filter((line) => line.startsWith("-"))
      .reduce((sum, line) => sum + Number(line.trim().split(/\s+/)[2]), 0);
    expect(Math.abs(fs.statSync(archivePath).size / 1e6 - Number(packed))).toBeLessThanOrEqual(1);
    expect(Math.abs(unpackedBytes / 1e6 - Number(unpacked))).toBeLessThanOrEqual(5);
  });

  it("README.md: `npm run demo` runs the quickstart up and destroy with the refund", async () => {
    const { stdout, stderr } = await run(shellWords(docCommand("README.md", "npm run demo")), { cwd: REPO_ROOT });
    expect(stdout).toMatch(/refund\s+100\.00 to balance/);
    expect(stdout).toMatch(/== done/);
    expect(stdout + stderr).not.toMatch(/EBADENGINE/);
  });
});
