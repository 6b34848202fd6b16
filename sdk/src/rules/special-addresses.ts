import { isIP } from "node:net";

/**
 * The address blocks a publicly trusted CA will not certify, as one table:
 * every row of the IANA IPv4 Special-Purpose Address Registry and of the IANA
 * IPv6 Special-Purpose Address Registry (both as of 2025: RFC 6890 and its
 * updates, up to RFC 9780), plus three blocks those registries do not list
 * but that no one can hold as a unicast host address (IPv4 and IPv6 multicast,
 * and the deprecated IPv4-compatible IPv6 block).
 *
 * Why every row is refused, the `Globally Reachable = True` ones too: the
 * CA/Browser Forum Baseline Requirements define a "Reserved IP Address" as an
 * address "contained in the address block of any entry" of either IANA
 * special-purpose registry, and forbid certificates for one. The column is
 * kept so the table can be read against the registry, and so a row that
 * the definition ever stops covering can be turned to `refused: false` (the
 * most specific row decides, so an allowed row may sit inside a refused one).
 *
 * Rows are in the registries' own order and spelling: Address Block, Name,
 * RFC, Globally Reachable (footnote marks dropped). The one registry record
 * holding two blocks (192.0.0.170/32 and 192.0.0.171/32) is two rows here.
 */

/** The value of the registry's "Globally Reachable" cell; `""` where the cell is empty (deprecated rows) or the row is from another registry. */
export type GloballyReachable = "True" | "False" | "N/A" | "";

/** The registry a row comes from. */
export type SpecialRegistry = "ipv4-special" | "ipv6-special" | "ipv4-multicast" | "ipv6-address-space";

/** One special-purpose address block. */
export interface SpecialRange {
  /** The block's network address, e.g. `192.88.99.0` or `2001:db8::`. */
  readonly prefix: string;
  /** Its prefix length, e.g. 24. */
  readonly length: number;
  readonly family: "ipv4" | "ipv6";
  /** The registry's name for the block, e.g. `Deprecated (6to4 Relay Anycast)`. */
  readonly name: string;
  /** The RFC the registry cites, e.g. `RFC 7526`. */
  readonly rfc: string;
  readonly registry: SpecialRegistry;
  readonly globallyReachable: GloballyReachable;
  /** True when a public CA refuses to certify an address in this block. */
  readonly refused: boolean;
}

type Row = readonly [block: string, name: string, rfc: string, globallyReachable: GloballyReachable, refused: boolean];

// IANA IPv4 Special-Purpose Address Registry.
const IPV4_SPECIAL: readonly Row[] = [
  // Address Block       Name                                          RFC                           Glob. Reach.  refused
  ["0.0.0.0/8",          '"This network"',                             "RFC 791, Section 3.2",       "False",      true],
  ["0.0.0.0/32",         '"This host on this network"',                "RFC 1122, Section 3.2.1.3",  "False",      true],
  ["10.0.0.0/8",         "Private-Use",                                "RFC 1918",                   "False",      true],
  ["100.64.0.0/10",      "Shared Address Space",                       "RFC 6598",                   "False",      true],
  ["127.0.0.0/8",        "Loopback",                                   "RFC 1122, Section 3.2.1.3",  "False",      true],
  ["169.254.0.0/16",     "Link Local",                                 "RFC 3927",                   "False",      true],
  ["172.16.0.0/12",      "Private-Use",                                "RFC 1918",                   "False",      true],
  ["192.0.0.0/24",       "IETF Protocol Assignments",                  "RFC 6890, Section 2.1",      "False",      true],
  ["192.0.0.0/29",       "IPv4 Service Continuity Prefix",             "RFC 7335",                   "False",      true],
  ["192.0.0.8/32",       "IPv4 dummy address",                         "RFC 7600",                   "False",      true],
  ["192.0.0.9/32",       "Port Control Protocol Anycast",              "RFC 7723",                   "True",       true],
  ["192.0.0.10/32",      "Traversal Using Relays around NAT Anycast",  "RFC 8155",                   "True",       true],
  ["192.0.0.170/32",     "NAT64/DNS64 Discovery",                      "RFC 8880, RFC 7050",         "False",      true],
  ["192.0.0.171/32",     "NAT64/DNS64 Discovery",                      "RFC 8880, RFC 7050",         "False",      true],
  ["192.0.2.0/24",       "Documentation (TEST-NET-1)",                 "RFC 5737",                   "False",      true],
  ["192.31.196.0/24",    "AS112-v4",                                   "RFC 7535",                   "True",       true],
  ["192.52.193.0/24",    "AMT",                                        "RFC 7450",                   "True",       true],
  ["192.88.99.0/24",     "Deprecated (6to4 Relay Anycast)",            "RFC 7526",                   "",           true],
  ["192.88.99.2/32",     "6a44-relay anycast address",                 "RFC 6751",                   "False",      true],
  ["192.168.0.0/16",     "Private-Use",                                "RFC 1918",                   "False",      true],
  ["192.175.48.0/24",    "Direct Delegation AS112 Service",            "RFC 7534",                   "True",       true],
  ["198.18.0.0/15",      "Benchmarking",                               "RFC 2544",                   "False",      true],
  ["198.51.100.0/24",    "Documentation (TEST-NET-2)",                 "RFC 5737",                   "False",      true],
  ["203.0.113.0/24",     "Documentation (TEST-NET-3)",                 "RFC 5737",                   "False",      true],
  ["240.0.0.0/4",        "Reserved",                                   "RFC 1112, Section 4",        "False",      true],
  ["255.255.255.255/32", "Limited Broadcast",                          "RFC 8190, RFC 919",          "False",      true],
];

// IANA IPv4 Multicast Address Space Registry: not unicast, so never a host's address.
const IPV4_MULTICAST: readonly Row[] = [
  ["224.0.0.0/4",        "Multicast",                                  "RFC 5771",                   "",           true],
];

// IANA IPv6 Special-Purpose Address Registry.
const IPV6_SPECIAL: readonly Row[] = [
  // Address Block       Name                                          RFC                           Glob. Reach.  refused
  ["::1/128",            "Loopback Address",                           "RFC 4291",                   "False",      true],
  ["::/128",             "Unspecified Address",                        "RFC 4291",                   "False",      true],
  ["::ffff:0:0/96",      "IPv4-mapped Address",                        "RFC 4291",                   "False",      true],
  ["64:ff9b::/96",       "IPv4-IPv6 Translat.",                        "RFC 6052",                   "True",       true],
  ["64:ff9b:1::/48",     "IPv4-IPv6 Translat.",                        "RFC 8215",                   "False",      true],
  ["100::/64",           "Discard-Only Address Block",                 "RFC 6666",                   "False",      true],
  ["100:0:0:1::/64",     "Dummy IPv6 Prefix",                          "RFC 9780",                   "False",      true],
  ["2001::/23",          "IETF Protocol Assignments",                  "RFC 2928",                   "False",      true],
  ["2001::/32",          "TEREDO",                                     "RFC 4380, RFC 8190",         "N/A",        true],
  ["2001:1::1/128",      "Port Control Protocol Anycast",              "RFC 7723",                   "True",       true],
  ["2001:1::2/128",      "Traversal Using Relays around NAT Anycast",  "RFC 8155",                   "True",       true],
  ["2001:1::3/128",      "DNS-SD Service Registration Protocol Anycast", "RFC 9665",                 "True",       true],
  ["2001:2::/48",        "Benchmarking",                               "RFC 5180",                   "False",      true],
  ["2001:3::/32",        "AMT",                                        "RFC 7450",                   "True",       true],
  ["2001:4:112::/48",    "AS112-v6",                                   "RFC 7535",                   "True",       true],
  ["2001:10::/28",       "Deprecated (previously ORCHID)",             "RFC 4843",                   "",           true],
  ["2001:20::/28",       "ORCHIDv2",                                   "RFC 7343",                   "True",       true],
  ["2001:30::/28",       "Drone Remote ID Protocol Entity Tags (DETs) Prefix", "RFC 9374",           "True",       true],
  ["2001:db8::/32",      "Documentation",                              "RFC 3849",                   "False",      true],
  ["2002::/16",          "6to4",                                       "RFC 3056",                   "N/A",        true],
  ["2620:4f:8000::/48",  "Direct Delegation AS112 Service",            "RFC 7534",                   "True",       true],
  ["3fff::/20",          "Documentation",                              "RFC 9637",                   "False",      true],
  ["5f00::/16",          "Segment Routing (SRv6) SIDs",                "RFC 9602",                   "False",      true],
  ["fc00::/7",           "Unique-Local",                               "RFC 4193, RFC 8190",         "False",      true],
  ["fe80::/10",          "Link-Local Unicast",                         "RFC 4291",                   "False",      true],
];

// IANA IPv6 Address Space Registry: the deprecated IPv4-compatible block (part
// of ::/8 "Reserved by IETF", deprecated by RFC 4291 section 2.5.5.1) and multicast.
const IPV6_ADDRESS_SPACE: readonly Row[] = [
  ["::/96",              "IPv4-compatible IPv6 address (deprecated)",  "RFC 4291, Section 2.5.5.1",  "",           true],
  ["ff00::/8",           "Multicast",                                  "RFC 4291",                   "",           true],
];

function toRange(registry: SpecialRegistry, [block, name, rfc, globallyReachable, refused]: Row): SpecialRange {
  const [prefix = "", length = ""] = block.split("/");
  const family = registry.startsWith("ipv4") ? "ipv4" : "ipv6";
  return { prefix, length: Number(length), family, name, rfc, registry, globallyReachable, refused };
}

/** The whole table, in registry order. */
export const SPECIAL_RANGES: readonly SpecialRange[] = Object.freeze([
  ...IPV4_SPECIAL.map((row) => toRange("ipv4-special", row)),
  ...IPV4_MULTICAST.map((row) => toRange("ipv4-multicast", row)),
  ...IPV6_SPECIAL.map((row) => toRange("ipv6-special", row)),
  ...IPV6_ADDRESS_SPACE.map((row) => toRange("ipv6-address-space", row)),
]);

/**
 * An IP address as a number: 32 bits for IPv4, 128 for IPv6, whatever its
 * spelling (`::1.2.3.4`, `0:0:0:0:0:0:102:304` and `::102:304` are one value).
 * A zone index (`%eth0`) is ignored. Undefined when it is not an address.
 *
 * @example addressValue("::ffff:8.8.8.8") // { family: "ipv6", value: 0xffff08080808n }
 */
export function addressValue(address: string): { family: "ipv4" | "ipv6"; value: bigint } | undefined {
  const text = address.replace(/%.*$/, "");
  const kind = isIP(text);
  if (kind === 4) return { family: "ipv4", value: ipv4Value(text) };
  if (kind !== 6) return undefined;
  let groups = text;
  // A trailing dotted quad (`::ffff:1.2.3.4`, `::1.2.3.4`) is two 16-bit groups.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(groups);
  if (quad) {
    const v4 = ipv4Value(quad[1]!);
    groups = `${groups.slice(0, quad.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = "", tail] = groups.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const all = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return { family: "ipv6", value: all.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n) };
}

function ipv4Value(text: string): bigint {
  return text.split(".").reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n);
}

const BITS = { ipv4: 32, ipv6: 128 } as const;

// Each row as network/mask numbers, most specific first so the first hit is the answer.
const MATCHERS = SPECIAL_RANGES.map((range) => {
  const bits = BigInt(BITS[range.family]);
  const mask = ((1n << bits) - 1n) ^ ((1n << (bits - BigInt(range.length))) - 1n);
  return { range, network: addressValue(range.prefix)!.value, mask };
}).sort((a, b) => b.range.length - a.range.length);

/**
 * The most specific special-purpose row holding an address, or undefined
 * when it is in none (an ordinary unicast address). Compared as numbers, so
 * an IPv4 address never matches an IPv6 row (not even `::ffff:0:0/96`) and
 * any IPv6 spelling of an address gives the same row.
 *
 * @example
 * specialPurposeRange("192.88.99.1")?.name // "Deprecated (6to4 Relay Anycast)"
 * specialPurposeRange("::1.2.3.4")?.prefix // "::" (the ::/96 IPv4-compatible row)
 * specialPurposeRange("8.8.8.8")           // undefined
 */
export function specialPurposeRange(address: string): SpecialRange | undefined {
  const parsed = addressValue(address);
  if (parsed === undefined) return undefined;
  return MATCHERS.find(({ range, network, mask }) => range.family === parsed.family && (parsed.value & mask) === network)?.range;
}
