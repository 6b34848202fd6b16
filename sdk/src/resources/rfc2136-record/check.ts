import type * as pulumi from "@pulumi/pulumi";
import { dnsNameProblem, isWithinZone } from "../../dns/names.js";
import { formatServer, parseServer } from "../../dns/server-address.js";
import { DEFAULT_TSIG_ALGORITHM, isTsigAlgorithm, parseTsigSecret, TSIG_ALGORITHMS } from "../../dns/tsig.js";
import { normaliseName } from "../../rules/names.js";
import type { ProviderContext } from "../../provider/context.js";
import { isUnknown } from "../../provider/unknown.js";
import { DEFAULT_TTL, MAX_TTL, MAX_TXT_BYTES, RECORD_TYPES, type Rfc2136RecordInputs, type Rfc2136RecordState } from "./inputs.js";

/** Normalises and checks the inputs ({@link checkRecordInputs}); sends nothing. */
export async function check(_ctx: ProviderContext, _olds: Rfc2136RecordInputs, news: Rfc2136RecordInputs): Promise<pulumi.dynamic.CheckResult<Rfc2136RecordState>> {
  const { inputs, failures } = checkRecordInputs(news);
  return { inputs: inputs as Rfc2136RecordState, failures };
}

type Failure = { property: string; reason: string };

/**
 * Normalises the inputs (names lower case without the trailing dot, `type`
 * upper case, `ttl` and `tsigAlgorithm` defaulted) and checks each, naming
 * the property and the rule. Unknown values (a first preview) pass. The
 * secret's value never appears in a reason.
 *
 * @example
 * checkRecordInputs({ server: "ns1:53", zone: "example.com", fqdn: "_dnsauth.example.org", ... }).failures
 * // [{ property: "fqdn", reason: 'fqdn "_dnsauth.example.org" is not within zone "example.com": ...' }]
 */
export function checkRecordInputs(news: Partial<Rfc2136RecordInputs>): { inputs: Partial<Rfc2136RecordState>; failures: Failure[] } {
  const failures: Failure[] = [];
  const inputs: Record<string, unknown> = { ...news };
  const fail = (property: string, reason: string) => failures.push({ property, reason });
  const present = (property: keyof Rfc2136RecordInputs, what: string): string | undefined => {
    const v = news[property];
    if (isUnknown(v)) return undefined;
    if (typeof v !== "string" || v.trim() === "") {
      fail(property, `${property} is required: ${what}`);
      return undefined;
    }
    return v.trim();
  };

  const server = present("server", "host:port of the zone's primary server, e.g. ns1.example.com:53 or 192.0.2.53:53");
  if (server !== undefined) {
    const parsed = parseServer(server);
    if ("error" in parsed) fail("server", `server must be host:port of the zone's primary server (e.g. ns1.example.com:53 or [2001:db8::53]:53); ${JSON.stringify(server)} ${parsed.error}`);
    // One spelling per server (`NS1`, `ns1:53`): another spelling must not replace the record.
    else inputs.server = formatServer({ host: parsed.host.toLowerCase(), port: parsed.port });
  }

  const zone = dnsName(present("zone", "the apex of the zone the record goes in, e.g. example.com"), "zone", fail);
  if (zone !== undefined) inputs.zone = zone;
  const fqdn = dnsName(present("fqdn", "the record's absolute name, e.g. a validation record's fqdn"), "fqdn", fail);
  if (fqdn !== undefined) {
    inputs.fqdn = fqdn;
    if (zone !== undefined && !isWithinZone(fqdn, zone)) {
      fail("fqdn", `fqdn "${fqdn}" is not within zone "${zone}": an update can only change names in its zone (the fqdn must be ${zone} or end in .${zone})`);
    }
  }

  const type = present("type", "TXT or CNAME");
  if (type !== undefined) {
    const upper = type.toUpperCase();
    if (!(RECORD_TYPES as readonly string[]).includes(upper)) fail("type", `type must be TXT or CNAME, not ${JSON.stringify(type)}`);
    else if (upper === "CNAME" && fqdn !== undefined && zone !== undefined && fqdn === zone) {
      fail("fqdn", `a CNAME cannot be at the zone apex "${zone}" (it holds the SOA and NS records); a CNAME validation record has a name below it`);
    }
    inputs.type = upper;
  }

  checkValue(news, inputs, fail);
  checkTtl(news, inputs, fail);

  const keyName = dnsName(present("tsigKeyName", "the TSIG key's name as the server's key statement names it, e.g. certreseller."), "tsigKeyName", fail);
  if (keyName !== undefined) inputs.tsigKeyName = news.tsigKeyName!.trim();

  if (news.tsigAlgorithm === undefined || news.tsigAlgorithm === null || news.tsigAlgorithm === "") inputs.tsigAlgorithm = DEFAULT_TSIG_ALGORITHM;
  else if (!isUnknown(news.tsigAlgorithm)) {
    const algorithm = normaliseName(String(news.tsigAlgorithm));
    if (!isTsigAlgorithm(algorithm)) {
      fail("tsigAlgorithm", `tsigAlgorithm must be one of ${Object.keys(TSIG_ALGORITHMS).join(", ")} (the algorithm of the server's key statement); got ${JSON.stringify(news.tsigAlgorithm)}`);
    }
    inputs.tsigAlgorithm = algorithm;
  }

  if (!isUnknown(news.tsigSecret)) {
    // The value is a secret: no reason below may show it, not even in part.
    if (typeof news.tsigSecret !== "string" || news.tsigSecret.trim() === "") fail("tsigSecret", "tsigSecret is required: the key's secret in base64, as the server's key statement holds it");
    else if (!parseTsigSecret(news.tsigSecret)) {
      fail("tsigSecret", "tsigSecret must be the key's secret in base64 (as the server's key statement or tsig-keygen writes it); the value given is not base64 (it is not shown: it is a secret)");
    }
  }
  return { inputs: inputs as Partial<Rfc2136RecordState>, failures };
}

/** A checked name, normalised; undefined (with a failure) when it is not a DNS name. */
function dnsName(value: string | undefined, property: string, fail: (p: string, r: string) => void): string | undefined {
  if (value === undefined) return undefined;
  const problem = dnsNameProblem(value);
  if (problem) {
    fail(property, `${property} must be a DNS name; ${JSON.stringify(value)} ${problem}`);
    return undefined;
  }
  return normaliseName(value);
}

function checkValue(news: Partial<Rfc2136RecordInputs>, inputs: Record<string, unknown>, fail: (p: string, r: string) => void): void {
  const value = news.value;
  if (isUnknown(value)) return;
  if (typeof value !== "string" || value === "") return void fail("value", "value is required: the TXT content or the CNAME target");
  if (inputs.type === "CNAME") {
    const problem = dnsNameProblem(value);
    if (problem) return void fail("value", `a CNAME's value is the target name; ${JSON.stringify(value)} ${problem}`);
    inputs.value = normaliseName(value);
  } else if (Buffer.byteLength(value, "utf8") > MAX_TXT_BYTES) {
    fail("value", `value is ${Buffer.byteLength(value, "utf8")} bytes; a TXT value here may have at most ${MAX_TXT_BYTES}`);
  }
}

function checkTtl(news: Partial<Rfc2136RecordInputs>, inputs: Record<string, unknown>, fail: (p: string, r: string) => void): void {
  const ttl = news.ttl;
  if (ttl === undefined || ttl === null) inputs.ttl = DEFAULT_TTL;
  else if (!isUnknown(ttl) && (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 0 || ttl > MAX_TTL)) {
    fail("ttl", `ttl must be a whole number of seconds from 0 to ${MAX_TTL}; got ${JSON.stringify(ttl)}`);
  }
}
