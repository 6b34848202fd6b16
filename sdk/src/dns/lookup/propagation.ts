/**
 * Waiting until validation records are visible: every record on every
 * server that holds it (the authoritative servers of its zone, or servers
 * the user names), polled with a backoff until a deadline. What the CA
 * will look up, checked before the Certificate starts waiting for it.
 */
import { normaliseName } from "../../rules/names.js";
import { describeDnsCode, DnsLookupError } from "./errors.js";
import type { DnsLookup } from "./resolver.js";
import { authoritativeServers, findZone, ZoneNotFoundError, type DnsServer } from "./zone.js";

/** A record the CA will look up: a TXT value at `fqdn`, or `fqdn` as a CNAME to `value`. */
export interface ExpectedRecord {
  readonly fqdn: string;
  readonly type: "TXT" | "CNAME";
  readonly value: string;
}

/** A time source the poll can wait on (tests pass a virtual one). */
export interface PollClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** What {@link waitForPropagation} needs. */
export interface PropagationOptions {
  readonly records: readonly ExpectedRecord[];
  /** Servers the user named (`address:port`): asked instead of each zone's authoritative servers. */
  readonly resolvers?: readonly string[];
  /**
   * Lookups: with no servers, the resolver that finds zones and their
   * servers (the provider's `dnsResolvers`, else the system's); with one
   * server, a lookup that asks only it.
   */
  readonly lookupFor: (servers?: readonly string[]) => DnsLookup;
  /** The port authoritative servers are asked on (53; tests run theirs elsewhere). */
  readonly authoritativePort?: number;
  readonly clock: PollClock;
  readonly timeoutMs: number;
  /** What the timeout is called in messages (default `propagationTimeoutMinutes`). */
  readonly timeoutName?: string;
  /** Progress lines, one per round that still lacks a record. */
  readonly log: (line: string) => void;
}

/** How the wait ended when it did not time out. */
export interface PropagationReport {
  /** Record × server pairs seen holding the record. */
  readonly visible: number;
  /** Servers that never answered while every other server showed every record (unreachable from here); a warning, not a failure. */
  readonly unreachable: readonly string[];
  /** Set when no server could be asked at all: nothing was checked (a warning). */
  readonly unverified?: string;
}

/** One record that was not visible everywhere, and where it lacked. */
export interface MissingRecord {
  readonly record: ExpectedRecord;
  /** Per server: `127.0.0.1:5353: the name does not exist (NXDOMAIN)`; or why no server could be found. */
  readonly lacking: readonly string[];
}

/** The deadline passed with records not visible everywhere. The message names each record and the servers that lack it. */
export class PropagationTimeoutError extends Error {
  override readonly name = "PropagationTimeoutError";
  constructor(
    readonly missing: readonly MissingRecord[],
    readonly timeoutMs: number,
    timeoutName: string,
  ) {
    const minutes = Math.round((timeoutMs / 60_000) * 100) / 100;
    super(
      `${missing.length} validation record(s) not visible on every DNS server after ${minutes} min (${timeoutName}):\n` +
        missing.map((m) => `  - ${describeRecord(m.record)}: ${m.lacking.join("; ")}`).join("\n"),
    );
  }
}

/**
 * A record as messages name it.
 *
 * @example
 * describeRecord({ fqdn: "_dnsauth.example.com", type: "TXT", value: "0123" }) // 'TXT _dnsauth.example.com "0123"'
 * describeRecord({ fqdn: "_x.example.com", type: "CNAME", value: "y.dcv.example.net" }) // "CNAME _x.example.com -> y.dcv.example.net"
 */
export function describeRecord(r: ExpectedRecord): string {
  return r.type === "CNAME" ? `CNAME ${r.fqdn} -> ${r.value}` : `TXT ${r.fqdn} ${JSON.stringify(r.value)}`;
}

/** A server whose every attempt failed this many rounds running counts as unreachable from here, not as lacking the record. */
const UNREACHABLE_AFTER_ROUNDS = 3;
const FIRST_WAIT_MS = 2_000;
const LONGEST_WAIT_MS = 30_000;
/** CNAME chains longer than this are a loop or a misconfiguration; resolvers give up too. */
const MAX_CHAIN = 8;

/** One record on one server. */
interface Check {
  readonly record: ExpectedRecord;
  /** What is asked: the record's name, or where its CNAME chain ends (a delegated TXT record). */
  readonly queryName: string;
  readonly via?: string;
  readonly server: DnsServer;
  visible: boolean;
  answered: boolean;
  failuresInARow: number;
  problem?: string;
}

/**
 * Polls until every record is visible on every server, with a backoff (2 s,
 * 4 s, ... at most 30 s) and a deadline. A TXT record whose name is a CNAME
 * (a delegated validation name) is looked for where the chain ends, at that
 * zone's servers. Throws {@link PropagationTimeoutError} at the deadline.
 *
 * Servers that never answer (a firewall between this machine and a name
 * server is common) do not hold the wait once every other server shows
 * every record; nor does a network where no server answers at all — then
 * nothing could be checked, and the report says so, for a warning.
 *
 * @example
 * await waitForPropagation({ records: [{ fqdn: "_dnsauth.example.com", type: "TXT", value: "0123" }], lookupFor: (s) => createDnsLookup({ servers: s }), clock, timeoutMs: 600_000, log: console.log });
 */
export async function waitForPropagation(options: PropagationOptions): Promise<PropagationReport> {
  const { clock } = options;
  const deadline = clock.now() + options.timeoutMs;
  const checks = new Map<ExpectedRecord, Check[]>();
  /** Records whose servers could not be found yet: why, and whether a server said so (no zone) or none answered. */
  const unplaced = new Map<ExpectedRecord, { why: string; answered: boolean }>();
  for (let round = 0; ; round++) {
    for (const record of options.records) {
      if (checks.has(record)) continue;
      try {
        checks.set(record, await placeRecord(options, record));
        unplaced.delete(record);
      } catch (error) {
        unplaced.set(record, { why: (error as Error).message, answered: !(error instanceof DnsLookupError) });
      }
    }
    const all = [...checks.values()].flat();
    await Promise.all(all.filter((c) => !c.visible).map((c) => ask(options, c)));
    const waiting = all.filter((c) => !c.visible);
    const answered = all.some((c) => c.answered);
    if (unplaced.size === 0 && waiting.every((c) => !c.answered && c.failuresInARow >= UNREACHABLE_AFTER_ROUNDS) && (answered || waiting.length === 0)) {
      return { visible: all.length - waiting.length, unreachable: [...new Set(waiting.map((c) => c.server.label))] };
    }
    if (!answered && round + 1 >= UNREACHABLE_AFTER_ROUNDS && [...unplaced.values()].every((u) => !u.answered)) {
      const why = [...[...unplaced.values()].map((u) => u.why), ...waiting.map((c) => `${c.server.label}: ${c.problem}`)];
      return { visible: 0, unreachable: [], unverified: [...new Set(why)].slice(0, 3).join("; ") };
    }
    const now = clock.now();
    if (now >= deadline) throw new PropagationTimeoutError(missingRecords(options.records, checks, unplaced), options.timeoutMs, options.timeoutName ?? "propagationTimeoutMinutes");
    const wait = Math.min(FIRST_WAIT_MS * 2 ** round, LONGEST_WAIT_MS, deadline - now);
    options.log(progressLine(options.records, checks, unplaced, wait));
    await clock.sleep(wait);
  }
}

/** The checks of one record: the named resolvers, or the authoritative servers of the zone its name (or CNAME chain) ends in. */
async function placeRecord(options: PropagationOptions, record: ExpectedRecord): Promise<Check[]> {
  const fresh = (server: DnsServer, queryName: string, via?: string): Check => ({ record, queryName, via, server, visible: false, answered: false, failuresInARow: 0 });
  if (options.resolvers && options.resolvers.length > 0) {
    return options.resolvers.map((endpoint) => fresh({ label: endpoint, endpoint }, record.fqdn));
  }
  const discovery = options.lookupFor();
  let queryName = record.fqdn;
  let via: string | undefined;
  if (record.type === "TXT") {
    const chain: string[] = [];
    for (let target = await discovery.cname(queryName); target.records.length > 0 && chain.length < MAX_CHAIN; target = await discovery.cname(queryName)) {
      queryName = target.records[0]!;
      chain.push(queryName);
    }
    if (chain.length > 0) via = `CNAME to ${chain.join(" -> ")}`;
  }
  try {
    const zone = await findZone(discovery, queryName, { startAtParent: record.type === "CNAME" });
    const servers = await authoritativeServers(discovery, zone, options.authoritativePort);
    return servers.map((server) => fresh(server, queryName, via));
  } catch (error) {
    if (error instanceof ZoneNotFoundError && via) throw new ZoneNotFoundError(`${queryName} (${record.fqdn}'s ${via})`, error.asked, error.where);
    throw error;
  }
}

/** One query: is the record there? Updates the check. */
async function ask(options: PropagationOptions, check: Check): Promise<void> {
  const lookup = options.lookupFor([check.server.endpoint]);
  const { record } = check;
  try {
    const answer = record.type === "TXT" ? await lookup.txt(check.queryName) : await lookup.cname(check.queryName);
    check.answered = true;
    check.failuresInARow = 0;
    const want = record.type === "TXT" ? record.value.trim() : normaliseName(record.value);
    const have = answer.records.map((v) => (record.type === "TXT" ? v.trim() : normaliseName(v)));
    check.visible = have.includes(want);
    if (check.visible) return;
    const at = check.via ? `${check.queryName} (${check.via})` : check.queryName;
    check.problem =
      answer.status === "nxdomain"
        ? `${at} does not exist (NXDOMAIN)`
        : answer.status === "nodata"
          ? `${at} has no ${record.type} record`
          : record.type === "TXT"
            ? `${at} has ${have.length} other TXT value(s): ${have.slice(0, 3).map((v) => JSON.stringify(v)).join(", ")}`
            : `${at} points to ${have.join(", ")}`;
  } catch (error) {
    check.failuresInARow++;
    check.problem = `no answer: ${error instanceof DnsLookupError ? describeDnsCode(error.code) : (error as Error).message}`;
  }
}

type Unplaced = ReadonlyMap<ExpectedRecord, { why: string }>;

function missingRecords(records: readonly ExpectedRecord[], checks: ReadonlyMap<ExpectedRecord, Check[]>, unplaced: Unplaced): MissingRecord[] {
  return records.flatMap((record) => {
    const why = unplaced.get(record)?.why;
    if (why !== undefined) return [{ record, lacking: [why] }];
    const lacking = (checks.get(record) ?? []).filter((c) => !c.visible).map((c) => `lacking on ${c.server.label}: ${c.problem ?? "not checked"}`);
    return lacking.length > 0 ? [{ record, lacking }] : [];
  });
}

function progressLine(records: readonly ExpectedRecord[], checks: ReadonlyMap<ExpectedRecord, Check[]>, unplaced: Unplaced, waitMs: number): string {
  const missing = missingRecords(records, checks, unplaced);
  const first = missing[0];
  const example = first ? ` (${describeRecord(first.record)}: ${first.lacking[0]})` : "";
  return `waiting for DNS: ${missing.length} of ${records.length} validation record(s) not yet visible on every server${example}; next check in ${Math.round(waitMs / 1000)} s`;
}
