import { isIP, SocketAddress } from "node:net";
import { specialPurposeRange } from "./special-addresses.js";

/**
 * What kind of name a string is, as the domain-type rules of spec 2.3 tell
 * them apart: a plain domain, a `*.` wildcard, an IPv4 or an IPv6 address.
 */
export type NameKind = "fqdn" | "wildcard" | "ipv4" | "ipv6";

/** True for the two address kinds. @example isAddress("ipv6") === true */
export function isAddress(kind: NameKind | undefined): kind is "ipv4" | "ipv6" {
  return kind === "ipv4" || kind === "ipv6";
}

/**
 * Lower-case, trimmed, without the root dot: the one spelling rule every
 * name goes through. The Validation compares and stores names in this form
 * (its `domains`, the records' names); the Order goes one step further,
 * {@link canonicalName}.
 *
 * @example
 * normaliseName(" WWW.Example.com. ") === "www.example.com"
 * normaliseName("2001:DB8:0:0::1") === "2001:db8:0:0::1"
 */
export function normaliseName(raw: string): string {
  return raw.trim().toLowerCase().replace(/\.$/, "");
}

/**
 * {@link normaliseName}, and an IPv6 address in its one compressed form
 * (RFC 5952): the form the Order compares and stores names in, so
 * `2001:DB8:0:0::1` and `2001:db8::1` are the same name, not a new purchase.
 *
 * @example
 * canonicalName(" WWW.Example.com. ") === "www.example.com"
 * canonicalName("2606:4700:4700:0:0:0:0:1111") === "2606:4700:4700::1111"
 */
export function canonicalName(raw: string): string {
  const name = normaliseName(raw);
  if (isIP(name) !== 6) return name;
  try {
    return new SocketAddress({ address: name, family: "ipv6" }).address;
  } catch {
    return name; // e.g. a zone index (`fe80::1%eth0`): classifyName refuses it anyway
  }
}

/**
 * Every name of an order, canonical ({@link canonicalName}): the main domain
 * first, then the SANs and wildcards together, sorted. It is the Order's
 * `orderedNames` output; the purchase journal records these names sorted
 * whole, and an adopted order must cover exactly them.
 *
 * @example
 * orderedNames({ domain: "Example.com", sanDomains: ["www.example.com"], wildcardDomains: ["*.example.com"] })
 * // ["example.com", "*.example.com", "www.example.com"]
 */
export function orderedNames(order: { readonly domain: string; readonly sanDomains: readonly string[]; readonly wildcardDomains: readonly string[] }): string[] {
  const rest = [...order.sanDomains.map(canonicalName), ...order.wildcardDomains.map(canonicalName)];
  return [canonicalName(order.domain), ...rest.sort()];
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Classifies a canonical name, or says which rule it breaks.
 *
 * @example
 * ```ts
 * classifyName("*.example.com");        // { kind: "wildcard" }
 * classifyName("2606:4700:4700::1111"); // { kind: "ipv6" }
 * classifyName("10.0.0.1");             // { error: "is not a public IP address: 10.0.0.0/8 (Private-Use, RFC 1918) cannot be certified" }
 * ```
 */
export function classifyName(name: string): { kind: NameKind } | { error: string } {
  if (name === "") return { error: "is empty" };
  const family = isIP(name);
  if (family !== 0) {
    // A publicly trusted CA certifies no address in a special-purpose block
    // (the CA/Browser Forum's "Reserved IP Address"), so an order for one
    // could only fail after it was paid. The table: special-addresses.ts.
    const range = specialPurposeRange(name);
    return range?.refused
      ? { error: `is not a public IP address: ${range.prefix}/${range.length} (${range.name}, ${range.rfc}) cannot be certified` }
      : { kind: family === 4 ? "ipv4" : "ipv6" };
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

/**
 * The name a wildcard is validated at.
 *
 * @example
 * baseName("*.example.com") === "example.com"
 */
export function baseName(name: string): string {
  return name.startsWith("*.") ? name.slice(2) : name;
}
