/**
 * Finding the servers that hold a name's records: its zone (the nearest
 * name up the tree with an SOA record) and that zone's NS servers, by
 * address. The propagation check asks them, not a caching resolver, so
 * "visible" means published, not "cached somewhere".
 */
import { normaliseName } from "../../rules/names.js";
import { DNS_PORT } from "../server-address.js";
import { DnsLookupError } from "./errors.js";
import type { DnsLookup } from "./resolver.js";

/** One server to ask: its name (for messages) and its `address:port` (for `node:dns`). */
export interface DnsServer {
  /** `ns1.example.com (192.0.2.53)`, or the address the user gave. */
  readonly label: string;
  readonly endpoint: string;
}

/** No SOA record on the way up: the name is in no zone the DNS knows. */
export class ZoneNotFoundError extends Error {
  override readonly name = "ZoneNotFoundError";
  constructor(
    readonly fqdn: string,
    readonly asked: readonly string[],
    readonly where: string,
  ) {
    super(`no DNS zone holds ${fqdn}: none of ${asked.join(", ")} has an SOA record (asked ${where}); check that the domain is registered and delegated`);
  }
}

/** The zone has no NS server this machine can find the address of. */
export class NoAuthoritativeServerError extends Error {
  override readonly name = "NoAuthoritativeServerError";
  constructor(
    readonly zone: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`the authoritative servers of ${zone} could not be found: ${detail}`, options);
  }
}

/**
 * The zone holding `fqdn`: the first of `fqdn`, its parent, ... that has an
 * SOA record. `startAtParent` for a name that holds a CNAME (a CNAME cannot
 * sit at a zone apex, and asking its SOA would follow the alias).
 *
 * @example
 * await findZone(lookup, "_dnsauth.www.example.com") // "example.com"
 */
export async function findZone(lookup: DnsLookup, fqdn: string, options: { startAtParent?: boolean } = {}): Promise<string> {
  const labels = normaliseName(fqdn).split(".");
  const asked: string[] = [];
  for (let i = options.startAtParent ? 1 : 0; i < labels.length; i++) {
    const candidate = labels.slice(i).join(".");
    asked.push(candidate);
    if ((await lookup.soa(candidate)).status === "ok") return candidate;
  }
  throw new ZoneNotFoundError(fqdn, asked, lookup.where);
}

/**
 * The zone's NS servers with an address each: IPv4 where the server has
 * one (many machines that run Pulumi reach no IPv6), else IPv6. Servers
 * whose address cannot be found are left out; none found is an error.
 * `port` is 53 but for tests, whose servers listen elsewhere.
 *
 * @example
 * await authoritativeServers(lookup, "example.com") // [{ label: "ns1.example.com (192.0.2.53)", endpoint: "192.0.2.53:53" }, ...]
 */
export async function authoritativeServers(lookup: DnsLookup, zone: string, port: number = DNS_PORT): Promise<DnsServer[]> {
  const ns = await lookup.ns(zone);
  if (ns.records.length === 0) throw new NoAuthoritativeServerError(zone, `it has no NS records (asked ${lookup.where})`);
  const servers: DnsServer[] = [];
  const unresolved: string[] = [];
  // When no server's address could be asked at all, that is no answer, not an answer of "no servers".
  let unanswered: DnsLookupError | undefined;
  let answeredNone = true;
  for (const name of [...new Set(ns.records)].sort()) {
    let addresses: readonly string[] = [];
    try {
      addresses = (await lookup.ipv4(name)).records;
      if (addresses.length === 0) addresses = (await lookup.ipv6(name)).records;
    } catch (error) {
      if (!(error instanceof DnsLookupError)) answeredNone = false;
      unanswered ??= error instanceof DnsLookupError ? error : undefined;
      unresolved.push(`${name}: ${(error as Error).message}`);
      continue;
    }
    answeredNone = false;
    if (addresses.length === 0) unresolved.push(`${name}: no address`);
    for (const address of addresses) {
      servers.push({ label: `${name} (${address})`, endpoint: address.includes(":") ? `[${address}]:${port}` : `${address}:${port}` });
    }
  }
  if (servers.length === 0 && answeredNone && unanswered) throw unanswered;
  if (servers.length === 0) throw new NoAuthoritativeServerError(zone, unresolved.join("; "));
  return servers;
}
