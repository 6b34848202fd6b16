/**
 * Sending one TSIG-signed RFC 2136 UPDATE (or a signed query reading a name
 * back) and judging the answer: success only with the server's valid
 * signature; every error answer becomes a {@link DnsUpdateError} naming the
 * setting to fix.
 */
import { randomInt } from "node:crypto";
import * as dnsPacket from "dns-packet";
import {
  badAnswer,
  badSignature,
  clockSkew,
  DnsUpdateError,
  forgedAnswer,
  noAnswer,
  notAuthoritative,
  outsideZone,
  prerequisiteFailed,
  unknownKey,
  unsignedAnswer,
  updateFailed,
  updateRefused,
  type UpdateDescription,
} from "./errors.js";
import { encodeQuery, encodeUpdate, OPCODE_QUERY, OPCODE_UPDATE, rdataOf, readHeader, type UpdateChanges } from "./message.js";
import { normaliseName } from "../rules/names.js";
import { formatServer, parseServer } from "./server-address.js";
import { exchange, type Transport } from "./transport.js";
import { isTsigAlgorithm, parseTsigSecret, serverTimeOf, signMessage, splitSigned, verifyMessage, TSIG_FUDGE_SECONDS, type TsigAlgorithm, type TsigKey } from "./tsig.js";

export type { Prerequisite, RecordData, UpdateChanges } from "./message.js";

/** Where an update goes and the key it is signed with; the fields are named as the `Rfc2136Record` inputs. */
export interface UpdateTarget {
  /** `host:port` of the zone's primary server (port 53 when left out). */
  server: string;
  /** The zone apex: `example.com`. */
  zone: string;
  tsigKeyName: string;
  tsigAlgorithm: TsigAlgorithm;
  /** Base64. SECRET: never logged, never in an error. */
  tsigSecret: string;
}

export interface UpdateOptions {
  /** Per UDP try, and for a TCP exchange (default 3000 ms). */
  timeoutMs?: number;
  /** UDP sends before giving up (default 3). */
  tries?: number;
  /**
   * The clock the signature's time comes from, in milliseconds (default
   * `Date.now`). Tests shift it to provoke BADTIME; nothing else should.
   */
  now?: () => number;
}

/** How the update got through. */
export interface UpdateResult {
  transport: Transport;
}

// A message longer than this does not fit a plain UDP datagram (RFC 1035 4.2.1): TCP at once.
const UDP_LIMIT = 512;

const RCODES: Readonly<Record<number, string>> = {
  0: "NOERROR",
  1: "FORMERR",
  2: "SERVFAIL",
  3: "NXDOMAIN",
  4: "NOTIMP",
  5: "REFUSED",
  6: "YXDOMAIN",
  7: "YXRRSET",
  8: "NXRRSET",
  9: "NOTAUTH",
  10: "NOTZONE",
};

/**
 * Sends one UPDATE for `target.zone` that checks `changes.prerequisites`,
 * deletes `changes.deletes` and adds `changes.adds` (all or nothing at the
 * server), signed with TSIG, over UDP, again over TCP when the answer comes
 * back truncated. Resolves only on NOERROR with a signature that verifies
 * with the same key; a prerequisite that does not hold is a
 * {@link DnsUpdateError} with code `PREREQUISITE` (nothing was applied by
 * the copy answered; `mayHaveApplied` when an earlier copy went unanswered).
 *
 * @example
 * await sendUpdate(
 *   { server: "127.0.0.1:53", zone: "example.com", tsigKeyName: "acme.", tsigAlgorithm: "hmac-sha256", tsigSecret },
 *   { deletes: [], adds: [{ fqdn: "_dnsauth.example.com", type: "TXT", value: token, ttl: 60 }] },
 * );
 */
export async function sendUpdate(target: UpdateTarget, changes: UpdateChanges, options: UpdateOptions = {}): Promise<UpdateResult> {
  const t = describe(target, changes);
  const zone = normaliseName(target.zone);
  const { transport } = await signedExchange(target, t, (id) => encodeUpdate(id, zone, changes), OPCODE_UPDATE, options);
  return { transport };
}

/** One record at a name, as a query read it back. */
export interface RecordAtName {
  /** `TXT`, `CNAME`, `A`... */
  type: string;
  /** Seconds; one RRset's records share it (RFC 2181 5.2). */
  ttl: number;
  /** Wire-form RDATA for TXT (its character-strings as the server holds them) and CNAME (the target as a name). */
  rdata?: Buffer;
  /** The value in words, for messages: a TXT's strings joined, a CNAME's target, an address. */
  text: string;
}

/**
 * Record types of a signed zone's DNSSEC machinery (RFC 4034, 5155, 7344 and
 * their forerunners): signatures over and denials of the data at a name, not
 * data of their own. A CNAME shares its name with them (RFC 4035 2.5), so
 * they are never in the way of one.
 */
export const DNSSEC_TYPES: ReadonlySet<string> = new Set(["RRSIG", "NSEC", "NSEC3", "NSEC3PARAM", "DNSKEY", "CDS", "CDNSKEY", "SIG", "KEY", "NXT"]);

/**
 * The records the zone's server holds at `fqdn` for `type` (`ANY`: of every
 * type it lists), read with a TSIG-signed query to the server the updates
 * go to, and believed only with its valid signature. An answer for a TXT
 * name that is a CNAME holds the CNAME (RFC 1034 3.6.2). DNSSEC records
 * ({@link DNSSEC_TYPES}: an ANY answer in a signed zone holds them) are left
 * out: they are the zone's signing, not records at the name.
 *
 * @example
 * await readRecords(target, "_dnsauth.example.com", "TXT") // [{ type: "TXT", rdata: <05 74 6f 6b 65 6e>, text: "token" }]
 */
export async function readRecords(target: UpdateTarget, fqdn: string, type: "TXT" | "ANY", options: UpdateOptions = {}): Promise<RecordAtName[]> {
  const name = normaliseName(fqdn);
  const t = { ...describeTarget(target), request: "query", action: `${type} ${name}`, fqdn: name, type };
  const { answer } = await signedExchange(target, t, (id) => encodeQuery(id, name, type), OPCODE_QUERY, options);
  const decoded = dnsPacket.decode(splitSigned(answer)!.unsigned);
  return (decoded.answers ?? []).filter((rr) => normaliseName(rr.name) === name && !DNSSEC_TYPES.has(rr.type)).map(recordAtName);
}

function recordAtName(rr: dnsPacket.Answer): RecordAtName {
  const data = (rr as { data?: unknown }).data;
  const ttl = (rr as { ttl?: number }).ttl ?? 0;
  if (rr.type === "TXT") {
    const chunks = (Array.isArray(data) ? data : [data]).map((c) => (Buffer.isBuffer(c) ? c : Buffer.from(String(c))));
    return { type: "TXT", ttl, rdata: Buffer.concat(chunks.flatMap((c) => [Buffer.from([c.length]), c])), text: JSON.stringify(Buffer.concat(chunks).toString("utf8")) };
  }
  if (rr.type === "CNAME") return { type: "CNAME", ttl, rdata: rdataOf({ type: "CNAME", value: String(data) }), text: normaliseName(String(data)) };
  return { type: rr.type, ttl, text: typeof data === "string" ? data : "" };
}

/**
 * Signs the message `encode` builds, exchanges it (UDP, TCP after a
 * truncated answer, each try signed afresh) and returns the answer once
 * {@link judge} accepts it.
 */
async function signedExchange(
  target: UpdateTarget,
  t: UpdateDescription,
  encode: (id: number) => Buffer,
  opcode: number,
  options: UpdateOptions,
): Promise<{ answer: Buffer; transport: Transport }> {
  const key = keyOf(target);
  const server = parseServer(target.server);
  if ("error" in server) throw new TypeError(`server: ${JSON.stringify(target.server)} ${server.error}`);
  const now = options.now ?? Date.now;
  let transport: Transport | undefined;
  // Every copy of the message that went out: with more than one, an earlier copy may have been applied.
  let sends = 0;
  for (;;) {
    const timeSigned = Math.floor(now() / 1000);
    const id = randomInt(0, 0x10000);
    const { signed, mac } = signMessage(encode(id), key, { timeSigned });
    transport ??= signed.length > UDP_LIMIT ? "tcp" : "udp";
    let answer: Buffer;
    try {
      const exchanged = await exchange(server, signed, { transport, timeoutMs: options.timeoutMs ?? 3_000, tries: options.tries ?? 3 });
      answer = exchanged.answer;
      sends += exchanged.sends;
    } catch (cause) {
      const why = cause instanceof Error ? cause.message : String(cause);
      throw noAnswer(t, `no answer from ${formatServer(server)} over ${transport.toUpperCase()}: ${why}`, cause);
    }
    try {
      const header = readHeader(answer);
      // A truncated answer holds no verifiable signature: the same message goes again over TCP,
      // signed afresh. Applying an update twice is harmless (an add of a present RR, a delete of
      // an absent one, changes nothing; its prerequisites then fail, which is reported as such).
      if (header.truncated && transport === "udp") {
        transport = "tcp";
        continue;
      }
      // UDP answers are matched by ID already; over TCP the connection is ours, but the ID must still be the request's.
      if (header.id !== id) throw forgedAnswer(t, `the answer's ID ${header.id} is not the request's ${id}`);
      judge(t, answer, key, opcode, { requestMac: mac, signedAt: timeSigned, nowSeconds: Math.floor(now() / 1000), resent: sends > 1 });
      return { answer, transport };
    } catch (error) {
      // Reading past the end of a short answer throws a RangeError: malformed too.
      throw error instanceof DnsUpdateError && error.code !== "MALFORMED" ? error : badAnswer(t, error);
    }
  }
}

/** RFC 2136 3.2.5: the answers of an update whose prerequisites do not hold. */
const PREREQUISITE_RCODES = new Set(["NXDOMAIN", "YXDOMAIN", "YXRRSET", "NXRRSET"]);

/** Throws unless the answer is a NOERROR answer (or, to a query, NXDOMAIN) with `opcode`, signed with `key` over our request. */
function judge(t: UpdateDescription, answer: Buffer, key: TsigKey, opcode: number, times: { requestMac: Buffer; signedAt: number; nowSeconds: number; resent: boolean }): void {
  const header = readHeader(answer);
  if (!header.isResponse || header.opcode !== opcode) throw forgedAnswer(t, `the answer is not a response to the ${opcode === OPCODE_UPDATE ? "UPDATE" : "query"} (opcode ${header.opcode})`);
  const rcode = RCODES[header.rcode] ?? `RCODE ${header.rcode}`;
  const verdict = verifyMessage(answer, key, { nowSeconds: times.nowSeconds, priorMac: times.requestMac });
  // BADSIG/BADKEY answers carry an empty MAC (the server could not sign them): they
  // are believed all the same, because an error can only stop us, never make a change pass.
  if (!verdict.ok && verdict.reason === "tsig-error") {
    switch (verdict.detail) {
      case "BADSIG":
        throw badSignature(t);
      case "BADKEY":
        throw unknownKey(t);
      case "BADTIME":
        throw clockSkew(t, { signedAt: times.signedAt, serverTime: serverTimeOf(verdict.record), fudge: TSIG_FUDGE_SECONDS });
      default:
        throw updateFailed(t, `${rcode} with TSIG error ${verdict.detail}`);
    }
  }
  switch (rcode) {
    case "NOERROR":
      break;
    case "NXDOMAIN":
      // A query's NXDOMAIN says the name holds nothing: an answer, judged by its signature below.
      if (opcode === OPCODE_QUERY) break;
      throw prerequisiteFailed(t, rcode, times.resent);
    case "REFUSED":
      throw updateRefused(t);
    case "NOTAUTH":
      throw notAuthoritative(t);
    case "NOTZONE":
      throw outsideZone(t);
    default:
      throw PREREQUISITE_RCODES.has(rcode) && opcode === OPCODE_UPDATE ? prerequisiteFailed(t, rcode, times.resent) : updateFailed(t, rcode);
  }
  if (!verdict.ok) throw verdict.reason === "unsigned" ? unsignedAnswer(t, rcode) : forgedAnswer(t, verdict.detail);
}

function keyOf(target: UpdateTarget): TsigKey {
  if (!isTsigAlgorithm(target.tsigAlgorithm)) throw new TypeError(`tsigAlgorithm: ${JSON.stringify(target.tsigAlgorithm)} is not a TSIG algorithm this package signs with`);
  const secret = parseTsigSecret(target.tsigSecret);
  // The value is never shown: it is the secret.
  if (!secret) throw new TypeError("tsigSecret: not base64 (its value is not shown)");
  return { name: target.tsigKeyName, algorithm: target.tsigAlgorithm, secret };
}

function describeTarget(target: UpdateTarget): Pick<UpdateDescription, "server" | "zone" | "keyName" | "algorithm"> {
  return { server: target.server, zone: normaliseName(target.zone), keyName: target.tsigKeyName, algorithm: target.tsigAlgorithm };
}

function describe(target: UpdateTarget, changes: UpdateChanges): UpdateDescription {
  const first = changes.adds[0] ?? changes.deletes[0];
  const verbs = [changes.deletes.length > 0 ? "delete" : "", changes.adds.length > 0 ? "add" : ""].filter(Boolean).join(" + ");
  return {
    ...describeTarget(target),
    request: "RFC 2136 update",
    action: first ? `${verbs} ${first.type} ${first.fqdn}` : "empty",
    fqdn: first?.fqdn ?? "",
    type: first?.type ?? "",
  };
}
