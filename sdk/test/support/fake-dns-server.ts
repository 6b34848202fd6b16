/**
 * A scripted DNS UPDATE server for the sdk's unit tests (which run without
 * BIND): UDP and TCP on one loopback port, it checks each request's TSIG
 * with the package's own code, records what the prerequisite and update
 * sections say, and
 * answers as told — any RCODE or TSIG error, truncated, unsigned, with a
 * tampered MAC, or not at all. Its behaviour against the real thing is what
 * tests/e2e/dns/ checks with BIND.
 */
import * as dgram from "node:dgram";
import * as dnsPacket from "dns-packet";
import * as net from "node:net";
import { HEADER_BYTES, rdataOf, readName, skipName, skipRecord } from "../../src/dns/message.js";
import { canonicalWireName } from "../../src/dns/names.js";
import { signMessage, splitSigned, verifyMessage, type TsigKey } from "../../src/dns/tsig.js";

/** One RR of a received update section. */
export interface ReceivedRecord {
  name: string;
  type: string;
  /** `IN` (add), `NONE` (delete this RR), `ANY` (delete the RRset). */
  class: string;
  ttl: number;
  /** TXT strings joined, or the CNAME target. */
  data: string;
}

export interface ReceivedUpdate {
  transport: "udp" | "tcp";
  /** The opcode: 5 an UPDATE, 0 a query. */
  opcode: number;
  /** The zone section's name (a query's: the name asked about). */
  zone: string;
  /** The prerequisite section (RFC 2136 2.4), classes and types as sent. */
  prerequisites: ReceivedRecord[];
  records: ReceivedRecord[];
  /** What checking the request's TSIG with the server's key gave. */
  tsig: ReturnType<typeof verifyMessage>;
}

/** How to answer one request. */
export interface Reply {
  rcode?: number;
  /** A TSIG error code (16 BADSIG, 17 BADKEY, 18 BADTIME); the answer then has RCODE NOTAUTH and, except for BADTIME, an empty MAC. */
  tsigError?: number;
  /** Over UDP: set TC and send no signature (the client must retry over TCP). */
  truncate?: boolean;
  /** No TSIG record at all. */
  unsigned?: boolean;
  /** Flip a bit of the MAC. */
  tamper?: boolean;
  /** Sign with this key instead of the server's. */
  signWith?: TsigKey;
  /** Never answer. */
  silent?: boolean;
  /** The answer section (a query's answer): records at the question's name (TTL 60 unless given). */
  answers?: { type: "TXT" | "CNAME"; value: string; ttl?: number }[];
  /** After the answers, the RRSIG and NSEC records a signed zone answers an ANY query with. */
  dnssec?: boolean;
}

export interface FakeDnsServer {
  address: string;
  port: number;
  received: ReceivedUpdate[];
  /** The next answers, in order; once used up, NOERROR signed. */
  replies: Reply[];
  close(): Promise<void>;
}

const CLASS_NAMES: Record<number, string> = { 1: "IN", 254: "NONE", 255: "ANY" };

export async function startFakeDnsServer(key: TsigKey): Promise<FakeDnsServer> {
  const received: ReceivedUpdate[] = [];
  const replies: Reply[] = [];
  const tcp = net.createServer();
  await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
  const port = (tcp.address() as net.AddressInfo).port;
  const udp = dgram.createSocket("udp4");
  await new Promise<void>((resolve) => udp.bind(port, "127.0.0.1", resolve));

  const handle = (request: Buffer, transport: "udp" | "tcp"): Buffer | undefined => {
    const tsig = verifyMessage(request, key, { nowSeconds: Math.floor(Date.now() / 1000) });
    const { prerequisites, records } = sections(request);
    received.push({ transport, opcode: (request.readUInt16BE(2) >> 11) & 0xf, zone: readName(request, HEADER_BYTES), prerequisites, records, tsig });
    const reply = replies.shift() ?? {};
    if (reply.silent) return undefined;
    return answer(request, key, reply, transport);
  };

  udp.on("message", (request, from) => {
    const out = handle(request, "udp");
    if (out) udp.send(out, from.port, from.address);
  });
  tcp.on("connection", (socket) => {
    let buffered = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length < 2 || buffered.length < 2 + buffered.readUInt16BE(0)) return;
      const out = handle(buffered.subarray(2, 2 + buffered.readUInt16BE(0)), "tcp");
      if (!out) return;
      const length = Buffer.alloc(2);
      length.writeUInt16BE(out.length);
      socket.end(Buffer.concat([length, out]));
    });
  });
  return {
    address: `127.0.0.1:${port}`,
    port,
    received,
    replies,
    close: async () => {
      udp.close();
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}

/**
 * The prerequisite and update sections, read by hand: dns-packet names
 * neither class NONE nor the empty RDATA of a prerequisite.
 */
function sections(request: Buffer): { prerequisites: ReceivedRecord[]; records: ReceivedRecord[] } {
  let offset = skipName(request, HEADER_BYTES) + 4;
  const read = (count: number): ReceivedRecord[] =>
    Array.from({ length: count }, () => {
      const at = skipName(request, offset);
      const type = request.readUInt16BE(at);
      const klass = request.readUInt16BE(at + 2);
      const rdlength = request.readUInt16BE(at + 8);
      const rdata = request.subarray(at + 10, at + 10 + rdlength);
      const record = { name: readName(request, offset), type: TYPE_NAMES[type] ?? String(type), class: CLASS_NAMES[klass] ?? String(klass), ttl: request.readUInt32BE(at + 4), data: dataOf(request, type, at + 10, rdata) };
      offset = skipRecord(request, offset);
      return record;
    });
  const prerequisites = read(request.readUInt16BE(6));
  return { prerequisites, records: read(request.readUInt16BE(8)) };
}

const TYPE_NAMES: Record<number, string> = { 5: "CNAME", 16: "TXT", 255: "ANY" };

function dataOf(message: Buffer, type: number, at: number, rdata: Buffer): string {
  if (rdata.length === 0) return "";
  if (type === 5) return readName(message, at);
  const chunks: Buffer[] = [];
  for (let i = 0; i < rdata.length; i += 1 + rdata[i]!) chunks.push(rdata.subarray(i + 1, i + 1 + rdata[i]!));
  return Buffer.concat(chunks).toString();
}

/** The answer: the request's header and zone section, QR and the RCODE set, the reply's answers, then the TSIG record as the reply says. */
function answer(request: Buffer, key: TsigKey, reply: Reply, transport: "udp" | "tcp"): Buffer {
  const split = splitSigned(request);
  const zoneEnd = skipName(request, HEADER_BYTES) + 4;
  const name = readName(request, HEADER_BYTES);
  const records = (reply.answers ?? []).map((a) => {
    const rdata = rdataOf(a);
    const fixed = Buffer.alloc(10);
    fixed.writeUInt16BE(a.type === "TXT" ? 16 : 5, 0);
    fixed.writeUInt16BE(1, 2);
    fixed.writeUInt32BE(a.ttl ?? 60, 4);
    fixed.writeUInt16BE(rdata.length, 8);
    return Buffer.concat([canonicalWireName(name), fixed, rdata]);
  });
  if (reply.dnssec) records.push(...signedZoneRecords(name, reply.answers ?? []));
  const message = Buffer.concat([request.subarray(0, zoneEnd), ...records]);
  const rcode = reply.tsigError ? 9 : (reply.rcode ?? 0);
  const opcode = (request.readUInt16BE(2) >> 11) & 0xf;
  message.writeUInt16BE(0x8000 | (opcode << 11) | (reply.truncate && transport === "udp" ? 0x0200 : 0) | rcode, 2);
  message.writeUInt16BE(records.length, 6);
  message.writeUInt16BE(0, 8);
  message.writeUInt16BE(0, 10);
  if (reply.unsigned || (reply.truncate && transport === "udp")) return message;
  const requestMac = split?.record.mac ?? Buffer.alloc(0);
  const timeSigned = split?.record.timeSigned ?? Math.floor(Date.now() / 1000);
  if (reply.tsigError && reply.tsigError !== 18) {
    // BADSIG/BADKEY: the server cannot sign; the TSIG record carries the error and an empty MAC.
    const { signed } = signMessage(message, key, { timeSigned });
    return withEmptyMac(signed, reply.tsigError);
  }
  const signingKey = reply.signWith ?? key;
  const { signed } = signMessage(message, signingKey, { timeSigned: reply.tsigError === 18 ? Math.floor(Date.now() / 1000) : timeSigned, priorMac: requestMac });
  if (reply.tsigError === 18) return withError(signed, 18);
  if (reply.tamper) signed[signed.length - 10] ^= 0x01;
  return signed;
}

/** Rewrites the last TSIG record's error field (Original ID, Error, Other Len are its last six bytes when Other Data is empty). */
function withError(signed: Buffer, error: number): Buffer {
  const out = Buffer.from(signed);
  out.writeUInt16BE(error, out.length - 4);
  return out;
}

/** A TSIG record with MAC size 0 and the error set, as servers send BADSIG/BADKEY. */
function withEmptyMac(signed: Buffer, error: number): Buffer {
  const split = splitSigned(signed)!;
  const macAt = signed.length - 6 - split.record.mac.length;
  const before = Buffer.from(signed.subarray(0, macAt));
  // MAC size and RDLENGTH shrink by the MAC's length.
  before.writeUInt16BE(0, macAt - 2);
  const tail = Buffer.from(signed.subarray(signed.length - 6));
  tail.writeUInt16BE(error, 2);
  const out = Buffer.concat([before, tail]);
  const rdlengthAt = skipName(out, split.unsigned.length) + 8;
  out.writeUInt16BE(out.readUInt16BE(rdlengthAt) - split.record.mac.length, rdlengthAt);
  return out;
}

/** An RRSIG over each answered type and the name's NSEC record with its RRSIG, as a signed zone holds them (the signatures are not real). */
function signedZoneRecords(name: string, answers: readonly { type: "TXT" | "CNAME" }[]): Buffer[] {
  const types = [...new Set(answers.map((a) => a.type))];
  const rrsig = (typeCovered: string): dnsPacket.Answer =>
    ({
      name,
      type: "RRSIG",
      ttl: 60,
      data: { typeCovered, algorithm: 13, labels: name.split(".").length, originalTTL: 60, expiration: 2_000_000_000, inception: 1_700_000_000, keyTag: 4711, signersName: "example.com", signature: Buffer.alloc(64, 1) },
    }) as dnsPacket.Answer;
  const nsec = { name, type: "NSEC", ttl: 60, data: { nextDomain: `z.${name}`, rrtypes: [...types, "RRSIG", "NSEC"] } } as dnsPacket.Answer;
  return [...types.map(rrsig), nsec, rrsig("NSEC")].map((rr) => dnsPacket.answer.encode(rr));
}
