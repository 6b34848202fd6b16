/**
 * UPDATE encoding (RFC 2136 2): header, zone section, the prerequisites,
 * the update section's classes and TTLs, TXT chunking; queries; and reading answers (names with
 * compression pointers, the last record's offset).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as dnsPacket from "dns-packet";
import { describe, expect, it } from "vitest";
import { encodeQuery, encodeUpdate, lastAdditionalOffset, rdataOf, readHeader, readName, skipName, skipRecord, HEADER_BYTES } from "../../src/dns/message.js";
import { canonicalWireName, dnsNameProblem, isWithinZone } from "../../src/dns/names.js";
import { normaliseName } from "../../src/rules/names.js";

const TXT = { fqdn: "_dnsauth.www.example.com", type: "TXT" as const, value: "token-new", ttl: 60 };
const OLD = { ...TXT, value: "token-old" };

type Written = { name: string; type: number; klass: number; ttl: number; rdlength: number; rdata?: Buffer };

/** Each update-section RR with the class number as written. */
function updateSection(message: Buffer): Written[] {
  return sectionsOf(message).updates;
}

/** The prerequisite and update sections, each RR as written. */
function sectionsOf(message: Buffer): { prerequisites: Written[]; updates: Written[] } {
  const header = readHeader(message);
  let offset = skipName(message, HEADER_BYTES) + 4;
  const read = (count: number, withRdata = false) =>
    Array.from({ length: count }, () => {
      const at = skipName(message, offset);
      const rdlength = message.readUInt16BE(at + 8);
      const rr: Written = { name: readName(message, offset), type: message.readUInt16BE(at), klass: message.readUInt16BE(at + 2), ttl: message.readUInt32BE(at + 4), rdlength };
      if (withRdata) rr.rdata = message.subarray(at + 10, at + 10 + rdlength);
      offset = skipRecord(message, offset);
      return rr;
    });
  const prerequisites = read(header.counts.answers, true);
  const out = { prerequisites, updates: read(header.counts.authorities) };
  // Nothing but the TSIG record (when signed) follows the update section.
  expect(offset).toBe(header.counts.additionals === 0 ? message.length : lastAdditionalOffset(message));
  return out;
}

describe("encodeUpdate", () => {
  it("writes an UPDATE header (opcode 5, not a response) with the zone section's SOA question and no prerequisites", () => {
    const message = encodeUpdate(0xbeef, "example.com", { deletes: [], adds: [TXT] });
    expect(readHeader(message)).toEqual({
      id: 0xbeef,
      isResponse: false,
      opcode: 5,
      truncated: false,
      rcode: 0,
      counts: { questions: 1, answers: 0, authorities: 1, additionals: 0 },
    });
    const decoded = dnsPacket.decode(message);
    expect(decoded.questions).toEqual([{ name: "example.com", type: "SOA", class: "IN" }]);
  });

  it("adds with class IN and the TTL; deletes exactly one RR with class NONE and TTL 0 (RFC 2136 2.5.4), deletes first", () => {
    const message = encodeUpdate(1, "example.com", { deletes: [OLD], adds: [TXT] });
    expect(updateSection(message)).toEqual([
      { name: "_dnsauth.www.example.com", type: 16, klass: 254, ttl: 0, rdlength: 10 },
      { name: "_dnsauth.www.example.com", type: 16, klass: 1, ttl: 60, rdlength: 10 },
    ]);
    // The RDATA of the delete is the old value: that RR and no other goes.
    const decoded = dnsPacket.decode(message);
    expect((decoded.authorities![0] as { data: Buffer[] }).data.map(String)).toEqual(["token-old"]);
    expect((decoded.authorities![1] as { data: Buffer[] }).data.map(String)).toEqual(["token-new"]);
  });

  it("encodes a CNAME's target as a name", () => {
    const message = encodeUpdate(1, "example.com", { deletes: [], adds: [{ fqdn: "_abc.example.com", type: "CNAME", value: "x.dcv.example.net", ttl: 300 }] });
    const decoded = dnsPacket.decode(message);
    expect(decoded.authorities).toEqual([expect.objectContaining({ name: "_abc.example.com", type: "CNAME", ttl: 300, data: "x.dcv.example.net" })]);
  });

  it("writes each prerequisite as RFC 2136 2.4 says: class NONE and no RDATA for an absent RRset or an unused name, class IN and TTL 0 per RR for an exact RRset", () => {
    const message = encodeUpdate(7, "example.com", {
      prerequisites: [
        { kind: "rrset-absent", fqdn: "_dnsauth.www.example.com", type: "CNAME" },
        { kind: "name-unused", fqdn: "_abc.example.com" },
        { kind: "rrset-equals", fqdn: "_dnsauth.www.example.com", type: "TXT", rdata: [rdataOf(OLD), rdataOf({ type: "TXT", value: "spf" })] },
        { kind: "rrset-equals", fqdn: "_abc.example.com", type: "CNAME", rdata: [rdataOf({ type: "CNAME", value: "x.dcv.example.net" })] },
      ],
      deletes: [],
      adds: [TXT],
    });
    expect(readHeader(message).counts).toEqual({ questions: 1, answers: 5, authorities: 1, additionals: 0 });
    const { prerequisites, updates } = sectionsOf(message);
    expect(prerequisites.map(({ rdata, ...rr }) => ({ ...rr, rdata: rdata!.toString("hex") }))).toEqual([
      { name: "_dnsauth.www.example.com", type: 5, klass: 254, ttl: 0, rdlength: 0, rdata: "" },
      { name: "_abc.example.com", type: 255, klass: 254, ttl: 0, rdlength: 0, rdata: "" },
      { name: "_dnsauth.www.example.com", type: 16, klass: 1, ttl: 0, rdlength: 10, rdata: Buffer.from("\x09token-old", "latin1").toString("hex") },
      { name: "_dnsauth.www.example.com", type: 16, klass: 1, ttl: 0, rdlength: 4, rdata: Buffer.from("\x03spf", "latin1").toString("hex") },
      { name: "_abc.example.com", type: 5, klass: 1, ttl: 0, rdlength: 19, rdata: canonicalWireName("x.dcv.example.net").toString("hex") },
    ]);
    expect(updates).toEqual([{ name: "_dnsauth.www.example.com", type: 16, klass: 1, ttl: 60, rdlength: 10 }]);
  });

  it("a TXT RDATA is the value's character-strings, as a reader of the zone gets them back", () => {
    const long = "v".repeat(300);
    const rdata = rdataOf({ type: "TXT", value: long });
    expect([rdata[0], rdata[256]]).toEqual([255, 45]);
    expect(rdata.length).toBe(302);
    // The same bytes dns-packet writes for an add of that value.
    const decoded = dnsPacket.decode(encodeUpdate(1, "example.com", { deletes: [], adds: [{ ...TXT, value: long }] }));
    expect(Buffer.concat((decoded.authorities![0] as { data: Buffer[] }).data).toString()).toBe(long);
  });

  it("a query asks for one type at the name, without recursion", () => {
    const query = encodeQuery(0x4321, "_Dnsauth.WWW.example.com", "TXT");
    expect(readHeader(query)).toMatchObject({ id: 0x4321, opcode: 0, isResponse: false, counts: { questions: 1, answers: 0, authorities: 0, additionals: 0 } });
    expect(query.readUInt16BE(2) & 0x0100).toBe(0);
    expect(dnsPacket.decode(query).questions).toEqual([{ name: "_dnsauth.www.example.com", type: "TXT", class: "IN" }]);
    expect(dnsPacket.decode(encodeQuery(1, "_abc.example.com", "ANY")).questions![0]!.type).toBe("ANY");
  });

  it("splits a TXT value longer than 255 bytes into character-strings that join back to it", () => {
    const value = "v".repeat(600);
    const decoded = dnsPacket.decode(encodeUpdate(1, "example.com", { deletes: [], adds: [{ ...TXT, value }] }));
    const strings = (decoded.authorities![0] as { data: Buffer[] }).data;
    expect(strings.map((b) => b.length)).toEqual([255, 255, 90]);
    expect(Buffer.concat(strings).toString()).toBe(value);
  });
});

describe("reading answers", () => {
  it("follows compression pointers in names, as BIND writes them", () => {
    // nsupdate's replace request: the second RR's name is a pointer to the first's.
    const vectors = JSON.parse(fs.readFileSync(path.join(__dirname, "fixtures/bind-tsig-vectors.json"), "utf8")) as { replace: { request: string } };
    const request = Buffer.from(vectors.replace.request, "hex");
    expect(updateSection(request).map((r) => [r.name, r.klass])).toEqual([
      ["_dnsauth.vector.e2e.test", 254],
      ["_dnsauth.vector.e2e.test", 1],
    ]);
    const last = lastAdditionalOffset(request)!;
    expect(readName(request, last)).toBe("vector-key");
  });

  it("refuses a pointer loop and a name that runs off the end", () => {
    const loop = Buffer.concat([Buffer.alloc(12), Buffer.from([0xc0, 12])]);
    expect(() => readName(loop, 12)).toThrow(/loops/);
    expect(() => skipName(Buffer.from([5, 97, 98]), 0)).toThrow(/past the end/);
    expect(() => readHeader(Buffer.alloc(5))).toThrow(/shorter than a DNS header/);
  });
});

describe("names", () => {
  it("normalises, checks and compares names", () => {
    expect(normaliseName(" _DNSAuth.Example.COM. ")).toBe("_dnsauth.example.com");
    expect(dnsNameProblem("_dnsauth.example.com")).toBeUndefined();
    expect(dnsNameProblem("a..b")).toBe("has an empty label");
    expect(dnsNameProblem(`${"a".repeat(64)}.com`)).toMatch(/label of 64 characters/);
    expect(dnsNameProblem("exa mple.com")).toMatch(/labels are letters/);
    expect(dnsNameProblem("-bad.com")).toMatch(/not starting or ending/);
    expect(isWithinZone("_dnsauth.www.Example.com.", "example.com")).toBe(true);
    expect(isWithinZone("example.com", "example.com")).toBe(true);
    expect(isWithinZone("badexample.com", "example.com")).toBe(false);
    expect(canonicalWireName("Key.Example.").toString("hex")).toBe("036b6579076578616d706c6500");
  });
});
