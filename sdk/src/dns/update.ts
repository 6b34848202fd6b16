/**
 * Sending one TSIG-signed RFC 2136 UPDATE and judging the answer: success
 * only with the server's valid signature; every error answer becomes a
 * {@link DnsUpdateError} naming the setting to fix.
 */
import { randomInt } from "node:crypto";
import {
  badAnswer,
  badSignature,
  clockSkew,
  DnsUpdateError,
  forgedAnswer,
  noAnswer,
  notAuthoritative,
  outsideZone,
  unknownKey,
  unsignedAnswer,
  updateFailed,
  updateRefused,
  type UpdateDescription,
} from "./errors.js";
import { encodeUpdate, OPCODE_UPDATE, readHeader, type UpdateChanges } from "./message.js";
import { normaliseDnsName } from "./names.js";
import { formatServer, parseServer } from "./server-address.js";
import { exchange, type Transport } from "./transport.js";
import { isTsigAlgorithm, parseTsigSecret, serverTimeOf, signMessage, verifyMessage, TSIG_FUDGE_SECONDS, type TsigAlgorithm, type TsigKey } from "./tsig.js";

export type { RecordData, UpdateChanges } from "./message.js";

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
 * Sends one UPDATE for `target.zone` that deletes `changes.deletes` and adds
 * `changes.adds` (all or nothing at the server), signed with TSIG, over UDP,
 * again over TCP when the answer comes back truncated. Resolves only on
 * NOERROR with a signature that verifies with the same key.
 *
 * @example
 * await sendUpdate(
 *   { server: "127.0.0.1:53", zone: "example.com", tsigKeyName: "acme.", tsigAlgorithm: "hmac-sha256", tsigSecret },
 *   { deletes: [], adds: [{ fqdn: "_dnsauth.example.com", type: "TXT", value: token, ttl: 60 }] },
 * );
 */
export async function sendUpdate(target: UpdateTarget, changes: UpdateChanges, options: UpdateOptions = {}): Promise<UpdateResult> {
  const t = describe(target, changes);
  const key = keyOf(target);
  const server = parseServer(target.server);
  if ("error" in server) throw new TypeError(`server: ${JSON.stringify(target.server)} ${server.error}`);
  const now = options.now ?? Date.now;
  const zone = normaliseDnsName(target.zone);
  let transport: Transport | undefined;
  for (;;) {
    const timeSigned = Math.floor(now() / 1000);
    const id = randomInt(0, 0x10000);
    const { signed, mac } = signMessage(encodeUpdate(id, zone, changes), key, { timeSigned });
    transport ??= signed.length > UDP_LIMIT ? "tcp" : "udp";
    let answer: Buffer;
    try {
      answer = await exchange(server, signed, { transport, timeoutMs: options.timeoutMs ?? 3_000, tries: options.tries ?? 3 });
    } catch (cause) {
      const why = cause instanceof Error ? cause.message : String(cause);
      throw noAnswer(t, `no answer from ${formatServer(server)} over ${transport.toUpperCase()}: ${why}`, cause);
    }
    try {
      const header = readHeader(answer);
      // A truncated answer holds no verifiable signature: the same changes go again over TCP,
      // signed afresh. Applying them twice is harmless (an add of a present RR, a delete of
      // an absent one, changes nothing).
      if (header.truncated && transport === "udp") {
        transport = "tcp";
        continue;
      }
      // UDP answers are matched by ID already; over TCP the connection is ours, but the ID must still be the update's.
      if (header.id !== id) throw forgedAnswer(t, `the answer's ID ${header.id} is not the update's ${id}`);
      judge(t, answer, key, { requestMac: mac, signedAt: timeSigned, nowSeconds: Math.floor(now() / 1000) });
      return { transport };
    } catch (error) {
      // Reading past the end of a short answer throws a RangeError: malformed too.
      throw error instanceof DnsUpdateError && error.code !== "MALFORMED" ? error : badAnswer(t, error);
    }
  }
}

/** Throws unless the answer is a NOERROR answer to an UPDATE, signed with `key` over our request. */
function judge(t: UpdateDescription, answer: Buffer, key: TsigKey, times: { requestMac: Buffer; signedAt: number; nowSeconds: number }): void {
  const header = readHeader(answer);
  if (!header.isResponse || header.opcode !== OPCODE_UPDATE) throw forgedAnswer(t, `the answer is not an UPDATE response (opcode ${header.opcode})`);
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
    case "REFUSED":
      throw updateRefused(t);
    case "NOTAUTH":
      throw notAuthoritative(t);
    case "NOTZONE":
      throw outsideZone(t);
    default:
      throw updateFailed(t, rcode);
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

function describe(target: UpdateTarget, changes: UpdateChanges): UpdateDescription {
  const first = changes.adds[0] ?? changes.deletes[0];
  const verbs = [changes.deletes.length > 0 ? "delete" : "", changes.adds.length > 0 ? "add" : ""].filter(Boolean).join(" + ");
  return {
    server: target.server,
    zone: normaliseDnsName(target.zone),
    keyName: target.tsigKeyName,
    algorithm: target.tsigAlgorithm,
    action: first ? `${verbs} ${first.type} ${first.fqdn}` : "empty",
    fqdn: first?.fqdn ?? "",
    type: first?.type ?? "",
  };
}
