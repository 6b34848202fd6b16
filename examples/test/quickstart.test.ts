import { beforeAll, describe, expect, it } from "vitest";
import { byType, installMocks, settle, tokenFor, TYPES, type Registration } from "./mocks";
import { quickstart } from "../quickstart/program";

const API_KEY = "ak_examplesquickstart0000001:9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0";
let regs: Registration[];
let out: Record<string, unknown>;

beforeAll(async () => {
  regs = await installMocks({ config: { "certreseller:baseUrl": "http://127.0.0.1:8443/", "certreseller:apiKey": API_KEY } });
  out = await settle(quickstart());
});

describe("quickstart graph", () => {
  it("orders one DV domain with DNS validation, using the defaults", () => {
    const orders = byType(regs, TYPES.order);
    expect(orders).toHaveLength(1);
    expect(orders[0]!.inputs).toMatchObject({ productCode: "sandbox-dv-single", domain: "quickstart.example.com", months: 12, verificationMethod: "dns" });
  });

  it("publishes the validation record to the sandbox's management API derived from certreseller:baseUrl", () => {
    const dns = byType(regs, TYPES.sandboxDns);
    expect(dns).toHaveLength(1);
    expect(dns[0]!.inputs).toMatchObject({
      managementUrl: "http://127.0.0.1:8443/management",
      fqdn: "_dnsauth.quickstart.example.com",
      type: "TXT",
      value: tokenFor("quickstart.example.com"),
    });
  });

  it("waits for the record before the certificate", () => {
    const [certificate] = byType(regs, TYPES.certificate);
    expect(certificate!.dependsOn).toEqual(expect.arrayContaining(["dcv", "site"]));
  });

  it("exports the chain and the key, the Certificate asking the engine to keep the key secret", () => {
    expect(out.fullChainPem).toContain("BEGIN CERTIFICATE");
    expect(out.orderNo).toMatch(/^CERT/);
    expect(out.privateKeyPem).toContain("PRIVATE KEY");
    expect(byType(regs, TYPES.certificate)[0]!.additionalSecretOutputs).toContain("privateKeyPem");
  });

  it("never puts the API key into any resource's inputs, the serialized providers included", () => {
    expect(regs.length).toBeGreaterThanOrEqual(4);
    for (const r of regs) {
      const text = JSON.stringify(r.inputs);
      expect(text).not.toContain(API_KEY.split(":")[0]);
      expect(text).not.toContain(API_KEY.split(":")[1]);
    }
    expect(regs.filter((r) => typeof r.inputs.__provider === "string").length).toBeGreaterThanOrEqual(4);
  });
});
