import { beforeAll, describe, expect, it } from "vitest";
import { installMocks, settle, type Registration } from "../../support/pulumi-mocks.js";

const KEY = "ak_validationclass00000001:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
let regs: Registration[];

// A preview: the Order echoes its inputs (the engine does that for a planned
// create) but its orderNo, requestId and the Validation's records are unknown.
beforeAll(async () => {
  process.env.CERTRESELLER_API_KEY = KEY;
  regs = await installMocks({
    preview: true,
    outputs: (type, _name, inputs) => {
      if (type.endsWith(":Order")) {
        const { orderNo: _o, requestId: _r, ...echo } = inputs;
        return echo;
      }
      if (type.endsWith(":Validation")) {
        const { records: _r, orderNo: _o, method: _m, requestId: _q, ...echo } = inputs;
        return echo;
      }
      return inputs;
    },
  });
});

describe("Validation class under setMocks (preview)", () => {
  it("registers its token; the user's own domains give one DNS record each at preview", async () => {
    const { Order } = await import("../../../src/resources/order.js");
    const { Validation } = await import("../../../src/resources/validation.js");
    const { SandboxDnsRecord } = await import("../../../src/sandbox-records/index.js");
    const domains = ["example.com", "www.example.com", "*.example.com"];
    const order = new Order("site", { productCode: "sandbox-dv-flex", domain: domains[0]!, sanDomains: [domains[1]!], wildcardDomains: [domains[2]!], verificationMethod: "dns" });
    const validation = new Validation("site", { order });
    const records = domains.map((d) => {
      const r = validation.dnsRecordFor(d);
      return new SandboxDnsRecord(`dcv-${d}`, { managementUrl: "http://127.0.0.1:1/management", fqdn: r.fqdn, type: r.type, value: r.value });
    });
    expect(records).toHaveLength(3);
    // Known at preview: the declared names, from the Order's arguments (its
    // orderedNames: main first, the rest sorted), with no dependency on its outputs.
    const ordered = [domains[0]!, domains[2]!, domains[1]!];
    expect(await settle(validation.domains)).toEqual({ known: true, value: ordered });
    // The record values themselves are not known until up.
    expect((await settle(validation.dnsRecordFor("www.example.com"))).known).toBe(false);
    await settle(records[2]!.urn);

    expect(Validation.__pulumiType).toBe("pulumi-nodejs:dynamic/certreseller:Validation");
    const reg = regs.find((r) => r.type === Validation.__pulumiType && r.name === "site")!;
    expect(reg).toBeDefined();
    expect(reg.inputs.domains).toEqual(ordered);
    expect(reg.inputs.method).toBe("dns");
    expect(regs.filter((r) => r.type === "pulumi-nodejs:dynamic/certreseller-testing:SandboxDnsRecord")).toHaveLength(3);
    const provider = reg.inputs.__provider as string;
    expect(provider.length).toBeLessThan(100);
    expect(provider).toBe('exports.handler = () => require("pulumi-certreseller/provider").provider("validation");');
    expect(provider).not.toContain(KEY.split(":")[1]);
    expect(provider).not.toContain("ak_validationclass");
  });

  // A name the Order lacks fails the program (an unhandled rejection here): tests/e2e/validation-names.test.ts shows it through the engine.
  it("the Order's own names pass the preview check in any spelling, a wildcard's base name too", async () => {
    const { Order } = await import("../../../src/resources/order.js");
    const { Validation } = await import("../../../src/resources/validation.js");
    const v = new Validation("single", { order: new Order("single", { productCode: "sandbox-dv-single", domain: "example.com" }) });
    expect((await settle(v.dnsRecordFor("EXAMPLE.com."))).known).toBe(false);
    const wildcard = new Validation("wild", { order: new Order("wild", { productCode: "sandbox-dv-wildcard", domain: "*.example.com" }) });
    expect((await settle(wildcard.dnsRecordFor("*.example.com"))).known).toBe(false);
    expect((await settle(wildcard.dnsRecordFor("example.com"))).known).toBe(false); // validated at the base name, as pickRecord picks
  });

  it("explicit orderNo + domains refuses an undeclared domain at once", async () => {
    const { Validation } = await import("../../../src/resources/validation.js");
    const v = new Validation("explicit", { orderNo: "CERT1", domains: ["a.example.com"] });
    expect(() => v.dnsRecordFor("b.example.com")).toThrow(/"b\.example\.com" is not one of the declared domains \(a\.example\.com\)/);
    expect(await settle(v.domains)).toEqual({ known: true, value: ["a.example.com"] });
  });
});
