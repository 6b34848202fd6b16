/**
 * BIND 9 serving fixed zones (CAA, TXT, CNAME records written in the zone
 * files) on a free loopback port, for the CAA and propagation checks' tests.
 * `scripts/dns/` finds or installs `named` and runs servers that take RFC
 * 2136 updates; this one serves whatever records a test writes, and
 * rewrites them with `setZone` (new zone file, SIGHUP, wait for the serial).
 */
import { spawn } from "node:child_process";
import { Resolver } from "node:dns/promises";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { findNamed } from "../../scripts/dns/provision.js";
import { freePort } from "../../scripts/dns/ports.js";
import { serverOptions } from "../../scripts/dns/config.js";

/** A running server. */
export interface ZoneServer {
  port: number;
  /** `127.0.0.1:<port>`. */
  address: string;
  /** Replaces a zone's records (the SOA and NS stay) and waits until the server serves them. */
  setZone(zone: string, records: readonly string[]): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `named` with one primary zone per entry: `records` are zone-file
 * lines relative to the zone (`@ CAA 0 issue "letsencrypt.org"`,
 * `_dnsauth TXT "token"`). Each zone gets `ns.<zone>` at 127.0.0.1 as its
 * only name server, so a zone's authoritative server is this server (on its
 * port). Throws naming the missing binary when there is no `named`.
 *
 * @example
 * const dns = await startZoneServer({ "example.test": ['@ CAA 0 issue "letsencrypt.org"'] });
 * await dns.stop();
 */
export async function startZoneServer(zones: Readonly<Record<string, readonly string[]>>): Promise<ZoneServer> {
  const named = findNamed()?.path;
  if (!named) throw new Error("no `named` (BIND 9): install Debian's bind9 (`npx tsx scripts/dns/main.ts` does)");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-zones-"));
  const port = await freePort();
  let serial = 1;
  const writeZone = (zone: string, records: readonly string[]) =>
    fs.writeFileSync(
      path.join(dir, `${zone}.zone`),
      [`$ORIGIN ${zone}.`, "$TTL 1", `@ IN SOA ns.${zone}. hostmaster.${zone}. ${serial} 3600 600 86400 1`, `@ IN NS ns.${zone}.`, "ns IN A 127.0.0.1", ...records, ""].join("\n"),
    );
  for (const [zone, records] of Object.entries(zones)) writeZone(zone, records);
  fs.writeFileSync(path.join(dir, "named.conf"), config(dir, port, Object.keys(zones)));
  const child = spawn(named, ["-f", "-4", "-n", "1", "-c", path.join(dir, "named.conf")], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const first = Object.keys(zones)[0]!;
  if (!(await servesSerial(port, first, serial, Date.now() + 15_000))) {
    child.kill("SIGKILL");
    throw new Error(`named did not serve ${first} on port ${port}:\n${output}\n${readOr(path.join(dir, "named.log"))}`);
  }
  return {
    port,
    address: `127.0.0.1:${port}`,
    async setZone(zone, records) {
      serial++;
      writeZone(zone, records);
      child.kill("SIGHUP");
      if (!(await servesSerial(port, zone, serial, Date.now() + 15_000))) throw new Error(`named did not reload ${zone}:\n${readOr(path.join(dir, "named.log"))}`);
    },
    async stop() {
      process.removeListener("exit", killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Authoritative only, loopback only, everything in the temporary folder. */
function config(dir: string, port: number, zones: readonly string[]): string {
  const q = (s: string) => JSON.stringify(s);
  return `${serverOptions(dir, port)}
logging { channel general { file ${q(path.join(dir, "named.log"))}; severity info; }; category default { general; }; };
${zones.map((z) => `zone ${q(z)} { type primary; file ${q(path.join(dir, `${z}.zone`))}; };`).join("\n")}
`;
}

async function servesSerial(port: number, zone: string, serial: number, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    // A fresh resolver each time: c-ares caches answers per channel.
    const resolver = new Resolver({ timeout: 200, tries: 1 });
    resolver.setServers([`127.0.0.1:${port}`]);
    try {
      if ((await resolver.resolveSoa(zone)).serial === serial) return true;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

function readOr(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
