/**
 * RFC 2136 UPDATE messages: encoding one (dns-packet writes the header,
 * zone section and resource records) and reading as much of an answer as an
 * update needs (the header, and where the last record starts, for TSIG).
 */
import * as dnsPacket from "dns-packet";
import { malformedAnswer } from "./errors.js";

/** The DNS opcode of an UPDATE (RFC 2136 1.3). */
export const OPCODE_UPDATE = 5;
export const CLASS_NONE = 254;
export const HEADER_BYTES = 12;

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

/** What one UPDATE does, in this order: delete each RR of `deletes`, then add each of `adds`. */
export interface UpdateChanges {
  deletes: readonly RecordData[];
  adds: readonly RecordData[];
}

/**
 * The UPDATE message for `zone`: no prerequisites, the update section
 * deleting exactly the RRs of `deletes` (class NONE, TTL 0: "delete an RR
 * from an RRset", RFC 2136 2.5.4 — never the whole RRset) then adding those
 * of `adds` (class IN, RFC 2136 2.5.1). Unsigned: TSIG is appended after.
 *
 * dns-packet knows no class NONE (254): its encoder writes 0 for it without
 * complaint. The deletes are therefore encoded as class IN and their class
 * field set to NONE afterwards, at offsets found by walking the encoded
 * message.
 *
 * @example
 * encodeUpdate(0x1234, "example.com", { deletes: [], adds: [{ fqdn: "_dnsauth.example.com", type: "TXT", value: "token", ttl: 60 }] })
 */
export function encodeUpdate(id: number, zone: string, changes: UpdateChanges): Buffer {
  const rr = (r: RecordData, ttl: number): dnsPacket.Answer =>
    r.type === "TXT"
      ? { name: r.fqdn, type: "TXT", class: "IN", ttl, data: txtStrings(r.value) }
      : { name: r.fqdn, type: "CNAME", class: "IN", ttl, data: r.value };
  const message = dnsPacket.encode({
    id,
    type: "query",
    flags: OPCODE_UPDATE << 11,
    questions: [{ name: zone, type: "SOA", class: "IN" }],
    answers: [],
    authorities: [...changes.deletes.map((r) => rr(r, 0)), ...changes.adds.map((r) => rr(r, r.ttl))],
    additionals: [],
  });
  let offset = skipQuestion(message, HEADER_BYTES);
  for (let i = 0; i < changes.deletes.length; i++) {
    const classAt = skipName(message, offset) + 2;
    message.writeUInt16BE(CLASS_NONE, classAt);
    offset = skipRecord(message, offset);
  }
  return message;
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
    if (length === 0) return labels.join(".").toLowerCase();
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
