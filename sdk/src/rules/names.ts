import { BlockList, isIP } from "node:net";

/** What kind of name a string is, as the domain-type rules count it. */
export type NameKind = "fqdn" | "wildcard" | "ip";

/** Lower-case, trimmed, without the root dot: the form names are compared and stored in. */
export function canonicalName(raw: string): string {
  return raw.trim().toLowerCase().replace(/\.$/, "");
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

// Ranges the service refuses ("private, reserved and loopback IPs are refused").
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["198.51.100.0", 24],
  ["203.0.113.0", 24], ["224.0.0.0", 3],
] as const) NON_PUBLIC.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  // No ::ffff:0:0/96 here: BlockList matches IPv4 addresses against IPv4-mapped
  // subnets, so that rule would refuse every IPv4 address; mapped addresses are
  // refused by their textual form below.
  ["::", 128], ["::1", 128], ["64:ff9b::", 96], ["100::", 64], ["2001:db8::", 32], ["fc00::", 7],
  ["fe80::", 10], ["ff00::", 8],
] as const) NON_PUBLIC.addSubnet(net, prefix, "ipv6");

/**
 * Classifies a canonical name, or says which rule it breaks.
 *
 * @example
 * ```ts
 * classifyName("*.example.com"); // { kind: "wildcard" }
 * classifyName("10.0.0.1");      // { error: "is not a public IP address ..." }
 * ```
 */
export function classifyName(name: string): { kind: NameKind } | { error: string } {
  if (name === "") return { error: "is empty" };
  const family = isIP(name);
  if (family !== 0) {
    const mapped = family === 6 && /^::ffff:/i.test(name);
    return mapped || NON_PUBLIC.check(name, family === 4 ? "ipv4" : "ipv6")
      ? { error: "is not a public IP address (private, loopback and reserved addresses cannot be certified)" }
      : { kind: "ip" };
  }
  const wildcard = name.startsWith("*.");
  const base = wildcard ? name.slice(2) : name;
  if (base.includes("*")) return { error: "may hold a wildcard only as one leading `*.` label" };
  if (base.length > 253) return { error: "is longer than 253 characters" };
  const labels = base.split(".");
  if (labels.length < 2) return { error: "is not a fully qualified domain name (it needs at least two labels)" };
  const bad = labels.find((label) => !LABEL.test(label));
  if (bad !== undefined) {
    return { error: `has an invalid label ${JSON.stringify(bad)} (letters, digits and inner hyphens, 1-63 characters)` };
  }
  if (!/^[a-z]/.test(labels[labels.length - 1]!)) return { error: "has a top-level label that is not a domain name" };
  return { kind: wildcard ? "wildcard" : "fqdn" };
}

/** The name a wildcard is validated at: `*.example.com` → `example.com`. */
export function baseName(name: string): string {
  return name.startsWith("*.") ? name.slice(2) : name;
}
