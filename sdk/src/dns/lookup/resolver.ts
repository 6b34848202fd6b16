/**
 * DNS queries through `node:dns/promises`, behind a small interface the
 * checks take as an argument: tests pass a scripted one (no network), the
 * provider one built here.
 */
import { Resolver } from "node:dns/promises";
import type { CaaProperty } from "../../rules/caa.js";
import { normaliseName } from "../../rules/names.js";
import { DnsLookupError } from "./errors.js";

/** How a server answered: records, "the name does not exist" (NXDOMAIN), or "no record of that type" (NODATA). */
export type AnswerStatus = "ok" | "nxdomain" | "nodata";

/** An answer; `records` is empty unless `status` is `ok`. */
export interface Answer<T> {
  readonly status: AnswerStatus;
  readonly records: readonly T[];
}

/**
 * The queries the CAA and propagation checks make. Each either answers
 * ({@link Answer}) or throws {@link DnsLookupError} (timeout, SERVFAIL,
 * REFUSED, ...).
 *
 * @example
 * const lookup = createDnsLookup({ servers: ["127.0.0.1:5353"] });
 * const { status, records } = await lookup.txt("_dnsauth.example.com"); // "ok", ["0123abcd..."]
 */
export interface DnsLookup {
  /** Where the queries go, for messages: `127.0.0.1:5353`, or `the system resolver (…)`. */
  readonly where: string;
  caa(name: string): Promise<Answer<CaaProperty>>;
  /** Each TXT record's strings joined into one value (a value longer than 255 characters arrives in chunks). */
  txt(name: string): Promise<Answer<string>>;
  /** The CNAME target, lower case, without the root dot. */
  cname(name: string): Promise<Answer<string>>;
  /** Whether the name has an SOA record (is a zone apex); the record is the zone's primary server name. */
  soa(name: string): Promise<Answer<string>>;
  ns(name: string): Promise<Answer<string>>;
  ipv4(name: string): Promise<Answer<string>>;
  ipv6(name: string): Promise<Answer<string>>;
}

/** How {@link createDnsLookup} asks. */
export interface LookupOptions {
  /** `address:port` servers (see `dns/server-address.ts`); absent: the system's resolvers. */
  readonly servers?: readonly string[];
  /** Per attempt, in milliseconds (default {@link DEFAULT_LOOKUP_TIMEOUT_MS}). */
  readonly timeoutMs?: number;
  /** Attempts per server (default 2). */
  readonly tries?: number;
}

/** Short: a preview must not hang on an unreachable server; a slow answer is retried once. */
export const DEFAULT_LOOKUP_TIMEOUT_MS = 2_000;

/**
 * A {@link DnsLookup} over a `node:dns` resolver. Each call makes its own
 * resolver channel: c-ares (from 1.31) caches answers per channel, NXDOMAIN
 * included, and a propagation check that polls must see the server's
 * current answer, not the one it gave a minute ago.
 *
 * @example
 * const lookup = createDnsLookup({ servers: ["192.0.2.53:53"], timeoutMs: 1000 });
 * (await lookup.caa("example.com")).records; // [{ flags: 0, tag: "issue", value: "letsencrypt.org" }]
 */
export function createDnsLookup(options: LookupOptions = {}): DnsLookup {
  const make = () => {
    const resolver = new Resolver({ timeout: options.timeoutMs ?? DEFAULT_LOOKUP_TIMEOUT_MS, tries: options.tries ?? 2 });
    if (options.servers && options.servers.length > 0) resolver.setServers([...options.servers]);
    return resolver;
  };
  const where = options.servers && options.servers.length > 0 ? options.servers.join(", ") : `the system resolver (${make().getServers().join(", ") || "none configured"})`;
  const ask = async <T>(name: string, type: string, run: (resolver: Resolver, name: string) => Promise<T[]>): Promise<Answer<T>> => {
    try {
      const records = await run(make(), normaliseName(name));
      return records.length > 0 ? { status: "ok", records } : { status: "nodata", records: [] };
    } catch (error) {
      const code = String((error as { code?: unknown }).code ?? "EUNKNOWN");
      if (code === "ENOTFOUND") return { status: "nxdomain", records: [] };
      if (code === "ENODATA") return { status: "nodata", records: [] };
      throw new DnsLookupError(code, `${normaliseName(name)} ${type}`, where, { cause: error });
    }
  };
  return {
    where,
    caa: (name) => ask(name, "CAA", async (r, n) => (await r.resolveCaa(n)).flatMap(caaProperties)),
    txt: (name) => ask(name, "TXT", async (r, n) => (await r.resolveTxt(n)).map((chunks) => chunks.join(""))),
    cname: (name) => ask(name, "CNAME", async (r, n) => (await r.resolveCname(n)).map(normaliseName)),
    soa: (name) => ask(name, "SOA", async (r, n) => [normaliseName((await r.resolveSoa(n)).nsname)]),
    ns: (name) => ask(name, "NS", async (r, n) => (await r.resolveNs(n)).map(normaliseName)),
    ipv4: (name) => ask(name, "A", (r, n) => r.resolve4(n)),
    ipv6: (name) => ask(name, "AAAA", (r, n) => r.resolve6(n)),
  };
}

/**
 * `node:dns` gives a CAA record as `{ critical, <tag>: value }` — the flags
 * byte and one member named by the tag — and Node 24 adds `type: "CAA"`.
 */
function caaProperties(record: object): CaaProperty[] {
  const { critical, ...rest } = record as { critical?: number } & Record<string, unknown>;
  const members = Object.entries(rest).filter(([, value]) => typeof value === "string");
  const tagged = members.length > 1 ? members.filter(([key, value]) => !(key === "type" && value === "CAA")) : members;
  return tagged.map(([tag, value]) => ({ flags: Number(critical ?? 0), tag: tag.toLowerCase(), value: value as string }));
}
