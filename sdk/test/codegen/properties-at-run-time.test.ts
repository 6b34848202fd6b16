/**
 * Every declared output exists at run time: each resource's instance has an
 * `Output` for every declared output (a child object for the component's
 * TypeScript-only ones), with a program that gives only what it must. The
 * engine's side is in tests/e2e (declared-properties.test.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { missingOutputs as missing } from "../../../tests/support/declared-outputs.js";
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
