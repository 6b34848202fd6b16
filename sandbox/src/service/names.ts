import { isIP } from "node:net";
import { canonicalIp } from "../ca/names.js";

/** One lowercase DNS label: letters, digits, inner hyphens, 1–63 characters. */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export type NameKind = "fqdn" | "wildcard" | "ipv4" | "ipv6";

/** Classifies a requested name, or returns the rule it breaks. */
export function classifyName(raw: string): { kind: NameKind; name: string } | { error: string } {
  const name = raw.trim().toLowerCase().replace(/\.$/, "");
  if (name === "") return { error: "is empty" };
  const family = isIP(name);
  if (family !== 0) {
    // One spelling per address (RFC 5952 for IPv6), so duplicates, records and a custom CSR's SANs compare equal.
    const ip = canonicalIp(name);
    const reason = nonPublicIpReason(ip);
    return reason === undefined ? { kind: family === 4 ? "ipv4" : "ipv6", name: ip } : { error: `is ${reason}; only public IP addresses are accepted` };
  }
  const wildcard = name.startsWith("*.");
  const base = wildcard ? name.slice(2) : name;
  if (base.includes("*")) return { error: "may hold a wildcard only as its single leading `*.` label" };
  if (base.length > 253) return { error: "is longer than 253 characters" };
  const labels = base.split(".");
  if (labels.length < 2) return { error: "is not a fully qualified domain name (needs at least two labels)" };
  for (const label of labels) {
    if (!LABEL.test(label)) return { error: `has an invalid label ${JSON.stringify(label)} (letters, digits and inner hyphens, 1-63 characters)` };
  }
  if (!/^[a-z]/.test(labels[labels.length - 1]!) || /^\d+$/.test(labels[labels.length - 1]!)) {
    return { error: "has a top-level label that is not a domain name" };
  }
  return { kind: wildcard ? "wildcard" : "fqdn", name };
}

/** The name a wildcard is validated at (`*.example.com` → `example.com`). */
export function baseName(name: string): string {
  return name.startsWith("*.") ? name.slice(2) : name;
}

function ipv4Octets(ip: string): number[] {
  return ip.split(".").map(Number);
}

/** Why an address is not public (private, loopback, reserved …), or undefined when it is. */
export function nonPublicIpReason(ip: string): string | undefined {
  if (isIP(ip) === 4) {
    const [a, b, c] = ipv4Octets(ip) as [number, number, number, number];
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "a private address";
    if (a === 127) return "a loopback address";
    if (a === 0) return "a reserved address (0.0.0.0/8)";
    if (a === 169 && b === 254) return "a link-local address";
    if (a === 100 && b >= 64 && b <= 127) return "a shared address (100.64.0.0/10)";
    if (a >= 224) return "a multicast or reserved address";
    if ((a === 192 && b === 0 && c === 2) || (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) {
      return "a documentation address (reserved)";
    }
    if (a === 198 && (b === 18 || b === 19)) return "a benchmarking address (reserved)";
    if (a === 192 && b === 0 && c === 0) return "a reserved address (192.0.0.0/24)";
    return undefined;
  }
  const v6 = ip.toLowerCase();
  if (v6 === "::1") return "a loopback address";
  if (v6 === "::") return "the unspecified address";
  if (v6.startsWith("::ffff:")) return "an IPv4-mapped address";
  const first = parseInt(v6.split(":")[0] || "0", 16);
  if ((first & 0xfe00) === 0xfc00) return "a private (unique local) address";
  if ((first & 0xffc0) === 0xfe80) return "a link-local address";
  if ((first & 0xff00) === 0xff00) return "a multicast address";
  if (v6.startsWith("2001:db8:") || v6 === "2001:db8::" || v6.startsWith("2001:0db8:")) return "a documentation address (reserved)";
  return undefined;
}
