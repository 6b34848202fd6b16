import { randomBytes, randomInt, randomUUID } from "node:crypto";
import { compactTimestamp } from "./time.js";

const ALNUM_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const ALNUM_LOWER = "abcdefghijklmnopqrstuvwxyz0123456789";

export function randomString(length: number, alphabet = ALNUM_LOWER): string {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString("hex");
}

/** `ak_<24 chars>` and a 64-character secret: the key is `appId:secret`. */
export function newApiKeyParts(): { appId: string; secret: string } {
  return { appId: `ak_${randomString(24)}`, secret: randomHex(32) };
}

/** Identifiers carry a per-process sequence so two in the same second never collide. */
let sequence = randomInt(1000);
const nextSeq = (): string => String((sequence = (sequence + 1) % 10000)).padStart(4, "0");

export function newOrderNo(now: Date): string {
  return `CERT${compactTimestamp(now)}${nextSeq()}`;
}

export function newRefundOrderNo(now: Date): string {
  return `REFUND${compactTimestamp(now)}${nextSeq()}`;
}

/** e.g. `SIG-202607131200000000-ABC123`. */
export function newSignRequestId(now: Date): string {
  return `SIG-${compactTimestamp(now)}${nextSeq()}-${randomString(6, ALNUM_UPPER)}`;
}

export function newRequestId(): string {
  return `req_${randomHex(8)}`;
}

export function newCertId(): string {
  return randomUUID();
}

export function newToken(): string {
  return randomHex(16);
}
