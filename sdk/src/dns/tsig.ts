/**
 * TSIG (RFC 8945): signing a DNS message with a shared secret and checking
 * the signature of the answer. dns-packet, which encodes the messages, does
 * not sign them, so TSIG is written here, to the RFC, and tested against
 * BIND (sdk/test/dns/ holds messages nsupdate and named signed).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { malformedAnswer } from "./errors.js";
import { lastAdditionalOffset, readHeader, readName, skipName } from "./message.js";
import { normaliseName } from "../rules/names.js";
import { canonicalWireName } from "./names.js";

/** The HMAC algorithms TSIG defines (RFC 8945 6), by the names BIND's key statement uses. */
export const TSIG_ALGORITHMS = {
  "hmac-sha256": "sha256",
  "hmac-sha384": "sha384",
  "hmac-sha512": "sha512",
  "hmac-sha224": "sha224",
  "hmac-sha1": "sha1",
} as const;

export type TsigAlgorithm = keyof typeof TSIG_ALGORITHMS;

export const DEFAULT_TSIG_ALGORITHM: TsigAlgorithm = "hmac-sha256";

/** The window a signature is valid in around its time (RFC 8945 10 recommends 300 s). */
export const TSIG_FUDGE_SECONDS = 300;

/** TSIG's RR type and the error codes of its Error field (RFC 8945 4.2, 5.2). */
export const TYPE_TSIG = 250;
const CLASS_ANY = 255;
export const TSIG_ERRORS: Readonly<Record<number, string>> = { 16: "BADSIG", 17: "BADKEY", 18: "BADTIME", 22: "BADTRUNC" };

/** A shared key: its name and algorithm as the server's configuration has them, and the decoded secret. */
export interface TsigKey {
  name: string;
  algorithm: TsigAlgorithm;
  secret: Buffer;
}

/** The fields of a TSIG record (RFC 8945 4.2). Names are normalised (lower case, no trailing dot). */
export interface TsigRecord {
  keyName: string;
  algorithm: string;
  /** Seconds since the epoch (48 bits on the wire). */
  timeSigned: number;
  fudge: number;
  mac: Buffer;
  originalId: number;
  error: number;
  otherData: Buffer;
}

export function isTsigAlgorithm(name: string): name is TsigAlgorithm {
  return Object.hasOwn(TSIG_ALGORITHMS, name);
}

/**
 * The secret's bytes when `text` is strict base64 (what BIND's key
 * statement and `tsig-keygen` write), else undefined.
 *
 * @example
 * parseTsigSecret("c2VjcmV0") // <Buffer 73 65 63 72 65 74>
 * parseTsigSecret("not base64!") // undefined
 */
export function parseTsigSecret(text: string): Buffer | undefined {
  const compact = text.replace(/\s+/g, "");
  if (compact === "" || compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return undefined;
  return Buffer.from(compact, "base64");
}

/**
 * Signs `message` (its additional count not yet counting the TSIG record):
 * the MAC covers the message and the TSIG variables (RFC 8945 4.3.3), and
 * the TSIG record is appended. `priorMac` is the request's MAC when signing
 * an answer.
 *
 * @example
 * const { signed, mac } = signMessage(update, key, { timeSigned: Math.floor(Date.now() / 1000) });
 */
export function signMessage(message: Buffer, key: TsigKey, options: { timeSigned: number; fudge?: number; priorMac?: Buffer }): { signed: Buffer; mac: Buffer } {
  const fields = {
    keyName: normaliseName(key.name),
    algorithm: key.algorithm,
    timeSigned: options.timeSigned,
    fudge: options.fudge ?? TSIG_FUDGE_SECONDS,
    originalId: message.readUInt16BE(0),
    error: 0,
    otherData: Buffer.alloc(0),
  };
  const mac = computeMac(key, message, fields, options.priorMac);
  const signed = Buffer.concat([message, encodeTsigRecord({ ...fields, mac })]);
  signed.writeUInt16BE(readHeader(message).counts.additionals + 1, 10);
  return { signed, mac };
}

/**
 * The message as it was before its TSIG record was added (the record taken
 * off, the additional count lowered, the original ID put back: what the MAC
 * covers), and the record; undefined when the last record is not TSIG.
 */
export function splitSigned(message: Buffer): { unsigned: Buffer; record: TsigRecord } | undefined {
  const offset = lastAdditionalOffset(message);
  if (offset === undefined) return undefined;
  const typeAt = skipName(message, offset);
  if (message.readUInt16BE(typeAt) !== TYPE_TSIG) return undefined;
  const record = decodeTsigRecord(message, offset, typeAt);
  const unsigned = Buffer.from(message.subarray(0, offset));
  unsigned.writeUInt16BE(record.originalId, 0);
  unsigned.writeUInt16BE(readHeader(message).counts.additionals - 1, 10);
  return { unsigned, record };
}

/** What checking a signed message found. */
export type TsigVerdict =
  | { ok: true; record: TsigRecord }
  | { ok: false; reason: "unsigned" }
  | { ok: false; reason: "tsig-error" | "other-key" | "bad-mac" | "bad-time"; record: TsigRecord; detail: string };

/**
 * Checks the TSIG of `message` with `key`: present, made with this key and
 * algorithm, without a TSIG error, a MAC that verifies (over `priorMac`, the
 * request's MAC, for an answer), and signed within the fudge of `nowSeconds`.
 *
 * @example
 * const verdict = verifyMessage(answer, key, { nowSeconds: Math.floor(Date.now() / 1000), priorMac: requestMac });
 * if (!verdict.ok) throw new Error(verdict.reason);
 */
export function verifyMessage(message: Buffer, key: TsigKey, options: { nowSeconds: number; priorMac?: Buffer }): TsigVerdict {
  const split = splitSigned(message);
  if (!split) return { ok: false, reason: "unsigned" };
  const { unsigned, record } = split;
  if (record.error !== 0) return { ok: false, reason: "tsig-error", record, detail: TSIG_ERRORS[record.error] ?? `TSIG error ${record.error}` };
  if (record.keyName !== normaliseName(key.name) || record.algorithm !== key.algorithm) {
    return { ok: false, reason: "other-key", record, detail: `signed with key ${record.keyName} (${record.algorithm})` };
  }
  const expected = computeMac(key, unsigned, record, options.priorMac);
  if (record.mac.length !== expected.length || !timingSafeEqual(record.mac, expected)) {
    return { ok: false, reason: "bad-mac", record, detail: "the MAC does not match the message" };
  }
  if (Math.abs(options.nowSeconds - record.timeSigned) > record.fudge) {
    return { ok: false, reason: "bad-time", record, detail: `signed at ${record.timeSigned}, ${options.nowSeconds - record.timeSigned} s from now (fudge ${record.fudge} s)` };
  }
  return { ok: true, record };
}

/** The server's clock in a BADTIME answer's Other Data (RFC 8945 5.2.3), if it sent one. */
export function serverTimeOf(record: TsigRecord): number | undefined {
  return record.otherData.length === 6 ? readUInt48(record.otherData, 0) : undefined;
}

/**
 * HMAC over [the prior MAC, length first] + the message + the TSIG variables
 * (RFC 8945 4.3.1–4.3.3): key and algorithm names in canonical wire form,
 * class ANY, TTL 0, time signed, fudge, error and other data.
 */
function computeMac(key: TsigKey, message: Buffer, fields: Omit<TsigRecord, "mac" | "originalId">, priorMac: Buffer | undefined): Buffer {
  const hmac = createHmac(TSIG_ALGORITHMS[key.algorithm], key.secret);
  if (priorMac) hmac.update(uint16(priorMac.length)).update(priorMac);
  hmac.update(message);
  hmac.update(canonicalWireName(fields.keyName));
  hmac.update(Buffer.from([0, CLASS_ANY, 0, 0, 0, 0]));
  hmac.update(canonicalWireName(fields.algorithm));
  hmac.update(uint48(fields.timeSigned)).update(uint16(fields.fudge));
  hmac.update(uint16(fields.error)).update(uint16(fields.otherData.length)).update(fields.otherData);
  return hmac.digest();
}

function encodeTsigRecord(r: TsigRecord): Buffer {
  const rdata = Buffer.concat([
    canonicalWireName(r.algorithm),
    uint48(r.timeSigned),
    uint16(r.fudge),
    uint16(r.mac.length),
    r.mac,
    uint16(r.originalId),
    uint16(r.error),
    uint16(r.otherData.length),
    r.otherData,
  ]);
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(TYPE_TSIG, 0);
  fixed.writeUInt16BE(CLASS_ANY, 2);
  fixed.writeUInt32BE(0, 4);
  fixed.writeUInt16BE(rdata.length, 8);
  return Buffer.concat([canonicalWireName(r.keyName), fixed, rdata]);
}

function decodeTsigRecord(message: Buffer, offset: number, typeAt: number): TsigRecord {
  const keyName = readName(message, offset);
  const rdataAt = typeAt + 10;
  const end = rdataAt + message.readUInt16BE(typeAt + 8);
  let at = skipName(message, rdataAt);
  const algorithm = readName(message, rdataAt);
  const timeSigned = readUInt48(message, at);
  const fudge = message.readUInt16BE(at + 6);
  const macSize = message.readUInt16BE(at + 8);
  at += 10;
  const mac = Buffer.from(message.subarray(at, at + macSize));
  at += macSize;
  const originalId = message.readUInt16BE(at);
  const error = message.readUInt16BE(at + 2);
  const otherLength = message.readUInt16BE(at + 4);
  const otherData = Buffer.from(message.subarray(at + 6, at + 6 + otherLength));
  if (at + 6 + otherLength !== end) throw malformedAnswer(`the TSIG record's fields do not fill its ${end - rdataAt} bytes of data`);
  return { keyName, algorithm, timeSigned, fudge, mac, originalId, error, otherData };
}

const uint16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};

const uint48 = (n: number) => {
  const b = Buffer.alloc(6);
  b.writeUIntBE(n, 0, 6);
  return b;
};

const readUInt48 = (b: Buffer, at: number) => b.readUIntBE(at, 6);
