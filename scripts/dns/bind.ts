import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { Resolver } from "node:dns/promises";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { bindFiles, GENERAL_LOG, UPDATE_LOG, type BindKey, type BindZone } from "./config.js";
import { freePort } from "./ports.js";
import { findNamed } from "./provision.js";

export type { BindKey, BindZone } from "./config.js";

export interface StartBindOptions {
  /**
   * Zones to serve. A name alone is a zone every key may update (TXT and
   * CNAME); default `["e2e.test."]`.
   */
  zones?: readonly (string | { name: string; updaters?: readonly string[] })[];
  /** TSIG keys; default one hmac-sha256 key `certreseller-e2e.` with a random secret. */
  keys?: readonly { name: string; algorithm?: string; secret?: string }[];
  /** Default: `findNamed()` (PATH, then /usr/sbin). */
  namedPath?: string;
  /** How long to wait for the first SOA answer (default 15 s). */
  startTimeoutMs?: number;
}

/** A BIND 9 serving its zones on a free loopback port. The first key and zone are the ones most tests need. */
export interface RunningBind {
  host: "127.0.0.1";
  port: number;
  /** `127.0.0.1:<port>`: the sandbox's `resolver` and the record's `server`. */
  address: string;
  /** The first key's name (absolute, `certreseller-e2e.`). */
  keyName: string;
  /** The first key's secret (base64). */
  secret: string;
  /** The first key's algorithm (`hmac-sha256`). */
  algorithm: string;
  /** The first zone (absolute, `e2e.test.`). */
  zone: string;
  keys: BindKey[];
  zones: BindZone[];
  /** The server's folder: named.conf, zone files, journals, logs. */
  dir: string;
  /** From spawning `named` to its first SOA answer. */
  startupMs: number;
  /** The log of the `update` and `update-security` categories: every update accepted or refused. */
  log(): string;
  /** The general log (start-up, zone loading). */
  generalLog(): string;
  stop(): Promise<void>;
}

const DEFAULT_KEY = "certreseller-e2e.";
const absolute = (name: string) => (name.endsWith(".") ? name : `${name}.`).toLowerCase();

/**
 * Starts `named` in the foreground (`-f`, logging as named.conf says) with a
 * config of its own in a temporary folder: loopback only, on a free port, no
 * recursion, a TSIG key allowed to update TXT and CNAME records, updates
 * logged to a file. Resolves once the server answers an SOA query for its
 * first zone; fails with named's own output if it exits or never answers.
 *
 * @example
 * const bind = await startBind({ zones: ["e2e.test.", { name: "locked.test.", updaters: [] }] });
 * // bind.address "127.0.0.1:40123", bind.keyName "certreseller-e2e.", bind.secret "…base64…"
 * await bind.stop();
 */
export async function startBind(options: StartBindOptions = {}): Promise<RunningBind> {
  const namedPath = options.namedPath ?? findNamed()?.path;
  if (!namedPath) throw new Error("no `named` found (PATH, /usr/sbin/named): run the e2e global setup or `npx tsx scripts/dns/main.ts`, which install BIND 9");
  const keys: BindKey[] = (options.keys ?? [{ name: DEFAULT_KEY }]).map((k) => ({
    name: absolute(k.name),
    algorithm: k.algorithm ?? "hmac-sha256",
    secret: k.secret ?? randomBytes(32).toString("base64"),
  }));
  const zones: BindZone[] = (options.zones ?? ["e2e.test."]).map((z) =>
    typeof z === "string" ? { name: absolute(z), updaters: keys.map((k) => k.name) } : { name: absolute(z.name), updaters: [...(z.updaters ?? keys.map((k) => k.name))].map(absolute) },
  );
  if (zones.length === 0 || keys.length === 0) throw new Error("startBind: at least one zone and one key");

  let lastError: Error | undefined;
  // A free port can be taken between the probe and named's bind: try a few.
  for (let attempt = 0; attempt < 3; attempt++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-bind-"));
    try {
      return await launch(namedPath, dir, await freePort(), zones, keys, options.startTimeoutMs ?? 15_000);
    } catch (error) {
      fs.rmSync(dir, { recursive: true, force: true });
      lastError = error as Error;
      if (!/address in use/i.test(lastError.message)) throw lastError;
    }
  }
  throw lastError!;
}

async function launch(namedPath: string, dir: string, port: number, zones: BindZone[], keys: BindKey[], timeoutMs: number): Promise<RunningBind> {
  for (const [file, text] of bindFiles(dir, port, zones, keys)) fs.writeFileSync(file, text, { mode: 0o600 });
  const started = Date.now();
  // -f: foreground with the config's logging (-g would force everything to stderr);
  // -4: the config listens on IPv4 only; -n 1: one worker thread, the fastest start.
  const child = spawn(namedPath, ["-f", "-4", "-n", "1", "-c", path.join(dir, "named.conf")], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  // A test process that dies without stop() must not leave a named behind.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const readLog = (name: string) => {
    try {
      return fs.readFileSync(path.join(dir, name), "utf8");
    } catch {
      return "";
    }
  };

  const ready = await Promise.race([answersSoa(port, zones[0]!.name, started + timeoutMs), exited.then(() => "exited" as const)]);
  if (ready !== true) {
    child.kill("SIGKILL");
    process.removeListener("exit", killOnExit);
    const why = ready === "exited" ? "named exited during start-up" : `named did not answer an SOA query for ${zones[0]!.name} within ${timeoutMs} ms`;
    throw new Error(`${why} (port ${port}):\n${output.trim()}\n${readLog(GENERAL_LOG).trim().split("\n").slice(-20).join("\n")}`);
  }
  const first = keys[0]!;
  return {
    host: "127.0.0.1",
    port,
    address: `127.0.0.1:${port}`,
    keyName: first.name,
    secret: first.secret,
    algorithm: first.algorithm,
    zone: zones[0]!.name,
    keys,
    zones,
    dir,
    startupMs: Date.now() - started,
    log: () => readLog(UPDATE_LOG),
    generalLog: () => readLog(GENERAL_LOG),
    stop: () => stop(child, exited, dir, killOnExit),
  };
}

async function stop(child: ChildProcess, exited: Promise<number | null>, dir: string, killOnExit: () => void): Promise<void> {
  process.removeListener("exit", killOnExit);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Polls with SOA queries until the zone is served (true) or the deadline passes (false). */
async function answersSoa(port: number, zone: string, deadline: number): Promise<boolean> {
  const resolver = new Resolver({ timeout: 200, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  while (Date.now() < deadline) {
    try {
      await resolver.resolveSoa(zone.replace(/\.$/, ""));
      return true;
    } catch {
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  return false;
}
