/**
 * DNS server addresses as the user writes them (`192.0.2.53`, `192.0.2.53:5353`,
 * `::1`, `[2001:db8::53]:53`, `ns1.example.com:53`): the one reading of
 * `host:port` for the Rfc2136Record's `server`, the `dnsResolvers` setting and
 * the Certificate's `propagationResolvers`.
 */
import { isIP } from "node:net";

/** A DNS server: a lower-case name or an IP address (IPv6 without brackets), and a port. */
export interface ServerAddress {
  host: string;
  port: number;
}

/** The port a server listens on when none is written. */
export const DNS_PORT = 53;

const HOST_NAME = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/;

/**
 * Reads `host:port`, `[v6]:port`, a bare IPv6 address or a host alone (port
 * 53); the problem in words when it is none of those. A text that is a whole
 * IPv6 address is that address: `::1:53` is never read as `::1` port 53.
 *
 * @example
 * parseServer("127.0.0.1:5353")  // { host: "127.0.0.1", port: 5353 }
 * parseServer("::1")             // { host: "::1", port: 53 }
 * parseServer("[::1]:5353")      // { host: "::1", port: 5353 }
 * parseServer("NS1.example.com") // { host: "ns1.example.com", port: 53 }
 */
export function parseServer(text: string): ServerAddress | { error: string } {
  const s = text.trim().toLowerCase();
  if (s === "") return { error: "is empty" };
  if (isIP(s) === 6) return { host: s, port: DNS_PORT };
  let host: string;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(s);
  if (bracketed) {
    [, host = "", portText] = bracketed;
    if (isIP(host) !== 6) return { error: `has ${JSON.stringify(host)} in brackets, not an IPv6 address` };
  } else {
    const parts = s.split(":");
    if (parts.length > 2) return { error: "is neither an IPv6 address nor host:port (write an IPv6 address with a port as [2001:db8::53]:53)" };
    [host = "", portText] = parts;
    if (isIP(host) === 0 && !HOST_NAME.test(host)) return { error: `has the host ${JSON.stringify(host)}, not a host name or IP address` };
  }
  if (portText === undefined) return { host, port: DNS_PORT };
  if (!/^\d+$/.test(portText)) return { error: `has the port ${JSON.stringify(portText)}, not a number` };
  const port = Number(portText);
  if (port < 1 || port > 65535) return { error: `has the port ${portText}, outside 1–65535` };
  return { host, port };
}

/** `host:port` again, brackets around IPv6. */
export function formatServer(server: ServerAddress): string {
  return server.host.includes(":") ? `[${server.host}]:${server.port}` : `${server.host}:${server.port}`;
}

/** What reading a resolver list gave: the canonical `address:port`s, or the first problem. */
export type DnsServersParse = { servers: string[]; reason?: undefined } | { reason: string; servers?: undefined };

const EXAMPLES = "e.g. 192.0.2.53, 192.0.2.53:5353 or [2001:db8::53]:53";

/**
 * A list of resolvers: an array of strings (an input) or one comma- or
 * space-separated string (a stack setting or environment variable). Each is
 * an IP address: a resolver is reached by address (a host name would need a
 * resolver of its own). Empty is refused: a list that names no server cannot
 * be asked anything.
 *
 * @example
 * parseDnsServers("127.0.0.1:5353, 10.0.0.53") // { servers: ["127.0.0.1:5353", "10.0.0.53:53"] }
 * parseDnsServers(["::1"])                     // { servers: ["[::1]:53"] }
 */
export function parseDnsServers(value: unknown): DnsServersParse {
  const items = typeof value === "string" ? value.split(/[,\s]+/) : Array.isArray(value) ? value : undefined;
  if (items === undefined || items.some((item) => typeof item !== "string")) {
    return { reason: `must be a list of DNS server addresses (${EXAMPLES}), got ${JSON.stringify(value)}` };
  }
  const given = (items as string[]).map((item) => item.trim()).filter((item) => item !== "");
  if (given.length === 0) return { reason: `must name at least one DNS server (${EXAMPLES})` };
  const servers: string[] = [];
  for (const item of given) {
    const parsed = parseServer(item);
    if ("error" in parsed) return { reason: `${JSON.stringify(item)} ${parsed.error} (${EXAMPLES})` };
    if (isIP(parsed.host) === 0) return { reason: `${JSON.stringify(item)} is not an IP address with an optional port (${EXAMPLES})` };
    const server = formatServer(parsed);
    if (!servers.includes(server)) servers.push(server);
  }
  return { servers };
}
