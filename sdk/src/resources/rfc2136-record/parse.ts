/** Parse rules of the Rfc2136Record's inputs (see `declaration.ts`); the rules relating two inputs are in `check.ts`. */
import { dnsNameProblem } from "../../dns/names.js";
import { normaliseName } from "../../rules/names.js";
import { formatServer, parseServer } from "../../dns/server-address.js";
import { DEFAULT_TSIG_ALGORITHM, isTsigAlgorithm, parseTsigSecret, TSIG_ALGORITHMS } from "../../dns/tsig.js";
import { bad, ok } from "../../schema/parse.js";
import type { Parsed } from "../../schema/property.js";
import { MAX_TTL, RECORD_TYPES } from "./inputs.js";

const WHAT = {
  server: "host:port of the zone's primary server, e.g. ns1.example.com:53 or 192.0.2.53:53",
  zone: "the apex of the zone the record goes in, e.g. example.com",
  fqdn: "the record's absolute name, e.g. a validation record's fqdn",
  type: "TXT or CNAME",
  value: "the TXT content or the CNAME target",
  tsigKeyName: "the TSIG key's name as the server's key statement names it, e.g. certreseller.",
  tsigSecret: "the key's secret in base64, as the server's key statement holds it",
} as const;

/** What to say when an input is missing: `<property> is required: <what it is>`. */
export const missing = (property: keyof typeof WHAT) => `${property} is required: ${WHAT[property]}`;

/** A non-empty string, trimmed, then `then`'s rule. */
function present(property: keyof typeof WHAT, then: (value: string) => Parsed = ok) {
  return (value: unknown): Parsed => (typeof value !== "string" || value.trim() === "" ? bad(property, missing(property)) : then(value.trim()));
}

/** A DNS name, normalised (lower case, no trailing dot) unless `keep`. */
const dnsName = (property: keyof typeof WHAT, keep = false) =>
  present(property, (value) => {
    const problem = dnsNameProblem(value);
    return problem ? bad(property, `${property} must be a DNS name; ${JSON.stringify(value)} ${problem}`) : ok(keep ? value : normaliseName(value));
  });

export const parseRecordInput = {
  server: present("server", (server) => {
    const parsed = parseServer(server);
    if ("error" in parsed) {
      return bad("server", `server must be host:port of the zone's primary server (e.g. ns1.example.com:53 or [2001:db8::53]:53); ${JSON.stringify(server)} ${parsed.error}`);
    }
    // One spelling per server (`NS1`, `ns1:53`): another spelling must not replace the record.
    return ok(formatServer(parsed)); // parseServer gives the host lower-cased
  }),
  zone: dnsName("zone"),
  fqdn: dnsName("fqdn"),
  type: present("type", (type) => {
    const upper = type.toUpperCase();
    return (RECORD_TYPES as readonly string[]).includes(upper) ? ok(upper) : bad("type", `type must be TXT or CNAME, not ${JSON.stringify(type)}`);
  }),
  /** Any non-empty string here; what it must be depends on `type` (check.ts). */
  value: (value: unknown): Parsed => (typeof value !== "string" || value === "" ? bad("value", missing("value")) : ok(value)),
  ttl: (ttl: unknown): Parsed =>
    typeof ttl === "number" && Number.isInteger(ttl) && ttl >= 0 && ttl <= MAX_TTL
      ? ok(ttl)
      : bad("ttl", `ttl must be a whole number of seconds from 0 to ${MAX_TTL}; got ${JSON.stringify(ttl)}`),
  /** Checked as a DNS name, kept as the server's key statement spells it. */
  tsigKeyName: dnsName("tsigKeyName", true),
  tsigAlgorithm: (value: unknown): Parsed => {
    if (value === "") return ok(DEFAULT_TSIG_ALGORITHM);
    const algorithm = normaliseName(String(value));
    return isTsigAlgorithm(algorithm)
      ? ok(algorithm)
      : bad(
          "tsigAlgorithm",
          `tsigAlgorithm must be one of ${Object.keys(TSIG_ALGORITHMS).join(", ")} (the algorithm of the server's key statement); got ${JSON.stringify(value)}`,
        );
  },
  // The value is a secret: no reason below may show it, not even in part. Kept as given.
  tsigSecret: (value: unknown): Parsed =>
    typeof value !== "string" || value.trim() === ""
      ? bad("tsigSecret", missing("tsigSecret"))
      : parseTsigSecret(value)
        ? ok(value)
        : bad(
            "tsigSecret",
            "tsigSecret must be the key's secret in base64 (as the server's key statement or tsig-keygen writes it); the value given is not base64 (it is not shown: it is a secret)",
          ),
} as const;
