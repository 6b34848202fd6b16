import { beforeAll, describe, expect, it } from "vitest";
import { installMocks, settle, type Registration } from "../validation/mocks.js";

const KEY = "ak_certificateclass0000001:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
let regs: Registration[];

beforeAll(async () => {
  process.env.CERTRESELLER_API_KEY = KEY;
  regs = await installMocks({ preview: false, outputs: (_t, _n, inputs) => ({ ...inputs, certId: "uuid-1", privateKeyPem: "k", fullChainPem: "c" }) });
});

describe("Certificate class under setMocks", () => {
  it("registers its token, asks for privateKeyPem to be secret, keeps a small credential-free provider", async () => {
    const { Certificate } = await import("../../src/resources/certificate.js");
    const cert = new Certificate("site", { orderNo: "CERT1", timeoutMinutes: 30 }, { additionalSecretOutputs: ["csrPem"] });
    expect(await settle(cert.certId)).toEqual({ known: true, value: "uuid-1" });
    // declare readonly: outputs are not clobbered by class fields.
    expect(await settle(cert.fullChainPem)).toEqual({ known: true, value: "c" });
    expect(Certificate.__pulumiType).toBe("pulumi-nodejs:dynamic/certreseller:Certificate");
    const reg = regs.find((r) => r.name === "site")!;
    expect(reg.type).toBe(Certificate.__pulumiType);
    expect(reg.additionalSecretOutputs.sort()).toEqual(["csrPem", "privateKeyPem"]);
    const provider = reg.inputs.__provider as string;
    expect(provider.length).toBeLessThan(4096);
    expect(provider).toContain("resources/certificate/handlers.js");
    expect(provider).not.toContain(KEY.split(":")[1]);
  });
});
