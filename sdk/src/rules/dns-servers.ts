/**
 * DNS server addresses as the user writes them (`192.0.2.53`,
 * `192.0.2.53:5353`, `[2001:db8::53]:53`) and as `node:dns` takes them.
 * The provider setting `certreseller:dnsResolvers` and the Certificate's
 * `propagationResolvers` share this one rule.
 */
import { isIP } from "node:net";

/** The port a server listens on when none is written. */
export const DNS_PORT = 53;

/** What reading one address gave: the canonical `address:port`, or what is wrong with it. */
export type DnsServerParse = { server: string; reason?: undefined } | { reason: string; server?: undefined };

const EXAMPLES = "e.g. 192.0.2.53, 192.0.2.53:5353 or [2001:db8::53]:53";

/**
 * One server address: an IP address (a resolver is reached by address; a
 * host name would need a resolver of its own), with an optional port.
 *
 * @example
 * parseDnsServer("127.0.0.1:5353") // { server: "127.0.0.1:5353" }
 * parseDnsServer("::1")            // { server: "[::1]:53" }
 * parseDnsServer("ns1.example.com") // { reason: "\"ns1.example.com\" is not an IP address ..." }
 */
export function parseDnsServer(raw: string): DnsServerParse {
  const text = raw.trim();
  let host = text;
  let port = String(DNS_PORT);
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) {
    host = bracketed[1]!;
    port = bracketed[2] ?? port;
  } else if (isIP(text) === 0 && /^[^:]+:\d+$/.test(text)) {
    // One colon: host:port. Several colons without brackets: a bare IPv6 address.
    [host, port] = text.split(":") as [string, string];
  }
  const family = isIP(host);
  if (family === 0) return { reason: `${JSON.stringify(raw)} is not an IP address with an optional port (${EXAMPLES})` };
  const number = Number(port);
  if (!Number.isInteger(number) || number < 1 || number > 65535) return { reason: `${JSON.stringify(raw)} has port ${port}; a port is 1 to 65535` };
  return { server: family === 6 ? `[${host.toLowerCase()}]:${number}` : `${host}:${number}` };
}

/** What reading a list gave: the canonical addresses, or the first problem. */
export type DnsServersParse = { servers: string[]; reason?: undefined } | { reason: string; servers?: undefined };

/**
 * A list of servers: an array of strings (an input) or one comma- or
 * space-separated string (a stack setting or environment variable). Empty
 * is refused: a list that names no server cannot be asked anything.
 *
 * @example
 * parseDnsServers("127.0.0.1:5353, 10.0.0.53") // { servers: ["127.0.0.1:5353", "10.0.0.53:53"] }
 * parseDnsServers(["[::1]:5353"])              // { servers: ["[::1]:5353"] }
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
    const parsed = parseDnsServer(item);
    if (parsed.reason !== undefined) return { reason: parsed.reason };
    if (!servers.includes(parsed.server)) servers.push(parsed.server);
  }
  return { servers };
}
