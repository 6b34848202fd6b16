/**
 * RFC 2136 UPDATE messages and the queries that read a name back: encoding
 * them (every name uncompressed, RFC 4034 6.2 form) and reading as much of
 * an answer as an update needs (the header, and where the last record
 * starts, for TSIG).
 */
import { malformedAnswer } from "./errors.js";
import { normaliseName } from "../rules/names.js";
import { canonicalWireName } from "./names.js";

/** The DNS opcode of an UPDATE (RFC 2136 1.3). */
export const OPCODE_UPDATE = 5;
export const OPCODE_QUERY = 0;
export const CLASS_IN = 1;
export const CLASS_NONE = 254;
export const CLASS_ANY = 255;
export const HEADER_BYTES = 12;
export const TYPES = { CNAME: 5, SOA: 6, TXT: 16, ANY: 255 } as const;

/** One resource record an update adds or deletes. */
export interface RecordData {
  /** Absolute, without the trailing dot: `_dnsauth.example.com`. */
  fqdn: string;
  type: "TXT" | "CNAME";
  /** TXT content (any length: split into 255-byte strings), or the CNAME target. */
  value: string;
  /** Seconds; ignored for deletes (always 0 there, RFC 2136 2.5.4). */
  ttl: number;
}

/**
 * The RFC 2136 2.4 prerequisites an update can carry; when one does not
 * hold, the server applies nothing and answers with the RCODE named here.
 */
export type Prerequisite =
  /** 2.4.3 "RRset does not exist" (class NONE, no RDATA): else YXRRSET. */
  | { kind: "rrset-absent"; fqdn: string; type: RecordData["type"] }
  /** 2.4.5 "Name is not in use" (class NONE, type ANY): no RR of any type at the name, else YXDOMAIN. */
  | { kind: "name-unused"; fqdn: string }
  /**
   * 2.4.2 "RRset exists (value dependent)" (class IN, TTL 0, one RR per
   * value): the RRset is exactly these RDATAs, no more, no fewer, else
   * NXRRSET. The RDATAs are wire form ({@link rdataOf}, or as read back).
   */
  | { kind: "rrset-equals"; fqdn: string; type: RecordData["type"]; rdata: readonly Buffer[] };

/** What one UPDATE does, in this order: check each prerequisite, delete each RR of `deletes`, then add each of `adds`. */
export interface UpdateChanges {
  prerequisites?: readonly Prerequisite[];
  deletes: readonly RecordData[];
  adds: readonly RecordData[];
}

/**
 * The UPDATE message for `zone`: the prerequisite section, then the update
 * section deleting exactly the RRs of `deletes` (class NONE, TTL 0: "delete
 * an RR from an RRset", RFC 2136 2.5.4 — never the whole RRset) and adding
 * those of `adds` (class IN, RFC 2136 2.5.1). Unsigned: TSIG is appended
 * after.
 *
 * @example
 * encodeUpdate(0x1234, "example.com", {
 *   prerequisites: [{ kind: "rrset-absent", fqdn: "_dnsauth.example.com", type: "CNAME" }],
 *   deletes: [],
 *   adds: [{ fqdn: "_dnsauth.example.com", type: "TXT", value: "token", ttl: 60 }],
 * })
 */
export function encodeUpdate(id: number, zone: string, changes: UpdateChanges): Buffer {
  const prerequisites = (changes.prerequisites ?? []).flatMap(encodePrerequisite);
  const updates = [...changes.deletes.map((r) => encodeRecord(r.fqdn, TYPES[r.type], CLASS_NONE, 0, rdataOf(r))), ...changes.adds.map((r) => encodeRecord(r.fqdn, TYPES[r.type], CLASS_IN, r.ttl, rdataOf(r)))];
  return Buffer.concat([header(id, OPCODE_UPDATE, [1, prerequisites.length, updates.length]), question(zone, TYPES.SOA), ...prerequisites, ...updates]);
}

/**
 * A query (no recursion wanted: the server answers from its own zone) for
 * `type` records at `fqdn`. Unsigned: TSIG is appended after.
 *
 * @example
 * encodeQuery(0x1234, "_dnsauth.example.com", "TXT")
 */
export function encodeQuery(id: number, fqdn: string, type: keyof typeof TYPES): Buffer {
  return Buffer.concat([header(id, OPCODE_QUERY, [1, 0, 0]), question(fqdn, TYPES[type])]);
}

/** A record's RDATA in wire form: TXT as its character-strings, a CNAME's target as a name. */
export function rdataOf(record: Pick<RecordData, "type" | "value">): Buffer {
  return record.type === "TXT" ? Buffer.concat(txtStrings(record.value).map((chunk) => Buffer.concat([Buffer.from([chunk.length]), chunk]))) : canonicalWireName(record.value);
}

function encodePrerequisite(p: Prerequisite): Buffer[] {
  switch (p.kind) {
    case "rrset-absent":
      return [encodeRecord(p.fqdn, TYPES[p.type], CLASS_NONE, 0, Buffer.alloc(0))];
    case "name-unused":
      return [encodeRecord(p.fqdn, TYPES.ANY, CLASS_NONE, 0, Buffer.alloc(0))];
    case "rrset-equals":
      return p.rdata.map((rdata) => encodeRecord(p.fqdn, TYPES[p.type], CLASS_IN, 0, rdata));
  }
}

/** The header (RFC 1035 4.1.1): ID, opcode, and the first three section counts (the additional count is TSIG's business). */
function header(id: number, opcode: number, counts: [number, number, number]): Buffer {
  const out = Buffer.alloc(HEADER_BYTES);
  out.writeUInt16BE(id, 0);
  out.writeUInt16BE(opcode << 11, 2);
  counts.forEach((count, i) => out.writeUInt16BE(count, 4 + 2 * i));
  return out;
}

function question(name: string, type: number): Buffer {
  const fixed = Buffer.alloc(4);
  fixed.writeUInt16BE(type, 0);
  fixed.writeUInt16BE(CLASS_IN, 2);
  return Buffer.concat([canonicalWireName(name), fixed]);
}

function encodeRecord(name: string, type: number, klass: number, ttl: number, rdata: Buffer): Buffer {
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(type, 0);
  fixed.writeUInt16BE(klass, 2);
  fixed.writeUInt32BE(ttl, 4);
  fixed.writeUInt16BE(rdata.length, 8);
  return Buffer.concat([canonicalWireName(name), fixed, rdata]);
}

/** TXT content as character-strings of at most 255 bytes each (RFC 1035 3.3.14); a reader joins them back. */
function txtStrings(value: string): Buffer[] {
  const bytes = Buffer.from(value, "utf8");
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 255) chunks.push(bytes.subarray(i, i + 255));
  return chunks.length > 0 ? chunks : [Buffer.alloc(0)];
}

/** The header fields an update's answer is judged by (RFC 1035 4.1.1). */
export interface AnswerHeader {
  id: number;
  isResponse: boolean;
  opcode: number;
  truncated: boolean;
  rcode: number;
  counts: { questions: number; answers: number; authorities: number; additionals: number };
}

export function readHeader(message: Buffer): AnswerHeader {
  if (message.length < HEADER_BYTES) throw malformedAnswer(`${message.length} bytes, shorter than a DNS header`);
  const flags = message.readUInt16BE(2);
  return {
    id: message.readUInt16BE(0),
    isResponse: (flags & 0x8000) !== 0,
    opcode: (flags >> 11) & 0xf,
    truncated: (flags & 0x0200) !== 0,
    rcode: flags & 0xf,
    counts: {
      questions: message.readUInt16BE(4),
      answers: message.readUInt16BE(6),
      authorities: message.readUInt16BE(8),
      additionals: message.readUInt16BE(10),
    },
  };
}

/**
 * Where the message's last resource record starts (a TSIG record is always
 * the last, RFC 8945 5.1), or undefined when it has no additional record.
 */
export function lastAdditionalOffset(message: Buffer): number | undefined {
  const { counts } = readHeader(message);
  if (counts.additionals === 0) return undefined;
  let offset = HEADER_BYTES;
  for (let i = 0; i < counts.questions; i++) offset = skipQuestion(message, offset);
  const records = counts.answers + counts.authorities + counts.additionals;
  for (let i = 0; i < records - 1; i++) offset = skipRecord(message, offset);
  return offset;
}

/** The offset just past the (possibly compressed) name at `offset`. */
export function skipName(message: Buffer, offset: number): number {
  let at = offset;
  for (;;) {
    if (at >= message.length) throw malformedAnswer(`a name runs past the end of the message (offset ${offset})`);
    const length = message[at]!;
    if (length === 0) return at + 1;
    // A compression pointer (two bytes) ends the name where it stands.
    if ((length & 0xc0) === 0xc0) return at + 2;
    if ((length & 0xc0) !== 0) throw malformedAnswer(`unknown label type 0x${length.toString(16)} at offset ${at}`);
    at += 1 + length;
  }
}

/**
 * The name at `offset`, following compression pointers (RFC 1035 4.1.4), in
 * lower case without the trailing dot.
 */
export function readName(message: Buffer, offset: number): string {
  const labels: string[] = [];
  let at = offset;
  for (let jumps = 0; ; ) {
    if (at >= message.length) throw malformedAnswer(`a name runs past the end of the message (offset ${offset})`);
    const length = message[at]!;
    if (length === 0) return normaliseName(labels.join("."));
    if ((length & 0xc0) === 0xc0) {
      // A pointer loop would never end: a real name needs far fewer jumps.
      if (++jumps > 64 || at + 1 >= message.length) throw malformedAnswer(`a compressed name loops or is cut off (offset ${offset})`);
      at = ((length & 0x3f) << 8) | message[at + 1]!;
      continue;
    }
    if ((length & 0xc0) !== 0) throw malformedAnswer(`unknown label type 0x${length.toString(16)} at offset ${at}`);
    labels.push(message.toString("latin1", at + 1, checkedEnd(message, at + 1 + length)));
    at += 1 + length;
  }
}

function skipQuestion(message: Buffer, offset: number): number {
  return checkedEnd(message, skipName(message, offset) + 4);
}

/** The offset just past the resource record at `offset`. */
export function skipRecord(message: Buffer, offset: number): number {
  const fixed = checkedEnd(message, skipName(message, offset) + 10);
  return checkedEnd(message, fixed + message.readUInt16BE(fixed - 2));
}

function checkedEnd(message: Buffer, end: number): number {
  if (end > message.length) throw malformedAnswer(`a record runs past the end of the message (${end} > ${message.length} bytes)`);
  return end;
}
