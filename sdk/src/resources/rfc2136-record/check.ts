import type * as pulumi from "@pulumi/pulumi";
import { dnsNameProblem, isWithinZone } from "../../dns/names.js";
import { normaliseName } from "../../rules/names.js";
import type { ProviderContext } from "../../provider/context.js";
import type { InputFailure } from "../../schema/property.js";
import { checkInputs } from "../shared/inputs.js";
import { RFC2136_RECORD_PROPERTIES } from "./declaration.js";
import { MAX_TXT_BYTES, type Rfc2136RecordInputs, type Rfc2136RecordState } from "./inputs.js";

/** Normalises and checks the inputs ({@link checkRecordInputs}); sends nothing. */
export async function check(_ctx: ProviderContext, _olds: Rfc2136RecordInputs, news: Rfc2136RecordInputs): Promise<pulumi.dynamic.CheckResult<Rfc2136RecordState>> {
  const { inputs, failures } = checkRecordInputs(news);
  return { inputs: inputs as Rfc2136RecordState, failures };
}

/**
 * Normalises the inputs by their declarations (names lower case without the
 * trailing dot, `type` upper case, `ttl` and `tsigAlgorithm` defaulted), then
 * the rules relating two of them: the name within the zone, no CNAME at the
 * apex, and a value that fits the type. Each failure names the property and
 * the rule; unknown values (a first preview) pass. The secret's value never
 * appears in a reason.
 *
 * @example
 * checkRecordInputs({ server: "ns1:53", zone: "example.com", fqdn: "_dnsauth.example.org", ... }).failures
 * // [{ property: "fqdn", reason: 'fqdn "_dnsauth.example.org" is not within zone "example.com": ...' }]
 */
export function checkRecordInputs(news: Partial<Rfc2136RecordInputs>): { inputs: Partial<Rfc2136RecordState>; failures: InputFailure[] } {
  const { values, unknown, rejected, failures } = checkInputs(RFC2136_RECORD_PROPERTIES, news);
  const inputs: Record<string, unknown> = { ...news, ...values };
  const known = (property: string): string | undefined =>
    unknown.has(property) || rejected.has(property) || typeof values[property] !== "string" ? undefined : (values[property] as string);
  const fail = (property: string, reason: string) => failures.push({ property, reason });

  const zone = known("zone");
  const fqdn = known("fqdn");
  if (zone !== undefined && fqdn !== undefined) {
    if (!isWithinZone(fqdn, zone)) {
      fail("fqdn", `fqdn "${fqdn}" is not within zone "${zone}": an update can only change names in its zone (the fqdn must be ${zone} or end in .${zone})`);
    } else if (known("type") === "CNAME" && fqdn === zone) {
      fail("fqdn", `a CNAME cannot be at the zone apex "${zone}" (it holds the SOA and NS records); a CNAME validation record has a name below it`);
    }
  }

  const value = known("value");
  if (value !== undefined && known("type") === "CNAME") {
    const problem = dnsNameProblem(value);
    if (problem) fail("value", `a CNAME's value is the target name; ${JSON.stringify(value)} ${problem}`);
    else inputs.value = normaliseName(value);
  } else if (value !== undefined && Buffer.byteLength(value, "utf8") > MAX_TXT_BYTES) {
    fail("value", `value is ${Buffer.byteLength(value, "utf8")} bytes; a TXT value here may have at most ${MAX_TXT_BYTES}`);
  }
  return { inputs: inputs as Partial<Rfc2136RecordState>, failures };
}
