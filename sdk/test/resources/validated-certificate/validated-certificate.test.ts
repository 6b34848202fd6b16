import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { opensslChain } from "../../../../tests/support/openssl.js";

// The component's graph under setMocks: children, one publish call per
// name at program time, the Certificate depending on every published record.
interface Reg {
  type: string;
  name: string;
  parent: string;
  dependencies: string[];
  inputs: Record<string, any>;
  urn: string;
}
const regs: Reg[] = [];
// A real leaf and key: the Certificate reads serial, fingerprint and PKCS#12 from them in the program.
const TEST_CHAIN = opensslChain(["outs.example.com"]);
const KEY = TEST_CHAIN.leafKeyPem;
const CHAIN = TEST_CHAIN.leafPem.trim() + "\n";

function outputsFor(type: string, inputs: Record<string, any>): Record<string, any> {
  if (type.endsWith(":Order")) return { ...inputs, orderNo: "CERT202611230001", sanDomains: inputs.sanDomains ?? [], wildcardDomains: inputs.wildcardDomains ?? [] };
  if (type.endsWith(":Validation")) {
    return {
      ...inputs,
      records: (inputs.domains as string[]).map((d) => {
        const base = d.replace(/^\*\./, "");
        return { domain: base, orderedName: d, type: "main", method: "dns", name: "_dnsauth", fqdn: `_dnsauth.${base}`, recordType: "TXT", value: `token-${d}`, url: "", path: "", content: "", email: "", hint: "" };
      }),
    };
  }
  // The full chain is computed in the program from the leaf and the intermediates (none here).
  if (type.endsWith(":Certificate")) return { ...inputs, certId: "uuid-1", privateKeyPem: KEY, certificatePem: CHAIN, chainPem: "", notAfter: "2027-01-01T00:00:00.000Z" };
  return inputs;
}

/**
 * Fails fast, with the likely cause, when the children never register: an
 * input of one child that depends on the component itself (the Order's
 * journal key built with createUrn(parent) did) deadlocks Pulumi's
 * dependency expansion with any sibling that depends on that child.
 */
function registered<T>(o: pulumi.Output<T>): Promise<{ known: boolean; value?: T; secret: boolean }> {
  return Promise.race([
    settle(o),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error("children never registered: a child's input depends on the component (deadlock in Pulumi's dependency expansion)")), 8000),
    ),
  ]);
}

async function settle<T>(o: pulumi.Output<T>): Promise<{ known: boolean; value?: T; secret: boolean }> {
  const known: boolean = await (o as any).isKnown;
  const secret: boolean = await (o as any).isSecret;
  return { known, secret, value: known ? await new Promise<T>((r) => o.apply(r)) : undefined };
}

beforeAll(async () => {
  process.env.CERTRESELLER_API_KEY = "ak_componenttest000000001:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
  await pulumi.runtime.setMocks(
    // An Order's id is its order number, as its create returns it (Validation and Certificate take it from the id).
    { newResource: (a) => ({ id: a.type.endsWith(":Order") ? "CERT202611230001" : `${a.name}-id`, state: outputsFor(a.type, a.inputs) }), call: (a) => a.inputs },
    "proj",
    "dev",
    false,
  );
  const monitor = pulumi.runtime.getMonitor() as any;
  const register = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req: any, callback: (err: unknown, res: any) => void) =>
    register(req, (err: unknown, res: any) => {
      if (!err && res) {
        regs.push({
          type: req.getType(),
          name: req.getName(),
          parent: req.getParent(),
          dependencies: req.getDependenciesList(),
          inputs: pulumi.runtime.deserializeProperties(req.getObject()),
          urn: res.getUrn(),
        });
      }
      callback(err, res);
    });
});

describe("ValidatedCertificate", () => {
  it("declares Order, Validation and Certificate as children, publishes once per name, and the Certificate waits for every record", async () => {
    const certs = await import("../../../src/index.js");
    const seen: string[] = [];
    const site = new certs.ValidatedCertificate("site", {
      productCode: "sandbox-dv-multi",
      domain: "example.com",
      sanDomains: ["www.example.com"],
      wildcardDomains: ["*.example.com"],
      verificationMethod: "dns",
      publish: (r, { parent }) => {
        seen.push(r.name);
        return new certs.testing.SandboxDnsRecord(`dcv-${r.name}`, { managementUrl: "http://127.0.0.1:1/management", fqdn: r.fqdn, type: r.type, value: r.value }, { parent });
      },
    });
    // Called at construction, before any output resolves: preview gets the records too.
    expect(seen).toEqual(["example.com", "www.example.com", "*.example.com"]);
    expect((await registered(site.orderNo)).value).toBe("CERT202611230001");
    expect((await settle(site.fullChainPem)).value).toBe(CHAIN);
    await settle(site.certId);

    const component = regs.find((r) => r.type === "certreseller:index:ValidatedCertificate")!;
    expect(component.name).toBe("site");
    const children = regs.filter((r) => r.parent === component.urn);
    expect(children.map((r) => `${r.type.split(":").pop()}/${r.name}`).sort()).toEqual([
      "Certificate/site",
      "Order/site",
      "SandboxDnsRecord/dcv-*.example.com",
      "SandboxDnsRecord/dcv-example.com",
      "SandboxDnsRecord/dcv-www.example.com",
      "Validation/site",
    ]);
    const records = regs.filter((r) => r.type.endsWith(":SandboxDnsRecord"));
    expect(records.map((r) => r.inputs)).toEqual([
      expect.objectContaining({ fqdn: "_dnsauth.example.com", type: "TXT", value: "token-example.com" }),
      expect.objectContaining({ fqdn: "_dnsauth.www.example.com", type: "TXT", value: "token-www.example.com" }),
      expect.objectContaining({ fqdn: "_dnsauth.example.com", type: "TXT", value: "token-*.example.com" }),
    ]);
    const certificate = regs.find((r) => r.type.endsWith(":Certificate"))!;
    expect(certificate.dependencies).toEqual(expect.arrayContaining(records.map((r) => r.urn)));
    expect(certificate.inputs.orderNo).toBe("CERT202611230001");
    const order = regs.find((r) => r.type.endsWith(":Order"))!;
    expect(order.inputs).toMatchObject({ productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["www.example.com"], wildcardDomains: ["*.example.com"] });
    expect(order.inputs.publish).toBeUndefined();
  });

  it("exposes the certificate's outputs, the key material as secrets", async () => {
    const certs = await import("../../../src/index.js");
    const site = new certs.ValidatedCertificate("outs", {
      productCode: "sandbox-dv-single",
      domain: "outs.example.com",
      publish: (r) => [new certs.testing.SandboxDnsRecord(`dcv-${r.name}`, { managementUrl: "http://127.0.0.1:1/management", fqdn: r.fqdn, type: r.type, value: r.value })],
    });
    expect((await registered(site.notAfter)).value).toBe("2027-01-01T00:00:00.000Z");
    for (const secret of [site.privateKeyPkcs8Pem, site.combinedPem, site.pfxPassword]) expect((await settle(secret)).secret).toBe(true);
    // The Certificate's lazily built outputs, the same Output objects.
    expect(site.pfxBase64).toBe(site.certificate.pfxBase64);
    expect(site.serialNumber).toBe(site.certificate.serialNumber);
    expect((await settle(site.pfxBase64)).secret).toBe(true);
    expect((await settle(site.serialNumber)).value).toMatch(/^[0-9A-F]+$/);
    expect((await settle(site.combinedPem)).value).toBe(`${KEY.trim()}\n${CHAIN}`);
    expect(site.records).toHaveLength(1);
  });

  it("refuses names from Outputs (publish needs them at program time) and the import option", async () => {
    const certs = await import("../../../src/index.js");
    const publish = () => [];
    expect(() => new certs.ValidatedCertificate("o", { productCode: "p", domain: pulumi.output("x.example.com") as unknown as string, publish })).toThrow(/must be plain strings/);
    expect(() => new certs.ValidatedCertificate("i", { productCode: "p", domain: "x.example.com", publish }, { import: "CERT1" } as pulumi.ComponentResourceOptions)).toThrow(/`import` resource option[\s\S]*adoptOrderNo/);
  });

  it("passes customTimeouts to the Certificate, the child that waits", async () => {
    const certs = await import("../../../src/index.js");
    const site = new certs.ValidatedCertificate("ct", { productCode: "sandbox-dv-single", domain: "ct.example.com", publish: () => [] }, { customTimeouts: { create: "5m" } });
    await registered(site.certId);
    const certificate = regs.filter((r) => r.type.endsWith(":Certificate")).find((r) => r.name === "ct")!;
    expect(certificate.inputs).toMatchObject({ timeoutMinutes: 5, timeoutOrigin: 'customTimeouts.create "5m"' });
  });
});
