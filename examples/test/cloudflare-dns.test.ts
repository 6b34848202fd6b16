import { beforeAll, describe, expect, it } from "vitest";
import { byType, installMocks, settle, tokenFor, TYPES, type Registration } from "./mocks";
import { cloudflareDns, cloudflareDnsSettings } from "../cloudflare-dns/program";

const domains = ["example.com", "www.example.com", "api.example.com"];
let regs: Registration[];
let out: Record<string, unknown>;

beforeAll(async () => {
  regs = await installMocks({
    config: {
      "cloudflare-dns:zoneId": "zone-123",
      "cloudflare-dns:domains": JSON.stringify(domains),
    },
  });
  out = await settle(cloudflareDns());
});

describe("cloudflare-dns graph", () => {
  it("orders every configured name: the first as main domain, the rest as SANs", () => {
    const [order] = byType(regs, TYPES.order);
    expect(order?.inputs).toMatchObject({ productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["www.example.com", "api.example.com"], verificationMethod: "dns" });
  });

  it("creates exactly one Cloudflare DNS record per domain, with name, type and content from the Validation outputs", () => {
    const records = byType(regs, TYPES.cloudflareDns);
    expect(records.map((r) => r.name).sort()).toEqual(domains.map((d) => `dcv-${d}`).sort());
    for (const d of domains) {
      const r = records.find((x) => x.name === `dcv-${d}`)!;
      expect(r.inputs).toMatchObject({ zoneId: "zone-123", name: `_dnsauth.${d}`, type: "TXT", content: tokenFor(d), ttl: 60 });
      // The record's values flow from the Validation resource.
      expect(r.dependsOn).toContain("site");
    }
  });

  it("makes the Certificate depend on every DNS record and take the order number from the Order", () => {
    const [certificate] = byType(regs, TYPES.certificate);
    expect(certificate?.inputs.orderNo).toMatch(/^CERT/);
    for (const d of domains) expect(certificate?.dependsOn).toContain(`dcv-${d}`);
  });

  it("registers the Certificate only after the records (they are its dependencies)", () => {
    const certIndex = regs.findIndex((r) => r.type === TYPES.certificate);
    const recordIndexes = regs.flatMap((r, i) => (r.type === TYPES.cloudflareDns ? [i] : []));
    expect(recordIndexes).toHaveLength(3);
    expect(Math.max(...recordIndexes)).toBeLessThan(certIndex);
  });

  it("exports the record names and the certificate", () => {
    expect(out.recordNames).toEqual(domains.map((d) => `_dnsauth.${d}`));
    expect(out.fullChainPem).toContain("BEGIN CERTIFICATE");
  });

  it("refuses a configuration without domains with a message naming the key", async () => {
    expect(() => cloudflareDnsSettings({ domains: [] })).toThrow(/cloudflare-dns:domains/);
  });
});
