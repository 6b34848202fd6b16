/**
 * A scripted DNS UPDATE server for the sdk's unit tests (which run without
 * BIND): UDP and TCP on one loopback port, it checks each request's TSIG
 * with the package's own code, records what the update section says, and
 * answers as told — any RCODE or TSIG error, truncated, unsigned, with a
 * tampered MAC, or not at all. Its behaviour against the real thing is what
 * tests/e2e/dns/ checks with BIND.
 */
import * as dgram from "node:dgram";
import * as net from "node:net";
import * as dnsPacket from "dns-packet";
import { HEADER_BYTES, OPCODE_UPDATE, skipName } from "../../src/dns/message.js";
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
  zone: string;
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
    const decoded = dnsPacket.decode(request);
    received.push({ transport, zone: decoded.questions?.[0]?.name ?? "", records: updateSection(request), tsig });
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

/** The update section with each RR's class as sent (dns-packet would not name NONE). */
function updateSection(request: Buffer): ReceivedRecord[] {
  const decoded = dnsPacket.decode(request);
  let offset = skipName(request, HEADER_BYTES) + 4;
  for (let i = 0; i < (decoded.answers ?? []).length; i++) offset = nextRecord(request, offset);
  return (decoded.authorities ?? []).map((rr) => {
    const klass = request.readUInt16BE(skipName(request, offset) + 2);
    offset = nextRecord(request, offset);
    const a = rr as { name: string; type: string; ttl?: number; data: unknown };
    const data = Array.isArray(a.data) ? (a.data as Buffer[]).map((b) => b.toString()).join("") : String(a.data);
    return { name: a.name, type: a.type, class: CLASS_NAMES[klass] ?? String(klass), ttl: a.ttl ?? 0, data };
  });
}

function nextRecord(message: Buffer, offset: number): number {
  const fixed = skipName(message, offset) + 10;
  return fixed + message.readUInt16BE(fixed - 2);
}

/** The answer: the request's header and zone section, QR and the RCODE set, then the TSIG record as the reply says. */
function answer(request: Buffer, key: TsigKey, reply: Reply, transport: "udp" | "tcp"): Buffer {
  const split = splitSigned(request);
  const zoneEnd = skipName(request, HEADER_BYTES) + 4;
  const message = Buffer.from(request.subarray(0, zoneEnd));
  const rcode = reply.tsigError ? 9 : (reply.rcode ?? 0);
  message.writeUInt16BE(0x8000 | (OPCODE_UPDATE << 11) | (reply.truncate && transport === "udp" ? 0x0200 : 0) | rcode, 2);
  message.writeUInt16BE(0, 6);
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
