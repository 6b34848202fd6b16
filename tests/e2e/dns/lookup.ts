/**
 * Reading a name back from a BIND of the DNS scenarios, for their
 * "written", "deleted" and "never written" checks. Only BIND's own "no such
 * record" reads as empty: NXDOMAIN (ENOTFOUND in Node's dns) and an existing
 * name without records of the type (ENODATA). A timeout, SERVFAIL, REFUSED or
 * a BIND that is gone throws, so a check that expects nothing cannot pass
 * without BIND answering.
 */
import { Resolver } from "node:dns/promises";

/** The error codes of Node's dns that mean "the server answered: no such record". */
const ABSENT = new Set(["ENOTFOUND", "ENODATA"]);

export interface DnsReader {
  /** The TXT values at `name` (each value's strings joined), in the server's order; [] only for NXDOMAIN or no TXT there. */
  txt(name: string): Promise<string[]>;
  /** The CNAME target at `name`; [] only for NXDOMAIN or no CNAME there. */
  cname(name: string): Promise<string[]>;
}

/**
 * `lookup`'s records, or [] when the server answered that there are none;
 * any other failure is rethrown naming the name, the type and the server.
 *
 * @example
 * await recordsOrNone(() => resolver.resolveTxt("_dnsauth.www.e2e.test"), "TXT _dnsauth.www.e2e.test", "127.0.0.1:5353")
 */
export async function recordsOrNone<T>(lookup: () => Promise<T[]>, what: string, server: string): Promise<T[]> {
  try {
    return await lookup();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== undefined && ABSENT.has(code)) return [];
    throw new Error(`reading ${what} from ${server} failed (${code ?? "no code"}): the server did not answer whether it holds the record`, { cause: error });
  }
}

/** A reader asking only `server` (`host:port`), one try of 2 s per question. */
export function dnsReader(server: string): DnsReader {
  const resolver = new Resolver({ timeout: 2_000, tries: 1 });
  resolver.setServers([server]);
  return {
    txt: async (name) => (await recordsOrNone(() => resolver.resolveTxt(name), `TXT ${name}`, server)).map((chunks) => chunks.join("")),
    cname: (name) => recordsOrNone(() => resolver.resolveCname(name), `CNAME ${name}`, server),
  };
}
