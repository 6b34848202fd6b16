/**
 * The Rfc2136Record class under setMocks: its token, provider text, the
 * secret sent as a secret and asked to stay one as an output, and its use
 * as the records of ValidatedCertificate's `publish`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { installMocks, settle, type Registration } from "../../support/pulumi-mocks.js";

const SECRET = Buffer.from("class test secret, never in plaintext").toString("base64");
const SIG = "4dabf18193072939515e22adb298388d"; // Pulumi's secret signature
let regs: Registration[];

beforeAll(async () => {
  process.env.CERTRESELLER_API_KEY = "ak_rfc2136classtest000001:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
  regs = await installMocks({
    preview: false,
    outputs: (type, name, inputs) => {
      if (type.endsWith(":Order")) return { ...inputs, orderNo: "CERT202611250001" };
      if (type.endsWith(":Validation")) {
        return {
          ...inputs,
          method: "dns",
          records: (inputs.domains as string[]).map((d) => ({
            domain: d, orderedName: d, type: "main", method: "dns", name: "_dnsauth", fqdn: `_dnsauth.${d}`, recordType: "TXT", value: `token-${d}`,
            url: "", path: "", content: "", email: "", hint: "",
          })),
        };
      }
      return { ...inputs, id: name };
    },
  });
});

const args = (over: Record<string, unknown> = {}) => ({
  server: "127.0.0.1:5353",
  zone: "e2e.test",
  fqdn: "_dnsauth.www.e2e.test",
  type: "TXT",
  value: "token",
  tsigKeyName: "certreseller-e2e.",
  tsigSecret: SECRET,
  ...over,
});

describe("Rfc2136Record class", () => {
  it("registers its token and provider text, sends the secret as a secret and keeps it secret as an output", async () => {
    const { Rfc2136Record } = await import("../../../src/index.js");
    const record = new Rfc2136Record("plain-secret", args());
    await settle(record.urn);
    expect(Rfc2136Record.__pulumiType).toBe("pulumi-nodejs:dynamic/certreseller:Rfc2136Record");
    const reg = regs.find((r) => r.name === "plain-secret")!;
    expect(reg.type).toBe(Rfc2136Record.__pulumiType);
    expect(reg.inputs.__provider).toBe('exports.handler = () => require("pulumi-certreseller/provider").provider("rfc2136-record");');
    // A plain string from the program still travels wrapped as a secret...
    expect(reg.rawInputs.tsigSecret).toEqual({ [SIG]: "1b47061264138c4ac30d75fd1eb44270", value: SECRET });
    // ...and the engine is asked to keep the output secret (state encrypts it).
    expect(reg.additionalSecretOutputs).toEqual(["tsigSecret"]);
    expect((await (record.tsigSecret as any).isSecret) as boolean).toBe(true);
    for (const name of ["server", "zone", "fqdn", "type", "value", "tsigKeyName"]) expect(JSON.stringify(reg.rawInputs[name])).not.toContain(SIG);
  });

  it("keeps additionalSecretOutputs the program gives", async () => {
    const { Rfc2136Record } = await import("../../../src/index.js");
    const record = new Rfc2136Record("more-secrets", args(), { additionalSecretOutputs: ["value"] });
    await settle(record.urn);
    expect(regs.find((r) => r.name === "more-secrets")!.additionalSecretOutputs).toEqual(["value", "tsigSecret"]);
  });

  it("refuses the import option, saying what to do instead", async () => {
    const { Rfc2136Record } = await import("../../../src/index.js");
    expect(() => new Rfc2136Record("imported", args(), { import: "TXT _dnsauth.www.e2e.test" })).toThrow(/Rfc2136Record "imported": the `import` resource option cannot work.*declare it as usual/);
  });

  it("is what ValidatedCertificate's publish returns: one record per name, the Certificate waits for them", async () => {
    const certs = await import("../../../src/index.js");
    const site = new certs.ValidatedCertificate("rfc", {
      productCode: "sandbox-dv-multi",
      domain: "www.e2e.test",
      sanDomains: ["api.e2e.test"],
      verificationMethod: "dns",
      publish: (r, { parent }) =>
        new certs.Rfc2136Record(`dcv-${r.name}`, { ...args(), fqdn: r.fqdn, type: r.type, value: r.value }, { parent }),
    });
    await settle(site.orderNo);
    await settle(site.certificate.urn);
    const records = regs.filter((r) => r.type.endsWith(":Rfc2136Record") && r.name.startsWith("dcv-"));
    expect(records.map((r) => [r.name, r.inputs.fqdn, r.inputs.type, r.inputs.value])).toEqual([
      ["dcv-www.e2e.test", "_dnsauth.www.e2e.test", "TXT", "token-www.e2e.test"],
      ["dcv-api.e2e.test", "_dnsauth.api.e2e.test", "TXT", "token-api.e2e.test"],
    ]);
    expect(site.records).toHaveLength(2);
    expect(records.every((r) => r.additionalSecretOutputs.includes("tsigSecret"))).toBe(true);
  });
});
