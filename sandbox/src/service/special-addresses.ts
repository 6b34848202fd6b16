import { isIP } from "node:net";
import { ipToBytes } from "../ca/names.js";

/**
 * Address blocks the service's CA will not certify (orders for them are sold, then
 * fail at issuance): an upstream public CA certifies no address in any entry of the IANA IPv4 and IPv6 Special-Purpose
 * Address Registries (the CA/Browser Forum's "Reserved IP Address"), nor a
 * multicast or IPv4-compatible one. Coarser than the registries where that
 * changes nothing: a block listed here covers every registry entry inside it
 * (192.0.0.0/24 its /29 and /32 entries, 2001::/23 Teredo, AMT, ORCHIDv2 …,
 * 240.0.0.0/4 the limited broadcast address).
 *
 * Each entry: block, prefix length, and the reason the CA gives when it
 * refuses to issue ("the CA does not certify <address>: it is <reason>").
 */
const BLOCKS: ReadonlyArray<readonly [block: string, length: number, reason: string]> = [
  // IPv4 Special-Purpose Address Registry
  ["0.0.0.0", 8, "a reserved address (0.0.0.0/8, this network)"],
  ["10.0.0.0", 8, "a private address"],
  ["100.64.0.0", 10, "a shared address (100.64.0.0/10)"],
  ["127.0.0.0", 8, "a loopback address"],
  ["169.254.0.0", 16, "a link-local address"],
  ["172.16.0.0", 12, "a private address"],
  ["192.0.0.0", 24, "a reserved address (192.0.0.0/24, IETF protocol assignments)"],
  ["192.0.2.0", 24, "a documentation address (reserved)"],
  ["192.31.196.0", 24, "a reserved address (192.31.196.0/24, AS112)"],
  ["192.52.193.0", 24, "a reserved address (192.52.193.0/24, AMT)"],
  ["192.88.99.0", 24, "a reserved address (192.88.99.0/24, deprecated 6to4 relay anycast)"],
  ["192.168.0.0", 16, "a private address"],
  ["192.175.48.0", 24, "a reserved address (192.175.48.0/24, AS112)"],
  ["198.18.0.0", 15, "a benchmarking address (reserved)"],
  ["198.51.100.0", 24, "a documentation address (reserved)"],
  ["203.0.113.0", 24, "a documentation address (reserved)"],
  ["240.0.0.0", 4, "a reserved address (240.0.0.0/4)"],
  // IPv4 multicast
  ["224.0.0.0", 4, "a multicast address"],
  // IPv6 Special-Purpose Address Registry
  ["::1", 128, "a loopback address"],
  ["::", 128, "the unspecified address"],
  ["::ffff:0:0", 96, "an IPv4-mapped address"],
  ["64:ff9b::", 96, "an IPv4-IPv6 translation address (64:ff9b::/96)"],
  ["64:ff9b:1::", 48, "an IPv4-IPv6 translation address (64:ff9b:1::/48, local use)"],
  ["100::", 64, "a discard-only address (100::/64)"],
  ["100:0:0:1::", 64, "a dummy address (100:0:0:1::/64)"],
  ["2001::", 23, "a reserved address (2001::/23, IETF protocol assignments)"],
  ["2001:db8::", 32, "a documentation address (reserved)"],
  ["2002::", 16, "a 6to4 address (2002::/16)"],
  ["2620:4f:8000::", 48, "a reserved address (2620:4f:8000::/48, AS112)"],
  ["3fff::", 20, "a documentation address (reserved)"],
  ["5f00::", 16, "a segment routing address (5f00::/16, SRv6 SIDs)"],
  ["fc00::", 7, "a private (unique local) address"],
  ["fe80::", 10, "a link-local address"],
  // IPv6 address space: IPv4-compatible (deprecated, RFC 4291), multicast
  ["::", 96, "an IPv4-compatible address (deprecated)"],
  ["ff00::", 8, "a multicast address"],
];

/** An address's bytes, 4 or 16, as one number (whatever its spelling). */
function toNumber(bytes: Uint8Array): bigint {
  return bytes.reduce((n, byte) => (n << 8n) | BigInt(byte), 0n);
}

// Most specific first, so ::1/128 answers before ::/96 around it.
const MATCHERS = BLOCKS.map(([block, length, reason]) => {
  const bits = isIP(block) === 4 ? 32 : 128;
  const mask = ((1n << BigInt(bits)) - 1n) ^ ((1n << BigInt(bits - length)) - 1n);
  return { bits, length, network: toNumber(ipToBytes(block)), mask, reason };
}).sort((a, b) => b.length - a.length);

/** The reason an address is refused, or undefined when it is an ordinary public address. */
export function specialAddressReason(ip: string): string | undefined {
  const bytes = ipToBytes(ip);
  const value = toNumber(bytes);
  const bits = bytes.length * 8;
  return MATCHERS.find((m) => m.bits === bits && (value & m.mask) === m.network)?.reason;
}
