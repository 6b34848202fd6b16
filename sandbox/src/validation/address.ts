import { isIP } from "node:net";

export interface HostPort {
  host: string;
  port?: number;
}

/**
 * Parses `host`, `host:port`, `v6`, `[v6]` or `[v6]:port`. Returns an error
 * text naming the rule, for the caller to attach to the option's name.
 */
export function parseHostPort(text: string): HostPort | { error: string } {
  const trimmed = text.trim();
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(trimmed);
  if (bracketed) return withPort(bracketed[1]!, bracketed[2]);
  if (isIP(trimmed) === 6) return { host: trimmed };
  const [host = "", port, extra] = trimmed.split(":");
  if (extra !== undefined || host === "") return { error: `"${text}" is not host, host:port or [IPv6]:port` };
  return withPort(host, port);
}

function withPort(host: string, port: string | undefined): HostPort | { error: string } {
  if (port === undefined) return { host };
  const n = Number(port);
  if (!/^\d+$/.test(port) || n < 1 || n > 65535) return { error: `port "${port}" must be 1-65535` };
  return { host, port: n };
}
