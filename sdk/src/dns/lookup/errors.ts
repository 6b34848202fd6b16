/**
 * A DNS query that got no usable answer: the server timed out, refused, or
 * answered SERVFAIL. "The name does not exist" (NXDOMAIN) and "no record of
 * that type" (NODATA) are answers, not errors: lookups return them.
 *
 * @example
 * try { await lookup.caa("example.com"); } catch (e) { if (e instanceof DnsLookupError) console.log(e.code, e.server); }
 */
export class DnsLookupError extends Error {
  override readonly name = "DnsLookupError";
  constructor(
    /** `ETIMEOUT`, `ESERVFAIL`, `EREFUSED`, `ECONNREFUSED`, ... as `node:dns` reports it. */
    readonly code: string,
    /** The name and type asked, e.g. `example.com CAA`. */
    readonly query: string,
    /** Where it was asked: `127.0.0.1:5353`, or `the system resolver`. */
    readonly server: string,
    options?: { cause?: unknown },
  ) {
    super(`${query} from ${server}: ${describeDnsCode(code)}`, options);
  }
}

const MEANINGS: Readonly<Record<string, string>> = {
  ETIMEOUT: "no answer in time (ETIMEOUT)",
  ESERVFAIL: "the server answered SERVFAIL",
  EREFUSED: "the server refused the query (REFUSED; it may not serve that zone, or allow recursion)",
  ECONNREFUSED: "connection refused (nothing listens there)",
  ENOTFOUND: "the name does not exist (NXDOMAIN)",
  ENODATA: "the name has no record of that type (NODATA)",
  EFORMERR: "the server could not read the query (FORMERR)",
  EBADRESP: "the answer could not be read",
};

/** Words for a `node:dns` error code. @example describeDnsCode("ESERVFAIL") === "the server answered SERVFAIL" */
export function describeDnsCode(code: string): string {
  return MEANINGS[code] ?? code;
}
