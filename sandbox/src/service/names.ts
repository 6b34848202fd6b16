import { isIP } from "node:net";
import { canonicalIp } from "../ca/names.js";
import { specialAddressReason } from "./special-addresses.js";

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
    // A special-purpose address is still an address (spec 2.3 and 8 name no other rule): the order is
    // bought, and the CA refuses to certify it at issuance (see lifecycle.ts), as the service does.
    return { kind: family === 4 ? "ipv4" : "ipv6", name: canonicalIp(name) };
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

/**
 * Why an address is not public (private, loopback, reserved …), or undefined
 * when it is: every block of the IANA special-purpose registries, multicast and
 * IPv4-compatible addresses (the table: special-addresses.ts).
 */
export function nonPublicIpReason(ip: string): string | undefined {
  return specialAddressReason(ip);
}
