import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { ManagementClient } from "../../tests/support/sandbox-management.js";

const CLI = join(__dirname, "../src/cli.ts");
const BIN = join(__dirname, "../bin/certreseller-sandbox.js");
const BUILT = existsSync(join(__dirname, "../dist/cli.js"));
let child: ChildProcess | undefined;

afterEach(() => {
  if (child !== undefined && child.exitCode === null) child.kill("SIGKILL");
  child = undefined;
});

/** Runs the CLI from source (the bin runs the same module from dist) and reads its one JSON line. */
async function startCli(args: string[], env: Record<string, string> = {}): Promise<{ info: any; stderr: () => string; stdoutLines: () => number }> {
  child = spawn(process.execPath, ["--import", "tsx", CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const lines = createInterface({ input: child.stdout! });
  let count = 0;
  lines.on("line", () => count++);
  const [first] = (await Promise.race([
    once(lines, "line"),
    once(child, "exit").then(() => {
      throw new Error(`CLI exited early: ${err}`);
    }),
  ])) as [string];
  return { info: JSON.parse(first), stderr: () => err, stdoutLines: () => count };
}

describe("certreseller-sandbox CLI", () => {
  it("prints exactly one JSON line with two funded accounts, logs on stderr, stops on SIGTERM", async () => {
    const { info, stderr, stdoutLines } = await startCli(["--port", "0", "--status-cooldown", "5"], { SANDBOX_METHOD_COOLDOWN: "7", SANDBOX_FAULT: "CreateOrder:errorRate=1,CreateOrder:errorCode=503" });
    expect(Object.keys(info).sort()).toEqual(["accounts", "caCertificatePem", "cloudflare", "managementUrl", "url"]);
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.managementUrl).toBe(`${info.url}/management`);
    expect(info.caCertificatePem).toContain("BEGIN CERTIFICATE");
    expect(info.accounts.length).toBeGreaterThanOrEqual(2);
    for (const a of info.accounts) expect(Number(a.balance)).toBeGreaterThan(0);
    const management = new ManagementClient(info.managementUrl);
    expect(await management.call("GET", "/config")).toMatchObject({ statusCooldownSeconds: 5, methodCooldownSeconds: 7, validation: "auto" });
    expect(await management.faults()).toEqual({ CreateOrder: { errorRate: 1, errorCode: 503 } });
    const res = await fetch(`${info.url}/partner/GetUserData/`, { method: "POST", headers: { "x-api-key": info.accounts[0].apiKey } });
    expect((await res.json()).code).toBe(200);
    // The child logs just after answering; wait for the line rather than a fixed pause.
    for (const deadline = Date.now() + 10_000; !/GetUserData code=200/.test(stderr()) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
    expect(stderr()).toMatch(/GetUserData code=200/);
    expect(stderr()).not.toContain(info.accounts[0].apiKey.split(":")[1]);
    const exited = once(child!, "exit");
    child!.kill("SIGTERM");
    const [code] = await exited;
    expect(code).toBe(0);
    expect(stdoutLines()).toBe(1);
  });

  it("sets the renewal window and the clock's start from a flag and the environment", async () => {
    const { info } = await startCli(["--port", "0", "--quiet", "--renewal-window-days", "45"], { SANDBOX_CLOCK_START: "2027-04-01T00:00:00Z" });
    const management = new ManagementClient(info.managementUrl);
    expect(await management.call("GET", "/config")).toMatchObject({ renewalWindowDays: 45 });
    const { now } = await management.clock();
    expect(now).toMatch(/^2027-04-01T00:0/);
    const { optionsFromArgs } = await import("../src/cli.js");
    expect(() => optionsFromArgs(["--clock-start", "soon"], {})).toThrow(/--clock-start must be an ISO 8601 instant/);
    expect(() => optionsFromArgs(["--renewal-window-days=-3"], {})).toThrow(/--renewal-window-days must be a non-negative number/);
  });

  it("refuses a bad flag with usage and exit code 2", async () => {
    child = spawn(process.execPath, ["--import", "tsx", CLI, "--validation", "maybe"], { stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    const [code] = await once(child, "exit");
    expect(code).toBe(2);
    expect(err).toMatch(/--validation must be auto, published or real/);
  });

  // The published bin runs dist/; `npm test` builds first, a bare vitest run may not have.
  it.skipIf(!BUILT)("the bin starts the built CLI", async () => {
    child = spawn(process.execPath, [BIN, "--quiet"], { stdio: ["ignore", "pipe", "pipe"] });
    const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
    const info = JSON.parse(line);
    expect((await new ManagementClient(info.managementUrl).call("GET", "/health")).ok).toBe(true);
    const exited = once(child, "exit");
    child.kill("SIGINT");
    expect((await exited)[0]).toBe(0);
  });
});
