/**
 * publish() against the scripted server, where only the order of answers
 * matters: an update whose first copy went unanswered may have added the
 * record it then finds, so that record is never claimed as the resource's
 * own (tests/e2e/dns/ checks the rest against BIND).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseTsigSecret } from "../../../src/dns/tsig.js";
import { sendUpdate, type UpdateTarget } from "../../../src/dns/update.js";
import { publish } from "../../../src/resources/rfc2136-record/publish.js";
import { startFakeDnsServer, type FakeDnsServer } from "../../support/fake-dns-server.js";

const SECRET = Buffer.from("the publish test's own key, 32 b").toString("base64");
const RECORD = { fqdn: "_dnsauth.www.example.com", type: "TXT" as const, value: "token-1", ttl: 60 };
const FAST = { timeoutMs: 150, tries: 2 };
let server: FakeDnsServer;
let target: UpdateTarget;

beforeAll(async () => {
  server = await startFakeDnsServer({ name: "publish.", algorithm: "hmac-sha256", secret: parseTsigSecret(SECRET)! });
  target = { server: server.address, zone: "example.com", tsigKeyName: "publish.", tsigAlgorithm: "hmac-sha256", tsigSecret: SECRET };
});
afterAll(async () => server?.close());
beforeEach(() => {
  server.received.length = 0;
  server.replies.length = 0;
});

describe("publish", () => {
  it("a prerequisite failure answering the only copy sent: the value found was there before", async () => {
    server.replies.push({ rcode: 7 }, { answers: [{ type: "TXT", value: "token-1" }] });
    await expect(publish(target, RECORD, undefined, FAST)).resolves.toEqual({ preExisting: true, unsure: false });
  });

  it("a prerequisite failure answering a second copy (the first unanswered, perhaps applied): the value found is kept as pre-existing and flagged unsure", async () => {
    server.replies.push({ silent: true }, { rcode: 7 }, { answers: [{ type: "TXT", value: "token-1" }] });
    await expect(publish(target, RECORD, undefined, FAST)).resolves.toEqual({ preExisting: true, unsure: true });
    expect(server.received.map((r) => r.opcode)).toEqual([5, 5, 0]);
    expect(server.received[1]!.records).toEqual(server.received[0]!.records);
  });

  it("sendUpdate's prerequisite error says whether an earlier copy may have been applied", async () => {
    server.replies.push({ rcode: 8 });
    await expect(sendUpdate(target, { deletes: [], adds: [RECORD] }, FAST)).rejects.toMatchObject({ code: "PREREQUISITE", mayHaveApplied: false });
    server.replies.push({ silent: true }, { rcode: 8 });
    await expect(sendUpdate(target, { deletes: [], adds: [RECORD] }, FAST)).rejects.toMatchObject({
      code: "PREREQUISITE",
      mayHaveApplied: true,
      message: expect.stringMatching(/\(NXRRSET\), so the server applied nothing \(an earlier copy of it went unanswered and may have been applied\)$/),
    });
  });

  it("records that keep changing: five tries, then an error saying so, with nothing added", async () => {
    for (let i = 0; i < 5; i++) server.replies.push({ rcode: 7 }, { answers: [{ type: "TXT", value: `other-${i}` }] });
    server.replies.pop();
    await expect(publish(target, RECORD, undefined, FAST)).rejects.toMatchObject({
      code: "PREREQUISITE",
      message: expect.stringMatching(/5 tries in a row: the records at _dnsauth\.www\.example\.com kept changing while this update was made; nothing was added: run it again$/),
    });
    expect(server.received.map((r) => r.opcode)).toEqual([5, 0, 5, 0, 5, 0, 5, 0, 5]);
  });
});

// A signed zone answers an ANY query with RRSIG and NSEC records beside the
// data: they are the zone's signing, and a CNAME shares its name with them.
describe("publish in a DNSSEC-signed zone", () => {
  const OLD = { fqdn: "_abc.www.example.com", type: "CNAME" as const, value: "one.dcv.example.net", ttl: 60 };
  const NEW = { ...OLD, value: "two.dcv.example.net" };

  it("after a prerequisite failure, a name holding only the CNAME being replaced (and its RRSIG and NSEC records) is no conflict: the update is sent again", async () => {
    server.replies.push({ rcode: 7 }, { answers: [{ type: "CNAME", value: OLD.value }], dnssec: true });
    await expect(publish(target, NEW, OLD, FAST)).resolves.toEqual({ preExisting: false, transport: "udp" });
    expect(server.received.map((r) => r.opcode)).toEqual([5, 0, 5]);
    expect(server.received[2]!.prerequisites).toEqual([{ name: OLD.fqdn, type: "CNAME", class: "IN", ttl: 0, data: OLD.value }]);
  });

  it("a CNAME over another one is refused naming that CNAME alone, not the DNSSEC records", async () => {
    server.replies.push({ rcode: 6 }, { answers: [{ type: "CNAME", value: "theirs.dcv.example.net" }], dnssec: true });
    const error = await publish(target, NEW, undefined, FAST).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/already holds CNAME theirs\.dcv\.example\.net there; a CNAME cannot share its name/);
    expect((error as Error).message).not.toMatch(/RRSIG|NSEC/);
  });
});

// One TTL per RRset (RFC 2181 5.2): the server gives the whole TXT RRset the TTL of the RR added.
describe("a new TTL for the resource's own TXT value", () => {
  const OTHER = "someone-elses-token";

  it("is refused, naming ttl and the rule, when the RRset also holds a value at another TTL; only the failed first try and the read went out", async () => {
    server.replies.push({ rcode: 8 }, { answers: [{ type: "TXT", value: "token-1", ttl: 60 }, { type: "TXT", value: OTHER, ttl: 60 }] });
    const error = await publish(target, { ...RECORD, ttl: 300 }, RECORD, FAST).catch((e: Error) => e);
    expect(error).toMatchObject({ code: "SHARED_TTL", settings: ["ttl"], mayHaveApplied: false });
    expect((error as Error).message).toMatch(
      /^ttl: the TXT RRset at _dnsauth\.www\.example\.com \(zone example\.com at 127\.0\.0\.1:\d+\) also holds a value this resource did not add \("someone-elses-token"\), and an RRset has one TTL for all its values \(RFC 2181 5\.2\): ttl 300 would change theirs from 60 too\. Nothing was changed: keep `ttl` at 60/,
    );
    expect(server.received.map((r) => r.opcode)).toEqual([5, 0]);
  });

  it("goes through in one update when the RRset holds only the resource's value (the first try's prerequisite says so)", async () => {
    await expect(publish(target, { ...RECORD, ttl: 300 }, RECORD, FAST)).resolves.toEqual({ preExisting: false, transport: "udp" });
    expect(server.received.map((r) => r.opcode)).toEqual([5]);
    expect(server.received[0]!.prerequisites).toContainEqual({ name: RECORD.fqdn, type: "TXT", class: "IN", ttl: 0, data: "token-1" });
    expect(server.received[0]!.records.map((r) => [r.class, r.ttl])).toEqual([["NONE", 0], ["IN", 300]]);
  });

  it("goes through when the other values have that TTL already (the RRset's TTL was changed at the server)", async () => {
    server.replies.push({ rcode: 8 }, { answers: [{ type: "TXT", value: "token-1", ttl: 300 }, { type: "TXT", value: OTHER, ttl: 300 }] });
    await expect(publish(target, { ...RECORD, ttl: 300 }, RECORD, FAST)).resolves.toEqual({ preExisting: false, transport: "udp" });
    expect(server.received.map((r) => r.opcode)).toEqual([5, 0, 5]);
  });

  it("a new value at the same TTL beside other values is no TTL change: it is added", async () => {
    server.replies.push({ rcode: 8 }, { answers: [{ type: "TXT", value: "token-1", ttl: 60 }, { type: "TXT", value: OTHER, ttl: 60 }] });
    await expect(publish(target, { ...RECORD, value: "token-2" }, RECORD, FAST)).resolves.toEqual({ preExisting: false, transport: "udp" });
  });
});
