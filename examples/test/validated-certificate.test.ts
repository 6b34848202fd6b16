import { beforeAll, describe, expect, it } from "vitest";
import { byType, installMocks, settle, tokenFor, TYPES, type Registration } from "./mocks";
import { validatedCertificate } from "../validated-certificate/program";

const API_KEY = "ak_examplesvalidated00000001:9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0";
let regs: Registration[];
let out: Record<string, unknown>;

beforeAll(async () => {
  regs = await installMocks({ config: { "certreseller:baseUrl": "http://127.0.0.1:8443/", "certreseller:apiKey": API_KEY } });
  const site = validatedCertificate({ domain: "shop.example.com" });
  out = await Promise.race([
    settle({ orderNo: site.orderNo, fullChainPem: site.fullChainPem, combinedPem: site.combinedPem }),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the component's children never registered (a child input that depends on the component deadlocks Pulumi)")), 10_000)),
  ]);
}, 20_000);

describe("validated-certificate graph", () => {
  it("is one component holding the order, the validation, one DNS record per name and the certificate", () => {
    const component = regs.find((r) => r.type === "certreseller:index:ValidatedCertificate")!;
    expect(component.name).toBe("site");
    expect(byType(regs, TYPES.order)[0]!.inputs).toMatchObject({ productCode: "sandbox-dv-multi", domain: "shop.example.com", sanDomains: ["www.shop.example.com"], verificationMethod: "dns" });
    const dns = byType(regs, TYPES.sandboxDns);
    expect(dns.map((r) => [r.name, r.inputs.fqdn, r.inputs.value])).toEqual([
      ["dcv-shop.example.com", "_dnsauth.shop.example.com", tokenFor("shop.example.com")],
      ["dcv-www.shop.example.com", "_dnsauth.www.shop.example.com", tokenFor("www.shop.example.com")],
    ]);
    for (const r of dns) expect(r.inputs.managementUrl).toBe("http://127.0.0.1:8443/management");
  });

  it("the certificate waits for every record and keeps the key material secret", () => {
    const [certificate] = byType(regs, TYPES.certificate);
    expect(certificate!.dependsOn).toEqual(expect.arrayContaining(["dcv-shop.example.com", "dcv-www.shop.example.com"]));
    // The only stored secret; the PKCS#12 pair is computed in the program, as secrets.
    expect(certificate!.additionalSecretOutputs).toEqual(["privateKeyPem"]);
    expect(out.orderNo).toMatch(/^CERT/);
    expect(out.combinedPem).toMatch(/PRIVATE KEY[\s\S]*BEGIN CERTIFICATE/);
  });

  it("is about ten lines of program", async () => {
    const fs = await import("node:fs");
    const path = await import("node:path");
    const text = fs.readFileSync(path.join(__dirname, "../validated-certificate/program.ts"), "utf8");
    const body = text.slice(text.indexOf("export function validatedCertificate"));
    expect(body.split("\n").filter((l) => l.trim() !== "").length).toBeLessThanOrEqual(12);
  });
});
