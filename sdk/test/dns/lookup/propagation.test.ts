import { describe, expect, it } from "vitest";
import { PropagationTimeoutError, waitForPropagation, type ExpectedRecord, type PropagationOptions } from "../../../src/dns/lookup/index.js";
import { scriptedDns, virtualClock, type NameRecords, type ScriptedDns } from "../../support/scripted-dns.js";

const TXT: ExpectedRecord = { fqdn: "_dnsauth.www.example.com", type: "TXT", value: "token-1" };
const CNAME: ExpectedRecord = { fqdn: "_abc.example.com", type: "CNAME", value: "abc.def.dcv.sandbox.test" };

/** The discovery resolver's view: example.com is a zone with two name servers. */
const PUBLIC: Record<string, NameRecords> = {
  "example.com": { SOA: true, NS: ["ns1.example.net", "ns2.example.net"] },
  "www.example.com": { A: ["198.51.100.1"] },
  "ns1.example.net": { A: ["192.0.2.1"] },
  "ns2.example.net": { AAAA: ["2001:db8::2"] },
};

function run(dns: ScriptedDns, records: ExpectedRecord[], more: Partial<PropagationOptions> = {}, clock = virtualClock()) {
  const lines: string[] = [];
  const result = waitForPropagation({ records, lookupFor: dns.lookupFor, clock, timeoutMs: 60_000, log: (l) => lines.push(l), ...more });
  return { result, lines, clock };
}

async function failure(promise: Promise<unknown>): Promise<PropagationTimeoutError> {
  const error = await promise.catch((e: unknown) => e);
  if (!(error instanceof PropagationTimeoutError)) throw new Error(`expected a PropagationTimeoutError, got ${String(error)}`);
  return error;
}

describe("waiting for validation records to be visible", () => {
  it("asks every authoritative server of the record's zone (IPv4, else IPv6) and returns at once when all hold it", async () => {
    const dns = scriptedDns({
      default: PUBLIC,
      "192.0.2.1:53": { "_dnsauth.www.example.com": { TXT: ["other", "token-1"] } },
      "[2001:db8::2]:53": { "_dnsauth.www.example.com": { TXT: ["token-1"] } },
    });
    const { result, clock } = run(dns, [TXT]);
    expect(await result).toEqual({ visible: 2, unreachable: [] });
    expect(clock.slept).toEqual([]);
    // The zone is found by climbing for an SOA from the record's own name.
    expect(dns.queries.filter((q) => q.startsWith("default") && q.endsWith("SOA"))).toEqual([
      "default _dnsauth.www.example.com SOA",
      "default www.example.com SOA",
      "default example.com SOA",
    ]);
  });

  it("polls with a backoff until the record reaches the last server", async () => {
    const late: Record<string, NameRecords> = {};
    const dns = scriptedDns({ default: PUBLIC, "192.0.2.1:53": { "_dnsauth.www.example.com": { TXT: ["token-1"] } }, "[2001:db8::2]:53": late });
    const clock = virtualClock(undefined, (now) => {
      if (now - Date.parse("2026-07-01T00:00:00Z") >= 14_000) late["_dnsauth.www.example.com"] = { TXT: ["token-1"] };
    });
    const { result, lines } = run(dns, [TXT], {}, clock);
    expect(await result).toEqual({ visible: 2, unreachable: [] });
    expect(clock.slept).toEqual([2_000, 4_000, 8_000]);
    expect(lines[0]).toBe(
      "waiting for DNS: 1 of 1 validation record(s) not yet visible on every server " +
        '(TXT _dnsauth.www.example.com "token-1": lacking on ns2.example.net (2001:db8::2): _dnsauth.www.example.com does not exist (NXDOMAIN)); next check in 2 s',
    );
  });

  it("at the deadline fails naming each missing record, its expected value and every server lacking it, with what that server has", async () => {
    const dns = scriptedDns({
      default: PUBLIC,
      "192.0.2.1:53": { "_dnsauth.www.example.com": { TXT: ["stale-token"] }, "_abc.example.com": { CNAME: "elsewhere.test" } },
      "[2001:db8::2]:53": { "_dnsauth.www.example.com": { A: ["192.0.2.9"] } },
    });
    const { result, clock } = run(dns, [TXT, CNAME], { timeoutMs: 30_000 });
    const error = await failure(result);
    expect(error.message).toBe(
      "2 validation record(s) not visible on every DNS server after 0.5 min (propagationTimeoutMinutes):\n" +
        '  - TXT _dnsauth.www.example.com "token-1": lacking on ns1.example.net (192.0.2.1): _dnsauth.www.example.com has 1 other TXT value(s): "stale-token"; ' +
        "lacking on ns2.example.net (2001:db8::2): _dnsauth.www.example.com has no TXT record\n" +
        "  - CNAME _abc.example.com -> abc.def.dcv.sandbox.test: lacking on ns1.example.net (192.0.2.1): _abc.example.com points to elsewhere.test; " +
        "lacking on ns2.example.net (2001:db8::2): _abc.example.com does not exist (NXDOMAIN)",
    );
    // 2 + 4 + 8 + 16 s, then the rest of the 30 s: never past the deadline.
    expect(clock.slept).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(error.missing.map((m) => m.record)).toEqual([TXT, CNAME]);
  });

  it("finds a CNAME record's zone from its parent (a CNAME cannot sit at a zone apex)", async () => {
    const dns = scriptedDns({ default: PUBLIC, "192.0.2.1:53": { "_abc.example.com": { CNAME: "ABC.def.dcv.sandbox.test." } }, "[2001:db8::2]:53": { "_abc.example.com": { CNAME: "abc.def.dcv.sandbox.test" } } });
    expect(await run(dns, [CNAME]).result).toEqual({ visible: 2, unreachable: [] });
    expect(dns.queries).not.toContain("default _abc.example.com SOA");
  });

  it("follows a delegated TXT name (a CNAME to another zone) and checks the value where the chain ends", async () => {
    const dns = scriptedDns({
      default: {
        ...PUBLIC,
        "_dnsauth.www.example.com": { CNAME: "www.auth.acme.test" },
        "acme.test": { SOA: true, NS: ["ns.acme.test"] },
        "ns.acme.test": { A: ["203.0.113.7"] },
      },
      "203.0.113.7:53": {},
    });
    const error = await failure(run(dns, [TXT], { timeoutMs: 5_000 }).result);
    expect(error.message).toContain(
      'TXT _dnsauth.www.example.com "token-1": lacking on ns.acme.test (203.0.113.7): www.auth.acme.test (CNAME to www.auth.acme.test) does not exist (NXDOMAIN)',
    );
    (dns.servers["203.0.113.7:53"] as Record<string, NameRecords>)["www.auth.acme.test"] = { TXT: ["token-1"] };
    expect(await run(dns, [TXT]).result).toEqual({ visible: 1, unreachable: [] });
  });

  it("a name in no zone fails at the deadline saying so", async () => {
    const dns = scriptedDns({ default: {} });
    const error = await failure(run(dns, [TXT], { timeoutMs: 3_000 }).result);
    expect(error.message).toContain(
      'TXT _dnsauth.www.example.com "token-1": no DNS zone holds _dnsauth.www.example.com: none of _dnsauth.www.example.com, www.example.com, example.com, com has an SOA record (asked default)',
    );
  });

  it("asks the resolvers the user names instead, and uses no discovery", async () => {
    const dns = scriptedDns({ "10.0.0.53:53": { "_dnsauth.www.example.com": { TXT: ["token-1"] } } });
    expect(await run(dns, [TXT], { resolvers: ["10.0.0.53:53"] }).result).toEqual({ visible: 1, unreachable: [] });
    expect(dns.queries).toEqual(["10.0.0.53:53 _dnsauth.www.example.com TXT"]);
  });

  it("a server that never answers does not hold the wait once the others show every record (it is reported)", async () => {
    const dns = scriptedDns({ default: PUBLIC, "192.0.2.1:53": { "_dnsauth.www.example.com": { TXT: ["token-1"] } }, "[2001:db8::2]:53": "down" });
    const { result, clock } = run(dns, [TXT]);
    expect(await result).toEqual({ visible: 1, unreachable: ["ns2.example.net (2001:db8::2)"] });
    expect(clock.slept).toEqual([2_000, 4_000]);
  });

  it("when no name server's address can be looked up (no answer), nothing could be checked: the report says why instead of failing at the deadline", async () => {
    const dns = scriptedDns({
      default: { ...PUBLIC, "ns1.example.net": { fail: "ETIMEOUT" }, "ns2.example.net": { fail: "ETIMEOUT" } },
    });
    const { result } = run(dns, [TXT]);
    expect((await result).unverified).toMatch(/ns1\.example\.net A from default: no answer in time \(ETIMEOUT\)/);
  });

  it("when no server answers at all, nothing could be checked: the report says why instead of failing", async () => {
    const dns = scriptedDns({ default: "down" });
    const { result } = run(dns, [TXT]);
    expect((await result).unverified).toBe("_dnsauth.www.example.com CNAME from default: no answer in time (ETIMEOUT)");
  });
});
