/**
 * The preview's checks: each bad input fails naming the property and the
 * rule, defaults are filled in, names normalised, and the secret never
 * appears in a reason.
 */
import { describe, expect, it } from "vitest";
import { checkRecordInputs } from "../../../src/resources/rfc2136-record/check.js";
import { diff } from "../../../src/resources/rfc2136-record/diff.js";
import type { Rfc2136RecordState } from "../../../src/resources/rfc2136-record/inputs.js";
import { UNKNOWN } from "../../../src/provider/unknown.js";

const SECRET = "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA==";
const GOOD = {
  server: "ns1.example.com:53",
  zone: "Example.COM.",
  fqdn: "_DNSAuth.www.example.com.",
  type: "txt",
  value: "token",
  tsigKeyName: "certreseller.",
  tsigSecret: SECRET,
};

const failures = (inputs: Record<string, unknown>) => checkRecordInputs(inputs as never).failures;

describe("Rfc2136Record check", () => {
  it("normalises names and type and fills in ttl and tsigAlgorithm", () => {
    const { inputs, failures: f } = checkRecordInputs(GOOD);
    expect(f).toEqual([]);
    expect(inputs).toEqual({ ...GOOD, zone: "example.com", fqdn: "_dnsauth.www.example.com", type: "TXT", ttl: 60, tsigAlgorithm: "hmac-sha256" });
  });

  it("writes a server one way (lower case, with its port), so another spelling of it is no change", () => {
    for (const server of ["NS1.Example.com", "ns1.example.com", "ns1.example.com:53"]) expect(checkRecordInputs({ ...GOOD, server }).inputs.server).toBe("ns1.example.com:53");
    for (const server of ["[2001:DB8::53]", "2001:db8::53"]) expect(checkRecordInputs({ ...GOOD, server }).inputs.server).toBe("[2001:db8::53]:53");
  });

  it("takes a CNAME's target as a name, and the other algorithms", () => {
    const { inputs, failures: f } = checkRecordInputs({ ...GOOD, type: "CNAME", fqdn: "_abc.example.com", value: "X.dcv.Example.NET.", tsigAlgorithm: "HMAC-SHA512", ttl: 0 });
    expect(f).toEqual([]);
    expect(inputs).toMatchObject({ type: "CNAME", value: "x.dcv.example.net", tsigAlgorithm: "hmac-sha512", ttl: 0 });
  });

  it.each([
    [{ server: "" }, "server", /server is required: host:port/],
    [{ server: "ns1:dns" }, "server", /server must be host:port .*"ns1:dns" has the port "dns", not a number/],
    [{ server: "[ns1]:53" }, "server", /"\[ns1\]:53" has "ns1" in brackets, not an IPv6 address/],
    [{ zone: "bad..zone" }, "zone", /zone must be a DNS name; "bad..zone" has an empty label/],
    [{ fqdn: "_dnsauth.example.org" }, "fqdn", /fqdn "_dnsauth.example.org" is not within zone "example.com"/],
    [{ fqdn: "example.com", type: "CNAME", value: "x.example.net" }, "fqdn", /a CNAME cannot be at the zone apex "example.com"/],
    [{ type: "A" }, "type", /type must be TXT or CNAME, not "A"/],
    [{ value: "" }, "value", /value is required/],
    [{ type: "CNAME", value: "not a name" }, "value", /a CNAME's value is the target name; "not a name"/],
    [{ value: "x".repeat(30_001) }, "value", /at most 30000/],
    [{ ttl: -1 }, "ttl", /ttl must be a whole number of seconds from 0 to 2147483647; got -1/],
    [{ ttl: 1.5 }, "ttl", /got 1\.5/],
    [{ tsigKeyName: "" }, "tsigKeyName", /tsigKeyName is required/],
    [{ tsigAlgorithm: "hmac-md5" }, "tsigAlgorithm", /tsigAlgorithm must be one of hmac-sha256, hmac-sha384, hmac-sha512, hmac-sha224, hmac-sha1 .*got "hmac-md5"/],
    [{ tsigSecret: "" }, "tsigSecret", /tsigSecret is required/],
    [{ tsigSecret: "not base64 at all!" }, "tsigSecret", /tsigSecret must be the key's secret in base64 .*not shown: it is a secret/],
  ])("%j fails on %s", (change, property, reason) => {
    const f = failures({ ...GOOD, ...change });
    expect(f.map((x) => x.property)).toEqual([property]);
    expect(f[0]!.reason).toMatch(reason);
  });

  it("never shows the secret, not even a malformed one", () => {
    const almost = "c2VjcmV0LXNlY3JldC1zZWNyZXQ!";
    const f = failures({ ...GOOD, tsigSecret: almost });
    expect(JSON.stringify(f)).not.toContain(almost);
    expect(JSON.stringify(f)).not.toContain("c2VjcmV0");
  });

  it("lets unknown values (a first preview) through", () => {
    expect(failures({ ...GOOD, fqdn: UNKNOWN, value: UNKNOWN, type: UNKNOWN, tsigSecret: UNKNOWN })).toEqual([]);
  });
});

describe("Rfc2136Record diff", () => {
  const olds = checkRecordInputs(GOOD).inputs as Rfc2136RecordState;
  const run = (news: Partial<Rfc2136RecordState>) => diff({} as never, "id", olds, { ...olds, ...news });

  it("no change is no change", async () => {
    expect(await run({})).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  it("a new value, ttl or key setting is an in-place update", async () => {
    for (const change of [{ value: "token-2" }, { ttl: 300 }, { tsigKeyName: "other." }, { tsigAlgorithm: "hmac-sha512" as const }, { tsigSecret: "b3RoZXI=" }]) {
      expect(await run(change), JSON.stringify(change)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    }
  });

  it("another server, zone, name or type replaces: the new record first, unless it is the same RR or another type at the same name", async () => {
    expect(await run({ fqdn: "_dnsauth.example.com" })).toEqual({ changes: true, replaces: ["fqdn"], deleteBeforeReplace: false });
    expect(await run({ fqdn: "_abc.www.example.com", type: "CNAME", value: "x.example.net" })).toEqual({ changes: true, replaces: ["fqdn", "type"], deleteBeforeReplace: false });
    // A CNAME shares its name with nothing: created first, it would be refused beside the old TXT (or the TXT beside the old CNAME).
    expect(await run({ type: "CNAME", value: "x.example.net" })).toEqual({ changes: true, replaces: ["type"], deleteBeforeReplace: true });
    // The same RR at the same server under another spelling: creating first, then deleting the old, would remove it.
    expect(await run({ server: "192.0.2.53:53" })).toEqual({ changes: true, replaces: ["server"], deleteBeforeReplace: true });
    expect(await run({ value: UNKNOWN as never })).toMatchObject({ replaces: [] });
    // Unknown only in a preview: the up diffs again with the values known.
    expect(await run({ fqdn: UNKNOWN as never })).toMatchObject({ replaces: ["fqdn"] });
  });
});
