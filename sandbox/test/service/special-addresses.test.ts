import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/index.js";
import { classifyName, nonPublicIpReason } from "../../src/service/names.js";
import { call, mgmt, ok, withSandbox } from "../support/sandbox.js";

// Addresses in the IANA special-purpose registries (and multicast, and the
// deprecated IPv4-compatible block) are not public: no public CA certifies them.
const REFUSED: Array<[address: string, reason: RegExp]> = [
  // The five that used to pass.
  ["::1.2.3.4", /IPv4-compatible/],
  ["::102:304", /IPv4-compatible/],
  ["64:ff9b:1::1", /64:ff9b:1::\/48/],
  ["2001:2::1", /2001::\/23/],
  ["5f00::1", /5f00::\/16/],
  ["192.88.99.1", /192\.88\.99\.0\/24/],
  // Their neighbours in the registries.
  ["::ffff:8.8.8.8", /IPv4-mapped/],
  ["::ffff:808:808", /IPv4-mapped/],
  ["64:ff9b::8.8.8.8", /64:ff9b::\/96/],
  ["2001::1", /2001::\/23/],
  ["2002:808:808::1", /6to4/],
  ["3fff::1", /documentation/],
  ["100::1", /discard-only/],
  ["2620:4f:8000::1", /AS112/],
  ["192.31.196.1", /AS112/],
  ["192.175.48.1", /AS112/],
  ["192.52.193.1", /AMT/],
  ["192.0.0.9", /192\.0\.0\.0\/24/],
  ["255.255.255.255", /reserved/],
  ["239.255.255.255", /multicast/],
  ["ff02::1", /multicast/],
  ["::1", /loopback/],
  ["::", /unspecified/],
  ["10.1.2.3", /private/],
  ["fd00::1", /private/],
];

const PUBLIC: Array<[address: string, kind: "ipv4" | "ipv6"]> = [
  ["8.8.8.8", "ipv4"],
  ["1.1.1.1", "ipv4"],
  ["192.88.98.255", "ipv4"],
  ["192.88.100.0", "ipv4"],
  ["2606:4700:4700::1111", "ipv6"],
  ["2a00:1450:4001::1", "ipv6"],
  ["64:ff9b:2::1", "ipv6"],
  ["2001:200::1", "ipv6"],
];

describe("names: special-purpose addresses", () => {
  it.each(REFUSED)("%s is an address the CA will not certify", (address, reason) => {
    // Spec 2.3 and 8 name no rule against it: CreateOrder takes it as an address.
    const named = classifyName(address) as { kind?: string; name?: string };
    expect(named.kind).toMatch(/^ipv[46]$/);
    expect(nonPublicIpReason(named.name!)).toMatch(reason);
  });

  it.each(PUBLIC)("%s is a public %s address", (address, kind) => {
    expect(classifyName(address)).toMatchObject({ kind });
  });
});

describe("a special-purpose address is bought (spec 2.3 and 8 name no rule against it) and the CA refuses it at issuance", () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await withSandbox({ clockStart: "2026-06-01T00:00:00Z", accounts: [{ username: "buyer", balance: "100000.00", creditLine: "0" }] });
    await mgmt(sb, "PUT", "/config", { issueAfterSeconds: 0, statusCooldownSeconds: 0 });
  });
  afterAll(() => sb.stop());

  /** The certificate's status once issuance has settled (it runs in the background). */
  async function settledStatus(order_no: string): Promise<number> {
    for (let i = 0; i < 50; i++) {
      const status = (await ok(sb, "GetCertificateStatus", { order_no })).cert_status as number;
      if (status !== 2) return status;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`order ${order_no} still issuing`);
  }

  it.each([
    ["sandbox-dv-ipv6", "::1.2.3.4"],
    ["sandbox-dv-ipv6", "64:ff9b:1::1"],
    ["sandbox-dv-ipv6", "2001:2::1"],
    ["sandbox-dv-ipv6", "5f00::1"],
    ["sandbox-dv-ip", "192.88.99.1"],
    ["sandbox-dv-ipv6", "::ffff:8.8.8.8"],
    // Private and loopback addresses, which CreateOrder used to refuse: spec 8 names no such rule.
    ["sandbox-dv-ip", "192.168.1.10"],
    ["sandbox-dv-ip", "127.0.0.1"],
    ["sandbox-dv-ipv6", "::1"],
  ])("%s %s: charged, then issuance fails (status 3)", async (product_code, domain) => {
    const before = Number((await ok(sb, "GetUserData")).account.balance);
    const d = await ok(sb, "CreateOrder", { product_code, domain });
    expect(Number((await ok(sb, "GetUserData")).account.balance)).toBeLessThan(before);
    await ok(sb, "ApplySign", { order_no: d.order_no });
    expect(await settledStatus(d.order_no)).toBe(3);
  });

  it.each([
    ["sandbox-dv-ip", "192.88.98.255"],
    ["sandbox-dv-ipv6", "64:ff9b:2::1"],
  ])("%s %s is bought and issued", async (product_code, domain) => {
    const d = await ok(sb, "CreateOrder", { product_code, domain });
    expect((await ok(sb, "GetRecord", { order_no: d.order_no })).main_domain).toBe(domain);
    await ok(sb, "ApplySign", { order_no: d.order_no });
    expect(await settledStatus(d.order_no)).toBe(1);
  });
});
