/** A DNS server's address as the `server` setting gives it: `host:port`. */
export interface ServerAddress {
  /** A name or an IP address (IPv6 without brackets). */
  host: string;
  port: number;
}

export const DNS_PORT = 53;

/**
 * Reads `host:port`, `[v6]:port`, or a host alone (port 53); the problem in
 * words when it is none of those.
 *
 * @example
 * parseServer("127.0.0.1:5353") // { host: "127.0.0.1", port: 5353 }
 * parseServer("[::1]:53")       // { host: "::1", port: 53 }
 * parseServer("ns1.example.com") // { host: "ns1.example.com", port: 53 }
 */
export function parseServer(text: string): ServerAddress | { error: string } {
  const s = text.trim();
  if (s === "") return { error: "is empty" };
  let host: string;
  let portText: string | undefined;
  const bracketed = /^\[([0-9a-fA-F:.]+)\](?::(\d+))?$/.exec(s);
  if (bracketed) {
    host = bracketed[1]!;
    portText = bracketed[2];
  } else if ((s.match(/:/g) ?? []).length > 1) {
    return { error: "looks like a bare IPv6 address: write it in brackets, [::1]:53" };
  } else {
    const [h, p] = s.split(":");
    host = h!;
    portText = p;
    if (portText !== undefined && !/^\d+$/.test(portText)) return { error: `has the port ${JSON.stringify(portText)}, not a number` };
    if (!/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(host)) return { error: `has the host ${JSON.stringify(host)}, not a host name or IP address` };
  }
  const port = portText === undefined ? DNS_PORT : Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return { error: `has the port ${portText}, outside 1–65535` };
  return { host, port };
}

/** `host:port` again, brackets around IPv6. */
export function formatServer(server: ServerAddress): string {
  return server.host.includes(":") ? `[${server.host}]:${server.port}` : `${server.host}:${server.port}`;
}
