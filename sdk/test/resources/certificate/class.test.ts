import { createPrivateKey } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as formats from "../../../src/pem/formats.js";
import { certificateFacts } from "../../../src/pem/inspect.js";
import { installMocks, settle, type Registration } from "../../support/pulumi-mocks.js";
import { opensslChain, opensslFingerprint, opensslSerial } from "../../../../tests/support/openssl.js";

// Counts the PKCS#12 builds, which must happen only for the programs that read the bundle.
vi.mock("../../../src/pem/formats.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../../src/pem/formats.js")>();
  return { ...actual, toPkcs12Base64: vi.fn(actual.toPkcs12Base64), toPkcs8Pem: vi.fn(actual.toPkcs8Pem) };
});

const KEY = "ak_certificateclass0000001:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
let regs: Registration[];
const chain = opensslChain(["class.example.com"]);
// A SEC1 EC key, as some services send it; the class derives the PKCS#8 form.
const SEC1 = createPrivateKey(chain.leafKeyPem).export({ type: "sec1", format: "pem" }).toString();
// As the provider stores them: one PEM block per line group, trailing newline.
const LEAF = chain.leafPem.trim() + "\n";
const INTERMEDIATES = chain.intermediatePem.trim() + "\n";
const FULL_CHAIN = LEAF + INTERMEDIATES;

beforeAll(async () => {
  process.env.CERTRESELLER_API_KEY = KEY;
  regs = await installMocks({
    preview: false,
    outputs: (_t, name, inputs) => ({
      ...inputs,
      certId: "uuid-1",
      certificatePem: LEAF,
      chainPem: INTERMEDIATES,
      // A custom-CSR order: the service holds no key.
      privateKeyPem: name.startsWith("csr") ? "" : SEC1,
      domains: ["class.example.com"],
      notAfter: certificateFacts(LEAF).notAfter,
    }),
  });
});

describe("Certificate class under setMocks", () => {
  it("registers its token, asks for privateKeyPem to be secret, keeps a small credential-free provider", async () => {
    const { Certificate } = await import("../../../src/resources/certificate.js");
    const cert = new Certificate("site", { orderNo: "CERT1", timeoutMinutes: 30 }, { additionalSecretOutputs: ["csrPem"] });
    expect(await settle(cert.certId)).toEqual({ known: true, value: "uuid-1" });
    // declare readonly: outputs are not clobbered by class fields.
    expect(await settle(cert.certificatePem)).toEqual({ known: true, value: LEAF });
    expect(Certificate.__pulumiType).toBe("pulumi-nodejs:dynamic/certreseller:Certificate");
    const reg = regs.find((r) => r.name === "site")!;
    expect(reg.type).toBe(Certificate.__pulumiType);
    // Only what is stored: the PKCS#12 pair is computed in the program.
    expect(reg.additionalSecretOutputs.sort()).toEqual(["csrPem", "privateKeyPem"]);
    const provider = reg.inputs.__provider as string;
    expect(provider.length).toBeLessThan(100);
    expect(provider).toBe('exports.handler = () => require("pulumi-certreseller/provider").provider("certificate");');
    expect(provider).not.toContain(KEY.split(":")[1]);
  });

  it("registers only the outputs it cannot compute; the derived ones are not sent nor stored", async () => {
    const { Certificate } = await import("../../../src/resources/certificate.js");
    const cert = new Certificate("slim", { orderNo: "CERT1", pfxPassword: "plain-pfx-password" });
    await settle(cert.certId);
    const raw = regs.find((r) => r.name === "slim")!.rawInputs;
    for (const k of ["pfxPassword", "pfxBase64", "fullChainPem", "serialNumber", "fingerprintSha256", "notBefore", "renewsAt", "combinedPem", "privateKeyPkcs8Pem"]) {
      expect(raw, k).not.toHaveProperty(k);
    }
    // The password is used in the program only, and comes back as a secret.
    expect(JSON.stringify(raw)).not.toContain("plain-pfx-password");
    expect(await (cert.pfxPassword as any).isSecret).toBe(true);
    expect((await settle(cert.pfxPassword)).value).toBe("plain-pfx-password");
    expect(() => new Certificate("pfx-empty", { orderNo: "CERT1", pfxPassword: "" })).toThrow(/pfxPassword must be a non-empty string/);
  });

  it("derives fullChainPem, serialNumber, fingerprintSha256 and notBefore from the stored leaf and chain, as they were stored", async () => {
    const { Certificate } = await import("../../../src/resources/certificate.js");
    const cert = new Certificate("facts", { orderNo: "CERT1" });
    expect((await settle(cert.fullChainPem)).value).toBe(FULL_CHAIN);
    expect((await settle(cert.serialNumber)).value).toBe(opensslSerial(chain.leafPem).replace(/^0+/, ""));
    expect((await settle(cert.fingerprintSha256)).value).toBe(opensslFingerprint(chain.leafPem));
    expect((await settle(cert.notBefore)).value).toBe(certificateFacts(LEAF).notBefore);
    expect(cert.serialNumber).toBe(cert.serialNumber);
    for (const o of [cert.fullChainPem, cert.serialNumber, cert.fingerprintSha256, cert.notBefore]) expect(await (o as any).isSecret).toBe(false);
  });

  it("builds the PKCS#12 bundle only when read, once per instance, the same bytes for the same certificate, as secrets", async () => {
    const { Certificate } = await import("../../../src/resources/certificate.js");
    const builds = vi.mocked(formats.toPkcs12Base64);
    builds.mockClear();
    const unread = Array.from({ length: 20 }, (_, i) => new Certificate(`unread-${i}`, { orderNo: "CERT1" }));
    await Promise.all(unread.map((c) => settle(c.combinedPem)));
    await settle(new Certificate("password-only", { orderNo: "CERT1" }).pfxPassword);
    expect(builds).not.toHaveBeenCalled();

    const a = new Certificate("pfx-a", { orderNo: "CERT1" });
    const b = new Certificate("pfx-b", { orderNo: "CERT1" });
    expect(a.pfxBase64).toBe(a.pfxBase64);
    const [pa, pb] = [await settle(a.pfxBase64), await settle(a.pfxBase64)];
    expect(builds).toHaveBeenCalledTimes(1);
    expect(pb.value).toBe(pa.value);
    expect((await settle(b.pfxBase64)).value).toBe(pa.value);
    expect((await settle(a.pfxPassword)).value).toBe(formats.derivePfxPassword(SEC1));
    expect(await (a.pfxBase64 as any).isSecret).toBe(true);
    expect(await (a.pfxPassword as any).isSecret).toBe(true);
    expect(pa.value).toBe(formats.toPkcs12Base64({ privateKeyPem: SEC1, fullChainPem: FULL_CHAIN, password: formats.derivePfxPassword(SEC1), friendlyName: "class.example.com" }));
    const given = new Certificate("pfx-given", { orderNo: "CERT1", pfxPassword: "another" });
    expect((await settle(given.pfxBase64)).value).not.toBe(pa.value);
  });

  it("converts the key to PKCS#8 only when privateKeyPkcs8Pem is read, once per instance", async () => {
    const { Certificate } = await import("../../../src/resources/certificate.js");
    const conversions = vi.mocked(formats.toPkcs8Pem);
    conversions.mockClear();
    const unread = Array.from({ length: 20 }, (_, i) => new Certificate(`pkcs8-unread-${i}`, { orderNo: "CERT1" }));
    await Promise.all(unread.map((c) => settle(c.fullChainPem)));
    expect(conversions).not.toHaveBeenCalled();
    const read = new Certificate("pkcs8-read", { orderNo: "CERT1" });
    expect(read.privateKeyPkcs8Pem).toBe(read.privateKeyPkcs8Pem);
    expect((await settle(read.privateKeyPkcs8Pem)).value).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(conversions).toHaveBeenCalledTimes(1);
    expect(await (read.privateKeyPkcs8Pem as any).isSecret).toBe(true);
  });

  it("gives empty, secret PKCS#12 outputs for a custom-CSR order (no key), even with a password", async () => {
    const { Certificate } = await import("../../../src/resources/certificate.js");
    const cert = new Certificate("csr-order", { orderNo: "CERT1", pfxPassword: "given" });
    expect((await settle(cert.pfxBase64)).value).toBe("");
    expect((await settle(cert.pfxPassword)).value).toBe("");
    expect(await (cert.pfxBase64 as any).isSecret).toBe(true);
    expect((await settle(cert.combinedPem)).value).toBe("");
    expect((await settle(cert.fullChainPem)).value).toBe(FULL_CHAIN);
  });

  it("derives privateKeyPkcs8Pem and combinedPem in the program, as secrets, without storing them", async () => {
    const { Certificate } = await import("../../../src/resources/certificate.js");
    const cert = new Certificate("formats", { orderNo: "CERT1" });
    const pkcs8 = await settle(cert.privateKeyPkcs8Pem);
    expect(pkcs8.value).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(await (cert.privateKeyPkcs8Pem as any).isSecret).toBe(true);
    expect(await (cert.combinedPem as any).isSecret).toBe(true);
    expect((await settle(cert.combinedPem)).value).toBe(`${SEC1.trim()}\n${FULL_CHAIN}`);
    const reg = regs.find((r) => r.name === "formats")!;
    expect(Object.keys(reg.inputs)).not.toContain("combinedPem");
    expect(Object.keys(reg.inputs)).not.toContain("privateKeyPkcs8Pem");
  });

  it("carries customTimeouts.create (or .update) into the wait, and refuses a disagreeing timeoutMinutes", async () => {
    const { Certificate } = await import("../../../src/resources/certificate.js");
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
    const { Certificate } = await import("../../../src/resources/certificate.js");
    const { Validation } = await import("../../../src/resources/validation.js");
    expect(() => new Certificate("imp", { orderNo: "CERT1" }, { import: "uuid-1" })).toThrow(/Certificate "imp": the `import` resource option cannot work[\s\S]*dynamic[\s\S]*adoptOrderNo/);
    expect(() => new Validation("imp", { orderNo: "CERT1", domains: ["a.example.com"] }, { import: "CERT1" })).toThrow(/Validation "imp": the `import` resource option[\s\S]*holds no purchase[\s\S]*adoptOrderNo/);
  });
});
