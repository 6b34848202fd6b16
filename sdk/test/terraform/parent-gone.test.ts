// A provider whose terraform was SIGKILLed (reparented, no Shutdown, no
// signal) exits once no call is in flight, and never in the middle of one: a
// purchase in flight finishes and is recorded first. The real command (run
// through tsx, with an in-test provider) is started by a short-lived parent
// process, as Terraform starts it; the test then kills that parent.
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as GrpcJs from "@grpc/grpc-js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { encodeDynamicValue } from "../../src/terraform/codec.js";
import { MAGIC_COOKIE_VALUE } from "../../src/terraform/handshake.js";
import { loadTerraformProtos, watchParent } from "../../src/terraform/server.js";
import { fakeProviderEntry, grpc, TSX } from "./fake-provider.js";

const THING: ["object", Record<string, "string">] = ["object", { name: "string" }];

/** The command with a provider whose apply of `slow` takes `SLOW_MS`, then writes RECORD_FILE: a purchase and its journal entry. */
const ENTRY = fakeProviderEntry({
  prelude: 'const fs = require("node:fs");',
  apply: `async (r) => {
    await new Promise((resolve) => setTimeout(resolve, Number(process.env.SLOW_MS)));
    fs.writeFileSync(process.env.RECORD_FILE, "recorded " + r.plannedState.name);
    return { newState: r.plannedState };
  }`,
});

/** Terraform's part: starts the provider, prints its pid and handshake line, then waits to be killed. */
const PARENT = `
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const err = fs.openSync(process.env.PROVIDER_STDERR, "a");
const child = spawn(process.execPath, ["--import", process.env.TSX_LOADER, process.env.ENTRY_FILE], { stdio: ["ignore", "pipe", err] });
let out = "";
child.stdout.on("data", (chunk) => {
  out += chunk;
  if (out.includes("\\n")) process.stdout.write(child.pid + " " + out.slice(0, out.indexOf("\\n")) + "\\n");
});
setInterval(() => undefined, 60_000);
`;

let work: string;
const parents: ChildProcess[] = [];
const providerPids: number[] = [];
const clients: GrpcJs.Client[] = [];

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "tfcr-parent-"));
  fs.writeFileSync(path.join(work, "entry.cjs"), ENTRY);
});
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
  for (const parent of parents.splice(0)) if (parent.exitCode === null && parent.signalCode === null) parent.kill("SIGKILL");
  for (const pid of providerPids.splice(0)) if (alive(pid)) process.kill(pid, "SIGKILL");
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts the parent, which starts the provider (plaintext, as a harness may ask); resolves with both once the handshake line is out. */
async function startUnderParent(slowMs: number) {
  const recordFile = path.join(work, `record-${Date.now()}`);
  const env = {
    ...process.env,
    TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE,
    PLUGIN_PROTOCOL_VERSIONS: "6",
    TF_DISABLE_PLUGIN_TLS: "1",
    PROVIDER_STDERR: path.join(work, "provider.stderr"),
    TSX_LOADER: TSX,
    ENTRY_FILE: path.join(work, "entry.cjs"),
    SLOW_MS: String(slowMs),
    RECORD_FILE: recordFile,
  };
  const parent = spawn(process.execPath, ["-e", PARENT], { cwd: work, env, stdio: ["ignore", "pipe", "inherit"] });
  parents.push(parent);
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    parent.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
    });
    parent.on("exit", () => reject(new Error(`the parent exited before the provider's handshake; provider stderr: ${fs.readFileSync(env.PROVIDER_STDERR, "utf8")}`)));
  });
  const [pid, handshake] = line.split(" ") as [string, string];
  providerPids.push(Number(pid));
  const socket = handshake.split("|")[3]!;
  const packages = loadTerraformProtos().packages as any;
  const client = new packages.tfplugin6.Provider(`unix:${socket}`, grpc.credentials.createInsecure()) as GrpcJs.Client & Record<string, any>;
  clients.push(client);
  return { parent, pid: Number(pid), client, recordFile };
}

async function until(what: string, check: () => boolean, timeoutMs: number): Promise<number> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - start;
}

describe("the provider outlives no terraform", () => {
  it("exits within a few seconds of its parent's SIGKILL when idle", async () => {
    const { parent, pid } = await startUnderParent(0);
    parent.kill("SIGKILL");
    await until("the provider exits", () => !alive(pid), 10_000);
  });

  it("a call in flight when the parent dies finishes and records; only then does the process exit", async () => {
    const { parent, pid, client, recordFile } = await startUnderParent(3_000);
    const planned = encodeDynamicValue({ name: "slow" }, THING);
    const answer = new Promise<any>((resolve, reject) =>
      client.ApplyResourceChange({ type_name: "certreseller_thing", prior_state: encodeDynamicValue(null, THING), planned_state: planned, config: planned }, (error: unknown, response: unknown) => (error ? reject(error) : resolve(response))),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    parent.kill("SIGKILL");
    // Past two parent checks: the process is still there, the call still running.
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    expect(alive(pid)).toBe(true);
    expect(fs.existsSync(recordFile)).toBe(false);
    expect((await answer).diagnostics).toEqual([]);
    expect(fs.readFileSync(recordFile, "utf8")).toBe("recorded slow");
    await until("the provider exits after its last call", () => !alive(pid), 10_000);
  });
});

describe("watchParent", () => {
  it("calls back once when the process is reparented, or the parent answers no signal; not while both hold", () => {
    vi.useFakeTimers();
    try {
      let ppid = 4242;
      let parentAlive = true;
      const gone = vi.fn();
      watchParent(gone, { ppid: 4242, currentPpid: () => ppid, alive: () => parentAlive, intervalMs: 1_000 });
      vi.advanceTimersByTime(5_000);
      expect(gone).not.toHaveBeenCalled();
      ppid = 1;
      vi.advanceTimersByTime(1_000);
      expect(gone).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(5_000);
      expect(gone).toHaveBeenCalledTimes(1);

      const gone2 = vi.fn();
      watchParent(gone2, { ppid: 4242, currentPpid: () => 4242, alive: () => parentAlive, intervalMs: 1_000 });
      parentAlive = false;
      vi.advanceTimersByTime(1_000);
      expect(gone2).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("watches nothing when started by PID 1", () => {
    vi.useFakeTimers();
    try {
      const gone = vi.fn();
      watchParent(gone, { ppid: 1, currentPpid: () => 99, alive: () => false });
      vi.advanceTimersByTime(10_000);
      expect(gone).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});
