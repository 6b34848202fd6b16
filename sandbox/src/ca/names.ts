import { isIPv4, isIPv6 } from "node:net";
import { domainToASCII } from "node:url";

export type SubjectName = { kind: "dns"; value: string } | { kind: "ip"; value: string };

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Classifies and normalises one certificate name: an IP address (canonical
 * text), or a DNS name / `*.` wildcard (lowercase, IDNs to punycode).
 * Returns an error text instead of throwing so the caller can name the field.
 */
export function parseSubjectName(raw: string): SubjectName | { error: string } {
  const name = raw.trim();
  if (name === "") return { error: "must not be empty" };
  const bracketless = name.startsWith("[") && name.endsWith("]") ? name.slice(1, -1) : name;
  if (isIPv4(bracketless) || isIPv6(bracketless)) return { kind: "ip", value: canonicalIp(bracketless) };

  const wildcard = name.startsWith("*.");
  const base = wildcard ? name.slice(2) : name;
  const ascii = domainToASCII(base.replace(/\.$/, ""));
  if (ascii === "") return { error: `"${name}" is not a valid DNS name or IP address` };
  if (ascii.length > 253) return { error: `"${name}" is longer than 253 characters` };
  const bad = ascii.split(".").find((label) => !LABEL.test(label));
  if (bad !== undefined) {
    return {
      error: `"${name}" has an invalid label "${bad}" (letters, digits and inner hyphens, 1-63 characters; a wildcard only as the whole leftmost label "*.")`,
    };
  }
  return { kind: "dns", value: wildcard ? `*.${ascii}` : ascii };
}

/** Canonical text of an IP address: dotted quad, or RFC 5952 IPv6 (IPv4-mapped kept as hex). */
export function canonicalIp(ip: string): string {
  return ipToText(ipToBytes(ip));
}

export function ipToBytes(ip: string): Uint8Array {
  if (isIPv4(ip)) return Uint8Array.from(ip.split(".").map(Number));
  if (!isIPv6(ip)) throw new TypeError(`not an IP address: ${ip}`);
  let text = ip.replace(/%.*$/, "");
  // An embedded dotted quad (::ffff:1.2.3.4) becomes two hex groups.
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = text.slice(0, quad.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    const n = parseInt(group, 16);
    bytes[i * 2] = n >> 8;
    bytes[i * 2 + 1] = n & 0xff;
  });
  return bytes;
}

export function ipToText(bytes: Uint8Array): string {
  if (bytes.length === 4) return Array.from(bytes).join(".");
  if (bytes.length !== 16) throw new TypeError(`an IP address has 4 or 16 bytes, not ${bytes.length}`);
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i]! << 8) | bytes[i + 1]!);
  // RFC 5952: compress the longest run (of two or more) of zero groups, the first on a tie.
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}
