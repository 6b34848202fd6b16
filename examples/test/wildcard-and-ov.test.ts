import { beforeAll, describe, expect, it } from "vitest";
import { byType, installMocks, settle, tokenFor, TYPES, type Registration } from "./mocks";
import { EXAMPLE_COMPANY, wildcardAndOv } from "../wildcard-and-ov/program";

let regs: Registration[];

beforeAll(async () => {
  regs = await installMocks({ config: { "certreseller:baseUrl": "http://127.0.0.1:9" } });
  await settle(wildcardAndOv());
});

describe("wildcard-and-ov graph", () => {
  it("orders the OV flex product with plain names, wildcards and the company", async () => {
    const [order] = byType(regs, TYPES.order);
    expect(order!.inputs).toMatchObject({
      productCode: "sandbox-ov-flex",
      domain: "example.com",
      sanDomains: ["www.example.com"],
      wildcardDomains: ["*.example.com", "*.api.example.com"],
    });
    // The company (a person's ID number, phone and e-mail) reaches the engine as a secret.
    const secretSig = "4dabf18193072939515e22adb298388d";
    expect(order!.inputs.companyInfo).toEqual({ [secretSig]: "1b47061264138c4ac30d75fd1eb44270", value: EXAMPLE_COMPANY });
  });

  it("publishes one record per name; a wildcard's at its base name with its own token", () => {
    const dns = byType(regs, TYPES.sandboxDns);
    expect(dns.map((r) => r.name).sort()).toEqual(
      ["dcv-example.com", "dcv-www.example.com", "dcv-wildcard.example.com", "dcv-wildcard.api.example.com"].sort(),
    );
    const wildcard = dns.find((r) => r.name === "dcv-wildcard.example.com")!;
    expect(wildcard.inputs).toMatchObject({ fqdn: "_dnsauth.example.com", value: tokenFor("*.example.com") });
    const [certificate] = byType(regs, TYPES.certificate);
    for (const r of dns) expect(certificate!.dependsOn).toContain(r.name);
  });
});
