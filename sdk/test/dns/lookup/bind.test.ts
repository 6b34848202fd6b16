/**
 * The lookups against a real authoritative server: BIND 9 serving zones
 * written by the test (found or installed as the e2e suite does it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBind } from "../../../../scripts/dns/provision.js";
import { startZoneServer, type ZoneServer } from "../../../../tests/support/zone-server.js";
import {
  authoritativeServers,
  createDnsLookup,
  findZone,
  PropagationTimeoutError,
  relevantCaaSet,
  waitForPropagation,
  type ExpectedRecord,
} from "../../../src/dns/lookup/index.js";

let dns: ZoneServer;

const EXAMPLE = [
  '@ CAA 0 issue "letsencrypt.org"',
  '@ CAA 0 iodef "mailto:security@example.test"',
  'shop CAA 0 issue "sandbox-ca.test"',
  'shop CAA 0 issuewild ";"',
  "alias CNAME www.other.test.",
  'www TXT "not a CAA record"',
];

beforeAll(async () => {
  await ensureBind({ log: (line) => console.error(`[bind] ${line}`) });
  dns = await startZoneServer({ "example.test": EXAMPLE, "other.test": ['www CAA 0 issue "other-ca.test"'] });
}, 600_000);
afterAll(async () => dns?.stop());

/** A poll clock in real time, with the waits shortened: the server answers at once, only the order of events matters. */
const quickClock = { now: () => Date.now(), sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms / 20)) };

describe("CAA through BIND", () => {
  it("climbs from the name to the zone's apex and reads each property", async () => {
    const lookup = createDnsLookup({ servers: [dns.address] });
    expect(await relevantCaaSet(lookup, "a.b.example.test")).toEqual({
      at: "example.test",
      rrset: expect.arrayContaining([
        { flags: 0, tag: "issue", value: "letsencrypt.org" },
        { flags: 0, tag: "iodef", value: "mailto:security@example.test" },
      ]),
    });
    expect((await relevantCaaSet(lookup, "*.shop.example.test")).rrset).toEqual(
      expect.arrayContaining([
        { flags: 0, tag: "issue", value: "sandbox-ca.test" },
        { flags: 0, tag: "issuewild", value: ";" },
      ]),
    );
  });

  it("follows a CNAME to where the alias points (the server chases it)", async () => {
    const lookup = createDnsLookup({ servers: [dns.address] });
    expect(await relevantCaaSet(lookup, "alias.example.test")).toEqual({ at: "alias.example.test", rrset: [{ flags: 0, tag: "issue", value: "other-ca.test" }] });
  });

  it("a server that does not serve the name refuses, which is a lookup error", async () => {
    const lookup = createDnsLookup({ servers: [dns.address] });
    await expect(relevantCaaSet(lookup, "www.elsewhere.example")).rejects.toThrow(/elsewhere\.example CAA from 127\.0\.0\.1:\d+: the server refused the query/);
  });
});

describe("propagation through BIND", () => {
  const record: ExpectedRecord = { fqdn: "_dnsauth.www.example.test", type: "TXT", value: "f00dcafe" };

  it("finds the zone and its name server (at the test's port)", async () => {
    const lookup = createDnsLookup({ servers: [dns.address] });
    expect(await findZone(lookup, record.fqdn)).toBe("example.test");
    expect(await authoritativeServers(lookup, "example.test", dns.port)).toEqual([{ label: "ns.example.test (127.0.0.1)", endpoint: dns.address }]);
  });

  it("waits until a record published during the wait is served (a fresh answer on every poll, not a cached NXDOMAIN)", async () => {
    await dns.setZone("example.test", EXAMPLE);
    let published = false;
    const clock = {
      now: quickClock.now,
      sleep: async (ms: number) => {
        if (!published) {
          published = true;
          await dns.setZone("example.test", [...EXAMPLE, `_dnsauth.www TXT "${record.value}"`]);
        }
        await quickClock.sleep(ms);
      },
    };
    const lines: string[] = [];
    const report = await waitForPropagation({
      records: [record],
      lookupFor: (servers) => createDnsLookup({ servers: servers ?? [dns.address] }),
      authoritativePort: dns.port,
      clock,
      timeoutMs: 30_000,
      log: (line) => lines.push(line),
    });
    expect(report).toEqual({ visible: 1, unreachable: [] });
    expect(lines).toEqual([expect.stringContaining(`lacking on ns.example.test (127.0.0.1): _dnsauth.www.example.test does not exist (NXDOMAIN)); next check in 2 s`)]);
  });

  it("a record published in the wrong zone is reported missing, naming the record and the server", async () => {
    await dns.setZone("example.test", EXAMPLE);
    // The classic slip: a relative name typed into the other zone's form.
    await dns.setZone("other.test", ['www CAA 0 issue "other-ca.test"', `_dnsauth.www.example.test TXT "${record.value}"`]);
    const error = await waitForPropagation({
      records: [record],
      lookupFor: (servers) => createDnsLookup({ servers: servers ?? [dns.address] }),
      authoritativePort: dns.port,
      clock: quickClock,
      timeoutMs: 3_000,
      log: () => {},
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PropagationTimeoutError);
    expect((error as Error).message).toBe(
      "1 validation record(s) not visible on every DNS server after 0.05 min (propagationTimeoutMinutes):\n" +
        '  - TXT _dnsauth.www.example.test "f00dcafe": lacking on ns.example.test (127.0.0.1): _dnsauth.www.example.test does not exist (NXDOMAIN)',
    );
  });
});
