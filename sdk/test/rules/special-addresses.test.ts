import { describe, expect, it } from "vitest";
import { classifyName } from "../../src/rules/index.js";
import { SPECIAL_RANGES, specialPurposeRange, type SpecialRange } from "../../src/rules/special-addresses.js";

// Address arithmetic of the test's own (BigInt), so the ends of each range are
// computed from the table rather than written down twice.
const BITS = { ipv4: 32, ipv6: 128 } as const;

function toNumber(range: SpecialRange): bigint {
  if (range.family === "ipv4") return range.prefix.split(".").reduce((n, octet) => (n << 8n) | BigInt(octet), 0n);
  const [head = "", tail = ""] = range.prefix.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === "" ? [] : tail.split(":");
  const groups = range.prefix.includes("::") ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right] : left;
  return groups.reduce((n, group) => (n << 16n) | BigInt(`0x${group}`), 0n);
}

function toText(family: "ipv4" | "ipv6", n: bigint): string {
  if (family === "ipv4") return [24n, 16n, 8n, 0n].map((shift) => String((n >> shift) & 0xffn)).join(".");
  // Uncompressed on purpose: the rule must not depend on the spelling.
  return [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => ((n >> shift) & 0xffffn).toString(16)).join(":");
}

function ends(range: SpecialRange): [first: string, last: string] {
  const hostBits = BigInt(BITS[range.family] - range.length);
  const first = toNumber(range);
  return [toText(range.family, first), toText(range.family, first | ((1n << hostBits) - 1n))];
}

const label = (range: SpecialRange) => `${range.prefix}/${range.length} ${range.name}`;

describe("the special-purpose table", () => {
  it("holds every row of both IANA special-purpose registries, plus multicast and IPv4-compatible", () => {
    const count = (registry: SpecialRange["registry"]) => SPECIAL_RANGES.filter((r) => r.registry === registry).length;
    // 25 IPv4 records, one of them (192.0.0.170/32, 192.0.0.171/32) two rows here; 25 IPv6 records.
    expect(count("ipv4-special")).toBe(26);
    expect(count("ipv6-special")).toBe(25);
    expect(SPECIAL_RANGES.filter((r) => r.registry === "ipv4-multicast").map(label)).toEqual(["224.0.0.0/4 Multicast"]);
    expect(SPECIAL_RANGES.filter((r) => r.registry === "ipv6-address-space").map((r) => `${r.prefix}/${r.length}`)).toEqual(["::/96", "ff00::/8"]);
  });

  it.each(SPECIAL_RANGES.map((r) => [label(r), r] as const))("%s is a network address with a valid length", (_, range) => {
    expect(range.length).toBeGreaterThanOrEqual(1);
    expect(range.length).toBeLessThanOrEqual(BITS[range.family]);
    const hostBits = BigInt(BITS[range.family] - range.length);
    expect(toNumber(range) & ((1n << hostBits) - 1n)).toBe(0n);
    expect(range.rfc).toMatch(/^RFC \d+/);
  });

  it("has no block twice", () => {
    const blocks = SPECIAL_RANGES.map((r) => `${r.family} ${toNumber(r)}/${r.length}`);
    expect(new Set(blocks).size).toBe(blocks.length);
  });

  it("refuses every row whose Globally Reachable is False, N/A or empty", () => {
    for (const range of SPECIAL_RANGES) if (range.globallyReachable !== "True") expect(range.refused, label(range)).toBe(true);
  });
});

describe("first and last address of every row", () => {
  const cases = SPECIAL_RANGES.flatMap((range) => ends(range).map((address) => [address, label(range), range] as const));

  it.each(cases)("%s (%s)", (address, _, range) => {
    // The most specific row decides: the row itself, or a narrower one inside it.
    const match = specialPurposeRange(address);
    expect(match).toBeDefined();
    expect(match!.family).toBe(range.family);
    expect(match!.length).toBeGreaterThanOrEqual(range.length);
    const hostBits = BigInt(BITS[range.family] - range.length);
    expect(toNumber(match!) >> hostBits).toBe(toNumber(range) >> hostBits);

    const result = classifyName(address);
    if (match!.refused) {
      expect(result).toEqual({ error: `is not a public IP address: ${match!.prefix}/${match!.length} (${match!.name}, ${match!.rfc}) cannot be certified` });
    } else {
      expect(result).toEqual({ kind: range.family });
    }
  });
});

describe("the addresses of the defect are refused", () => {
  it.each([
    ["::1.2.3.4", "::/96"],
    ["::102:304", "::/96"],
    ["0:0:0:0:0:0:102:304", "::/96"],
    ["::8.8.8.8", "::/96"],
    ["::ffff:8.8.8.8", "::ffff:0:0/96"],
    ["::ffff:808:808", "::ffff:0:0/96"],
    ["0:0:0:0:0:ffff:0808:0808", "::ffff:0:0/96"],
    ["64:ff9b:1::1", "64:ff9b:1::/48"],
    ["64:ff9b:1:ffff:ffff:ffff:ffff:ffff", "64:ff9b:1::/48"],
    ["2001:2::1", "2001:2::/48"],
    ["5f00::1", "5f00::/16"],
    ["5f00:1234:5678::9", "5f00::/16"],
    ["192.88.99.1", "192.88.99.0/24"],
    ["192.88.99.2", "192.88.99.2/32"],
  ])("%s (%s)", (address, block) => {
    const error = (classifyName(address) as { error?: string }).error;
    expect(error).toMatch(/^is not a public IP address: /);
    expect(error).toContain(` ${block} (`);
  });

  it("names the block, its registry name and RFC", () => {
    expect(classifyName("192.88.99.1")).toEqual({
      error: "is not a public IP address: 192.88.99.0/24 (Deprecated (6to4 Relay Anycast), RFC 7526) cannot be certified",
    });
  });

  it("keeps the loopback and unspecified addresses apart from the IPv4-compatible block around them", () => {
    expect(specialPurposeRange("::1")?.name).toBe("Loopback Address");
    expect(specialPurposeRange("::")?.name).toBe("Unspecified Address");
    expect(specialPurposeRange("::2")?.name).toBe("IPv4-compatible IPv6 address (deprecated)");
  });

  it("never matches an IPv4 address against the IPv4-mapped or IPv4-compatible rows", () => {
    expect(specialPurposeRange("8.8.8.8")).toBeUndefined();
    expect(specialPurposeRange("1.2.3.4")).toBeUndefined();
  });
});

describe("public addresses next to the ranges pass", () => {
  it.each([
    ["1.1.1.1", "ipv4"],
    ["8.8.8.8", "ipv4"],
    ["192.88.98.255", "ipv4"],
    ["192.88.100.0", "ipv4"],
    ["100.63.255.255", "ipv4"],
    ["100.128.0.0", "ipv4"],
    ["172.15.255.255", "ipv4"],
    ["172.32.0.0", "ipv4"],
    ["192.0.1.255", "ipv4"],
    ["223.255.255.255", "ipv4"],
    ["2606:4700:4700::1111", "ipv6"],
    ["2a00:1450:4001::1", "ipv6"],
    ["64:ff9b:2::1", "ipv6"],
    ["64:ff9b::1:0:0:0", "ipv6"],
    ["2001:200::1", "ipv6"],
    ["2003::1", "ipv6"],
    ["2620:4f:8001::1", "ipv6"],
  ])("%s", (address, kind) => {
    expect(specialPurposeRange(address)).toBeUndefined();
    expect(classifyName(address)).toEqual({ kind });
  });
});
