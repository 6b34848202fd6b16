/**
 * The `Rfc2136Record` resource as one declaration: its token, description
 * and every property, for the package schema, the plugin and the reference
 * page, and the generated `properties.generated.ts` (its arguments, checked
 * inputs and outputs). The class's outputs are held to it by the compiler (below).
 *
 * Each input's parse rule (`parse.ts`), default and change effect are
 * applied by the shared check and diff: `server`, `zone`, `fqdn` and `type`
 * replace; `value` and `ttl` update in place with one UPDATE; the key
 * settings update in place and send nothing.
 */
import type * as pulumi from "@pulumi/pulumi";
import { DEFAULT_TSIG_ALGORITHM, TSIG_ALGORITHMS } from "../../dns/tsig.js";
import * as t from "../../schema/property.js";
import { DEFAULT_TTL, MAX_TTL } from "./inputs.js";
import { missing, parseRecordInput as parse } from "./parse.js";
import type { Rfc2136Record } from "./resource.js";

const KEY_CHANGE = { change: "update", changeNote: "nothing is sent; the next update and the delete sign with it" } as const;

export const RFC2136_RECORD_PROPERTIES = {
  server: {
    description:
      "The zone's primary server, `host:port` (`[v6]:port` for IPv6; port 53 when left out), where the UPDATE goes over UDP (TCP when the answer is truncated).",
    type: t.string,
    required: true,
    change: "replace",
    missing: missing("server"),
    parse: parse.server,
    changeNote: "the record is added at the new server, then deleted at the old",
  },
  zone: {
    description: "The zone the record goes in, by its apex (`example.com`), as the server's zone statement names it; `fqdn` must be within it.",
    type: t.string,
    required: true,
    change: "replace",
    missing: missing("zone"),
    parse: parse.zone,
  },
  fqdn: {
    description: "The record's absolute name, e.g. a validation record's `fqdn` (`_dnsauth.www.example.com`). Stored lower case, without the trailing dot.",
    type: t.string,
    required: true,
    change: "replace",
    missing: missing("fqdn"),
    parse: parse.fqdn,
  },
  type: {
    description: "`TXT` or `CNAME`: a validation record's `type` (`recordType`).",
    type: t.string,
    typeNote: `string: ${t.codes(["TXT", "CNAME"])}`,
    required: true,
    change: "replace",
    missing: missing("type"),
    parse: parse.type,
  },
  value: {
    description:
      "The TXT content (any length: sent as 255-byte strings) or the CNAME target. A TXT value joins any other values at the name; delete removes only this one.",
    type: t.string,
    required: true,
    change: "update",
    missing: missing("value"),
    parse: parse.value,
    changeNote: "one UPDATE deletes the old value's RR and adds the new one",
  },
  ttl: {
    alwaysSet: true,
    description: `The record's TTL in seconds (0 to ${MAX_TTL}).`,
    type: t.integer,
    defaultNote: String(DEFAULT_TTL),
    change: "update",
    parse: parse.ttl,
    fallback: () => DEFAULT_TTL,
    changeNote:
      "one UPDATE deletes the RR and adds it with the new TTL. A TXT RRset has one TTL for all its values (RFC 2181 5.2): while it also holds values this resource " +
      "did not add, at another TTL, the change is refused naming `ttl` and nothing is changed, since theirs would change too",
  },
  tsigKeyName: {
    description: "The TSIG key's name, as the server's `key` statement names it (e.g. `certreseller.`); the server's update policy must grant it TXT/CNAME updates here.",
    type: t.string,
    required: true,
    missing: missing("tsigKeyName"),
    parse: parse.tsigKeyName,
    ...KEY_CHANGE,
  },
  tsigAlgorithm: {
    alwaysSet: true,
    description: `The key's HMAC algorithm, as the server's \`key\` statement gives it: ${Object.keys(TSIG_ALGORITHMS).map((a) => `\`${a}\``).join(", ")}.`,
    type: t.string,
    typeNote: `string: ${t.codes(Object.keys(TSIG_ALGORITHMS))}`,
    defaultNote: `\`${DEFAULT_TSIG_ALGORITHM}\``,
    parse: parse.tsigAlgorithm,
    fallback: () => DEFAULT_TSIG_ALGORITHM,
    ...KEY_CHANGE,
  },
  tsigSecret: {
    description:
      "The key's secret in base64, as the server's `key` statement (or `tsig-keygen`) has it. Pass it as a secret (`config.requireSecret`); the resource stores it " +
      "encrypted either way (delete needs it), and never logs it or puts it in an error.",
    type: t.string,
    required: true,
    secret: true,
    missing: missing("tsigSecret"),
    parse: parse.tsigSecret,
    ...KEY_CHANGE,
  },
  preExisting: t.output(
    "Whether the server already held this very record (same name, type and value) when the resource was created or its value last changed: the resource then " +
      "added nothing, and its delete leaves the record in place. `false` when the resource added it (its delete removes it).",
    t.boolean,
    { required: true },
  ),
} as const satisfies t.PropertyTable;

export const RFC2136_RECORD = t.resource("Rfc2136Record", {
  description:
    "Publishes a DNS validation record (TXT or CNAME) into a zone with an RFC 2136 dynamic UPDATE signed with TSIG (RFC 8945): BIND, Knot, PowerDNS, " +
    "Windows DNS, Infoblox... Each UPDATE carries RFC 2136 prerequisites, so the resource never claims a record it did not add: a record already there is " +
    "kept as `preExisting` (and left in place by delete), and a CNAME beside other records, or a TXT record at a CNAME, is refused naming what is there " +
    "(in a signed zone the DNSSEC records at a name, RRSIG and NSEC, are not in the way). A new `ttl` for a TXT value that shares its name with values the " +
    "resource did not add is refused while those have another TTL: the server keeps one TTL per RRset, so theirs would change too. " +
    "A new value replaces the old one in place, in one UPDATE; delete removes only this record's value. The server's refusals " +
    "(REFUSED, NOTAUTH, BADSIG, BADKEY, BADTIME) fail with a message naming the setting to fix.",
  properties: RFC2136_RECORD_PROPERTIES,
  replacement: "publishes the record anew and deletes the old one",
  example: `
const cfg = new pulumi.Config();
const args: Rfc2136RecordArgs = {
  server: "ns1.example.com:53",
  zone: "example.com",
  fqdn: r.fqdn, type: r.type, value: r.value,
  tsigKeyName: "certreseller.",
  tsigSecret: cfg.requireSecret("tsigSecret"),
};`,
});

// The class's outputs are the declared outputs.
const outputsMatch: t.Same<Exclude<t.MembersOfType<Rfc2136Record, pulumi.Output<unknown>>, "id" | "urn">, t.OutputNames<typeof RFC2136_RECORD_PROPERTIES>> = true;
void outputsMatch;
