import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { byType, installMocks, settle, tokenFor, TYPES, type Registration } from "./mocks";
import { quickstart } from "../quickstart/program";

let regs: Registration[];
let out: Record<string, unknown>;
let secretKey: boolean;

beforeAll(async () => {
  regs = await installMocks({ config: { "certreseller:baseUrl": "http://127.0.0.1:8443/" } });
  const outputs = quickstart();
  secretKey = await pulumi.isSecret(outputs.privateKeyPem);
  out = await settle(outputs);
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

  it("exports the chain and the key, the key as a secret", () => {
    expect(out.fullChainPem).toContain("BEGIN CERTIFICATE");
    expect(out.orderNo).toMatch(/^CERT/);
    expect(secretKey).toBe(true);
  });

  it("never puts the API key into any resource's inputs", () => {
    for (const r of regs) expect(JSON.stringify(r.inputs)).not.toMatch(/apiKey|ak_[0-9a-z]{24}/i);
  });
});
