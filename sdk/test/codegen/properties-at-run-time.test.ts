/**
 * Every declared output exists at run time: each resource's instance has an
 * `Output` for every declared output (a child object for the component's
 * TypeScript-only ones), with a program that gives only what it must. The
 * engine's side is in tests/e2e (declared-properties.test.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import type { ResourceDeclaration } from "../../src/schema/property.js";
import { isOutput } from "../../src/schema/property.js";
import { installMocks } from "../support/pulumi-mocks.js";

beforeAll(async () => {
  process.env.CERTRESELLER_API_KEY = "ak_runtimeproperties000001:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
  // Only what a provider must report; nothing a program left out is invented.
  await installMocks({
    preview: false,
    outputs: (type, _name, inputs) => ({
      ...inputs,
      orderNo: inputs.orderNo ?? "CERT1",
      // The component's publish needs the records the Validation reads.
      ...(type.endsWith(":Validation")
        ? { records: (inputs.domains as string[]).map((d) => ({ domain: d, orderedName: d, method: "dns", name: "_dnsauth", fqdn: `_dnsauth.${d}`, recordType: "TXT", value: "t" })) }
        : {}),
    }),
  });
});

/** Declared outputs the instance lacks: an Output for data, a defined value for a TypeScript-only child. */
function missing(declaration: ResourceDeclaration, instance: object): string[] {
  const values = instance as Record<string, unknown>;
  return Object.entries(declaration.properties)
    .filter(([, p]) => isOutput(p))
    .filter(([name, p]) => (p.tsOnly ? values[name] === undefined : !pulumi.Output.isInstance(values[name])))
    .map(([name]) => name);
}

describe("every declared output is on the instance", () => {
  it("Order", async () => {
    const { Order } = await import("../../src/resources/order.js");
    const { ORDER } = await import("../../src/resources/order/declaration.js");
    expect(missing(ORDER, new Order("o", { productCode: "p", domain: "o.example.com" }))).toEqual([]);
  });

  it("Validation", async () => {
    const { Validation } = await import("../../src/resources/validation.js");
    const { VALIDATION } = await import("../../src/resources/validation/declaration.js");
    expect(missing(VALIDATION, new Validation("v", { orderNo: "CERT1", domains: ["v.example.com"] }))).toEqual([]);
  });

  it("Certificate", async () => {
    const { Certificate } = await import("../../src/resources/certificate.js");
    const { CERTIFICATE } = await import("../../src/resources/certificate/declaration.js");
    expect(missing(CERTIFICATE, new Certificate("c", { orderNo: "CERT1" }))).toEqual([]);
  });

  it("ValidatedCertificate", async () => {
    const { ValidatedCertificate } = await import("../../src/resources/validated-certificate.js");
    const { VALIDATED_CERTIFICATE } = await import("../../src/resources/validated-certificate/declaration.js");
    const component = new ValidatedCertificate("vc", {
      productCode: "p",
      domain: "vc.example.com",
      publish: (record, { parent }) => new pulumi.CustomResource("test:index:Record", `r-${record.name}`, {}, { parent }),
    });
    expect(missing(VALIDATED_CERTIFICATE, component)).toEqual([]);
  });
});
