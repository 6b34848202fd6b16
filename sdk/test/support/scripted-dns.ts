/**
 * DNS without a network, for the CAA and propagation checks' unit tests:
 * each server a table of names and their records, mutable while a check
 * runs (records "propagate" when a test writes them), and a virtual clock.
 */
import { DnsLookupError, type Answer, type DnsLookup } from "../../src/dns/lookup/index.js";
import type { CaaProperty } from "../../src/rules/caa.js";
import type { DnsDeps } from "../../src/resources/shared/dns-checks.js";

/** One name's records; `fail` makes every query of the name fail with that code (`ESERVFAIL`, `ETIMEOUT`). */
export interface NameRecords {
  CAA?: CaaProperty[];
  TXT?: string[];
  CNAME?: string;
  SOA?: boolean;
  NS?: string[];
  A?: string[];
  AAAA?: string[];
  fail?: string;
}

/** A server's names; `"down"`: it never answers (ETIMEOUT). */
export type ServerTable = Record<string, NameRecords> | "down";

/** The resolver the provider uses by default is the server named `default`. */
export const DEFAULT_SERVER = "default";

export interface ScriptedDns extends DnsDeps {
  /** Tables by server (`127.0.0.1:53`, or {@link DEFAULT_SERVER}); edit them to change what servers answer. */
  servers: Record<string, ServerTable>;
  /** Every query asked, as `server name TYPE`. */
  queries: string[];
}

/**
 * @example
 * const dns = scriptedDns({ default: { "example.com": { CAA: [{ flags: 0, tag: "issue", value: "letsencrypt.org" }] } } });
 * await relevantCaaSet(dns.lookupFor(), "www.example.com");
 */
export function scriptedDns(servers: Record<string, ServerTable>, authoritativePort = 53): ScriptedDns {
  const queries: string[] = [];
  const lookupFor = (list?: readonly string[]): DnsLookup => {
    const server = list && list.length > 0 ? list[0]! : DEFAULT_SERVER;
    const ask = async <T>(name: string, type: keyof NameRecords, pick: (r: NameRecords) => T[] | undefined): Promise<Answer<T>> => {
      const key = name.toLowerCase().replace(/\.$/, "");
      queries.push(`${server} ${key} ${type}`);
      const table = servers[server];
      if (table === undefined || table === "down") throw new DnsLookupError("ETIMEOUT", `${key} ${type}`, server);
      const entry = table[key];
      if (entry?.fail) throw new DnsLookupError(entry.fail, `${key} ${type}`, server);
      if (!entry) return { status: "nxdomain", records: [] };
      const records = pick(entry) ?? [];
      return records.length > 0 ? { status: "ok", records } : { status: "nodata", records: [] };
    };
    return {
      where: server,
      caa: (n) => ask(n, "CAA", (r) => r.CAA),
      txt: (n) => ask(n, "TXT", (r) => r.TXT),
      cname: (n) => ask(n, "CNAME", (r) => (r.CNAME ? [r.CNAME] : undefined)),
      soa: (n) => ask(n, "SOA", (r) => (r.SOA ? [`ns.${n}`] : undefined)),
      ns: (n) => ask(n, "NS", (r) => r.NS),
      ipv4: (n) => ask(n, "A", (r) => r.A),
      ipv6: (n) => ask(n, "AAAA", (r) => r.AAAA),
    };
  };
  return { servers, queries, lookupFor, authoritativePort };
}

/** A clock that advances only when slept on; `onSleep` runs at each sleep (to make records appear). */
export function virtualClock(start = Date.parse("2026-07-01T00:00:00Z"), onSleep?: (now: number) => void | Promise<void>) {
  const clock = {
    t: start,
    slept: [] as number[],
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.slept.push(ms);
      clock.t += ms;
      await onSleep?.(clock.t);
    },
  };
  return clock;
}

/** `issue` / `issuewild` / other properties, briefly. */
export const caa = (tag: string, value: string, flags = 0): CaaProperty => ({ flags, tag, value });
