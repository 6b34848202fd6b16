import { beforeAll, describe, expect, it } from "vitest";
import { generateKeyPairSync } from "node:crypto";
import { installMocks, settle, type Registration } from "../validation/mocks.js";

const KEY = "ak_certificateclass0000001:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
let regs: Registration[];
// A SEC1 EC key, as some services send it; the class derives the PKCS#8 form.
const SEC1 = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "sec1", format: "pem" }).toString();
const CHAIN = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";

beforeAll(async () => {
  process.env.CERTRESELLER_API_KEY = KEY;
  regs = await installMocks({ preview: false, outputs: (_t, _n, inputs) => ({ ...inputs, certId: "uuid-1", privateKeyPem: SEC1, fullChainPem: CHAIN }) });
});

describe("Certificate class under setMocks", () => {
  it("registers its token, asks for privateKeyPem to be secret, keeps a small credential-free provider", async () => {
    const { Certificate } = await import("../../src/resources/certificate.js");
    const cert = new Certificate("site", { orderNo: "CERT1", timeoutMinutes: 30 }, { additionalSecretOutputs: ["csrPem"] });
    expect(await settle(cert.certId)).toEqual({ known: true, value: "uuid-1" });
    // declare readonly: outputs are not clobbered by class fields.
    expect(await settle(cert.fullChainPem)).toEqual({ known: true, value: CHAIN });
    expect(Certificate.__pulumiType).toBe("pulumi-nodejs:dynamic/certreseller:Certificate");
    const reg = regs.find((r) => r.name === "site")!;
    expect(reg.type).toBe(Certificate.__pulumiType);
    expect(reg.additionalSecretOutputs.sort()).toEqual(["csrPem", "pfxBase64", "pfxPassword", "privateKeyPem"]);
    const provider = reg.inputs.__provider as string;
    expect(provider.length).toBeLessThan(4096);
    expect(provider).toContain(`{h: "certificate", configure: `);
    expect(provider).not.toContain(KEY.split(":")[1]);
  });

  it("sends a plain-string pfxPassword to the engine as a secret (an input is stored as given)", async () => {
    const { Certificate } = await import("../../src/resources/certificate.js");
    const cert = new Certificate("pfx-plain", { orderNo: "CERT1", pfxPassword: "plain-pfx-password" });
    await settle(cert.certId);
    const raw = regs.find((r) => r.name === "pfx-plain")!.rawInputs.pfxPassword;
    expect(raw).toMatchObject({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "plain-pfx-password" });
  });

  it("derives privateKeyPkcs8Pem and combinedPem in the program, as secrets, without storing them", async () => {
    const { Certificate } = await import("../../src/resources/certificate.js");
    const cert = new Certificate("formats", { orderNo: "CERT1" });
    const pkcs8 = await settle(cert.privateKeyPkcs8Pem);
    expect(pkcs8.value).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(await (cert.privateKeyPkcs8Pem as any).isSecret).toBe(true);
    expect(await (cert.combinedPem as any).isSecret).toBe(true);
    expect((await settle(cert.combinedPem)).value).toBe(`${SEC1.trim()}\n${CHAIN}`);
    const reg = regs.find((r) => r.name === "formats")!;
    expect(Object.keys(reg.inputs)).not.toContain("combinedPem");
    expect(Object.keys(reg.inputs)).not.toContain("privateKeyPkcs8Pem");
  });

  it("carries customTimeouts.create (or .update) into the wait, and refuses a disagreeing timeoutMinutes", async () => {
    const { Certificate } = await import("../../src/resources/certificate.js");
    new Certificate("ct-create", { orderNo: "CERT1" }, { customTimeouts: { create: "1h30m" } });
    new Certificate("ct-update", { orderNo: "CERT1" }, { customTimeouts: { update: "90s" } });
    new Certificate("ct-same", { orderNo: "CERT1", timeoutMinutes: 2 }, { customTimeouts: { create: "2m" } });
    await settle(new Certificate("ct-none", { orderNo: "CERT1" }).certId);
    const inputsOf = (n: string) => regs.find((r) => r.name === n)!.inputs;
    expect(inputsOf("ct-create")).toMatchObject({ timeoutMinutes: 90, timeoutOrigin: 'customTimeouts.create "1h30m"' });
    expect(inputsOf("ct-update")).toMatchObject({ timeoutMinutes: 1.5, timeoutOrigin: 'customTimeouts.update "90s"' });
    expect(inputsOf("ct-same")).toMatchObject({ timeoutMinutes: 2 });
    expect(inputsOf("ct-none").timeoutMinutes).toBeUndefined();
    expect(() => new Certificate("ct-clash", { orderNo: "CERT1", timeoutMinutes: 30 }, { customTimeouts: { create: "1m" } })).toThrow(
      /timeoutMinutes 30 and customTimeouts\.create "1m" \(1 min\) disagree/,
    );
    expect(() => new Certificate("ct-bad", { orderNo: "CERT1" }, { customTimeouts: { create: "ten minutes" } })).toThrow(/"ten minutes" is not a duration/);
  });

  it("refuses the import option at construction, pointing at adoptOrderNo", async () => {
    const { Certificate } = await import("../../src/resources/certificate.js");
    const { Validation } = await import("../../src/resources/validation.js");
    expect(() => new Certificate("imp", { orderNo: "CERT1" }, { import: "uuid-1" })).toThrow(/Certificate "imp": the `import` resource option cannot work[\s\S]*dynamic[\s\S]*adoptOrderNo/);
    expect(() => new Validation("imp", { orderNo: "CERT1", domains: ["a.example.com"] }, { import: "CERT1" })).toThrow(/Validation "imp": the `import` resource option[\s\S]*holds no purchase[\s\S]*adoptOrderNo/);
  });
});
