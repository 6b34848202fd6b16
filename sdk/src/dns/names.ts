/**
 * Domain names as RFC 2136 updates and TSIG need them: checked, compared and
 * written in canonical wire form (RFC 4034 6.2: lower case, uncompressed).
 * Names are compared and stored as {@link normaliseName} writes them (the root is `""`).
 */
import { normaliseName } from "../rules/names.js";


// Letters, digits, hyphens, and underscores (validation labels start with one: `_dnsauth`, `_<token>`).
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i;

/**
 * Why `name` is not a host-style absolute DNS name, or undefined when it is:
 * 1–63 characters per label, at most 253 in all, letters, digits, `-` and `_`.
 *
 * @example
 * dnsNameProblem("_dnsauth.example.com") // undefined
 * dnsNameProblem("bad..example.com")     // "has an empty label"
 */
export function dnsNameProblem(name: string): string | undefined {
  const bare = normaliseName(name);
  if (bare === "") return "is empty";
  if (bare.length > 253) return `is ${bare.length} characters long (at most 253)`;
  for (const label of bare.split(".")) {
    if (label === "") return "has an empty label";
    if (label.length > 63) return `has a label of ${label.length} characters (at most 63): ${label.slice(0, 20)}…`;
    if (!LABEL.test(label)) return `has the label ${JSON.stringify(label)}: labels are letters, digits, "-" and "_", not starting or ending with "-"`;
  }
  return undefined;
}

/** Whether `name` is `zone` itself or below it (both compared normalised). */
export function isWithinZone(name: string, zone: string): boolean {
  const n = normaliseName(name);
  const z = normaliseName(zone);
  return z === "" || n === z || n.endsWith(`.${z}`);
}

/**
 * A name in canonical wire form: length-prefixed lower-case labels ending in
 * the root's zero byte, never compressed — how TSIG hashes the key and
 * algorithm names (RFC 8945 4.3.3).
 *
 * @example
 * canonicalWireName("Key.Example.") // <03 6b 65 79 07 65 78 61 6d 70 6c 65 00>
 */
export function canonicalWireName(name: string): Buffer {
  const bare = normaliseName(name);
  const labels = bare === "" ? [] : bare.split(".");
  const parts = labels.map((label) => {
    const bytes = Buffer.from(label, "ascii");
    return Buffer.concat([Buffer.from([bytes.length]), bytes]);
  });
  return Buffer.concat([...parts, Buffer.from([0])]);
}
