import { beforeAll, describe, expect, it } from "vitest";
import { byType, installMocks, settle, TYPES, type Registration } from "./mocks";
import { customCsr } from "../custom-csr/program";

let regs: Registration[];
let out: Record<string, unknown>;

beforeAll(async () => {
  regs = await installMocks({ config: { "certreseller:baseUrl": "http://127.0.0.1:9" } });
  out = await settle(customCsr({ domains: ["csr.example.com", "www.csr.example.com"], keySpec: "p-384" }));
});

describe("custom-csr graph", () => {
  it("generates the key for every name of the order", () => {
    const [csr] = byType(regs, TYPES.localCsr);
    expect(csr!.inputs).toMatchObject({ commonName: "csr.example.com", dnsNames: ["csr.example.com", "www.csr.example.com"], keySpec: "p-384" });
  });

  it("sends only the CSR to the order, with a matching algorithm", () => {
    const [order] = byType(regs, TYPES.order);
    expect(order!.inputs.customCsr).toContain("BEGIN CERTIFICATE REQUEST");
    expect(order!.inputs).toMatchObject({ signatureAlgorithm: "ecc", keySpec: "p-384" });
    expect(JSON.stringify(order!.inputs)).not.toContain("PRIVATE KEY");
    expect(order!.dependsOn).toContain("site");
  });

  it("exports the local key, which LocalCsr asks the engine to keep secret", () => {
    expect(byType(regs, TYPES.localCsr)[0]!.additionalSecretOutputs).toEqual(["privateKeyPem"]);
    expect(out.privateKeyPem).toContain("BEGIN PRIVATE KEY");
  });
});
