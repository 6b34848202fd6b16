// A Go program served by the provider plugin: the Go SDK generated from
// sdk/schema.json, and a program written with it run inline through Go's
// Automation API (the process is its own language runtime, so no Go language
// host is needed). The plugin is installed from its archive as the README
// says. The same scenario as yaml-program.test.ts: the validation records
// flow into the sandbox's DNS record resource, and the sandbox validates from
// what was published.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { goBinary } from "../../../scripts/engine/go-build.js";
import { repoRoot } from "../../../scripts/engine/index.js";
import { generateSdks } from "../../../scripts/sdkgen/index.js";
import { opensslVerify } from "../../support/openssl.js";
import { pluginWorld, type PluginWorld } from "../harness/plugin.js";
import { startTestSandbox, type TestSandbox } from "../harness/sandbox.js";
import { backendText } from "../harness/stack.js";

const execFileAsync = promisify(execFile);
const FIXTURE = path.join(repoRoot, "tests", "e2e", "fixtures", "go-program");
const DOMAIN = "go.e2e.example.com";

/** What the program prints for one output: a secret's value never, only its PEM block type. */
interface OutputLine {
  secret: boolean;
  value?: unknown;
  pemType?: string;
}
/** One line per step (see the fixture's main.go). */
interface StepLine {
  step: "up" | "preview" | "destroy";
  outputs?: Record<string, OutputLine>;
  summary?: Record<string, number> | null;
}

describe("a Go program (generated Go SDK, Automation API inline) through the provider plugin", () => {
  let sandbox: TestSandbox;
  let world: PluginWorld;
  let tmp: string;
  let binary: string;
  let destroyed = false;

  /** Runs the built program with the given steps; resolves with its JSON lines and its stderr (the engine's output). */
  const runProgram = async (steps: string[]): Promise<{ lines: StepLine[]; stderr: string }> => {
    const env = {
      ...process.env,
      ...world.environment.env,
      // The program's own names, not the provider's CERTRESELLER_* defaults:
      // the provider must get these from stack config.
      GO_PROGRAM_API_KEY: sandbox.apiKey,
      GO_PROGRAM_BASE_URL: sandbox.url,
      GO_PROGRAM_JOURNAL_DIR: world.journalDir,
      GO_PROGRAM_DOMAIN: DOMAIN,
      GO_PROGRAM_MANAGEMENT_URL: sandbox.managementUrl,
      GO_PROGRAM_WORK_DIR: path.join(tmp, "workspace"),
    };
    try {
      const { stdout, stderr } = await execFileAsync(binary, steps, { env, maxBuffer: 64 * 1024 * 1024 });
      const lines = stdout
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as StepLine);
      return { lines, stderr };
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string };
      throw new Error(`the Go program failed (${steps.join(" ")}):\n${e.stdout ?? ""}\n${e.stderr ?? ""}`, { cause: error });
    }
  };

  beforeAll(async () => {
    const go = goBinary();
    if (!go) throw new Error("go is needed on PATH");
    const log = (line: string) => console.error(`[go-program] ${line}`);
    let started = Date.now();
    sandbox = await startTestSandbox({ validation: "published" });
    world = await pluginWorld(sandbox);
    log(`sandbox started and plugin installed in ${Date.now() - started} ms`);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-go-program-"));

    // The fixture's go.mod replaces the SDK module with `../sdk/go`: the SDK
    // goes to <tmp>/sdk/go and the program beside it, to <tmp>/program.
    started = Date.now();
    await generateSdks({ schemaPath: path.join(repoRoot, "sdk", "schema.json"), outDir: path.join(tmp, "sdk"), languages: ["go"], log });
    log(`Go SDK generated in ${Date.now() - started} ms`);
    const programDir = path.join(tmp, "program");
    fs.cpSync(FIXTURE, programDir, { recursive: true });

    const goEnv = { ...process.env, GOFLAGS: "-mod=mod", CGO_ENABLED: "0" };
    started = Date.now();
    await execFileAsync(go, ["mod", "tidy"], { cwd: programDir, env: goEnv });
    log(`go mod tidy: ${Date.now() - started} ms`);
    binary = path.join(tmp, "bin", "certreseller-go-program");
    started = Date.now();
    await execFileAsync(go, ["build", "-o", binary, "."], { cwd: programDir, env: goEnv });
    log(`go build: ${Date.now() - started} ms`);
  });

  afterAll(async () => {
    // A failed test must not leave the order bought: destroy is idempotent.
    if (binary && !destroyed) await runProgram(["destroy"]).catch(() => undefined);
    await sandbox?.stop();
    world?.dispose();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("up buys, validates from the published record and issues; preview shows no change; destroy refunds", async () => {
    const up = await runProgram(["up"]);
    expect(up.lines.map((line) => line.step)).toEqual(["up"]);
    expect(up.stderr).toMatch(/certreseller:index:Certificate/);
    expect(up.stderr).not.toMatch(/pulumi-resource-certreseller from \$PATH/); // the installed plugin, not an ambient one
    expect(up.lines[0]!.summary).toEqual({ create: 5 }); // the four resources and the stack
    const outputs = up.lines[0]!.outputs!;
    const orderNo = outputs.orderNo?.value as string;
    expect(outputs.orderNo?.secret).toBe(false);
    expect((await sandbox.management.orders()).map((o) => o.orderNo)).toEqual([orderNo]);
    expect(outputs.accountId?.value).toMatch(/^ak_/);
    expect(opensslVerify(outputs.fullChainPem?.value as string, await sandbox.management.rootPem())).toMatch(/OK/);
    expect(outputs.privateKeyPem).toEqual({ secret: true, pemType: "PRIVATE KEY" });
    // The record the Validation gave was published (the sandbox issued only because it was).
    const published = await sandbox.management.call<{ fqdn: string; type: string }[]>("GET", "/dns-records");
    expect(published).toEqual([expect.objectContaining({ fqdn: expect.stringContaining(DOMAIN), type: "TXT" })]);
    // The key went in as secret config (on the CLI's stdin): encrypted in the
    // stack's config file, never in state.
    const keySecret = sandbox.apiKey.split(":")[1]!;
    const stackConfig = fs.readFileSync(path.join(tmp, "workspace", "Pulumi.dev.yaml"), "utf8");
    expect(stackConfig).toMatch(/certreseller:apiKey:\s+secure:/);
    expect(stackConfig).not.toContain(keySecret);
    expect(backendText(world)).not.toContain(keySecret);

    // A second run: the program's preview fails on any change, so reaching
    // destroy means every resource stayed the same.
    const rest = await runProgram(["preview", "destroy"]);
    destroyed = true;
    const [preview, destroy] = rest.lines;
    expect(rest.lines.map((line) => line.step)).toEqual(["preview", "destroy"]);
    expect(preview!.summary).toEqual({ same: 5 });
    expect(destroy!.summary).toEqual({ delete: 5 });
    expect(rest.stderr).toMatch(/refunded 100\.00/);

    expect((await sandbox.management.order(orderNo)).refund).toMatchObject({ mode: "direct" });
    expect((await sandbox.management.orders()).length).toBe(1);
    expect(await sandbox.management.call("GET", "/dns-records")).toEqual([]);
    const requests = await sandbox.management.requests();
    const calls = requests.map((r) => r.operation);
    expect(calls.filter((op) => op === "CreateOrder")).toHaveLength(1);
    expect(calls.filter((op) => op === "CancelOrder")).toHaveLength(1);
  });
});
