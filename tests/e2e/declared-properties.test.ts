// Every declared property of every resource exists at run time, through the
// real engine: a program that gives each resource only what it must still
// has an Output for every declared output, and the inputs it left out come
// back as the provider filled them in (defaults from `check`, the method the
// service applied). Before, `order.keySpec` was undefined and `pulumi up`
// printed "Undefined value (keySpec) will not show as a stack output".
import type { Stack, UpResult } from "@pulumi/pulumi/automation";
import * as certs from "pulumi-certreseller";
import { CERTIFICATE } from "pulumi-certreseller/dist/resources/certificate/declaration.js";
import { ORDER } from "pulumi-certreseller/dist/resources/order/declaration.js";
import { VALIDATED_CERTIFICATE } from "pulumi-certreseller/dist/resources/validated-certificate/declaration.js";
import { VALIDATION } from "pulumi-certreseller/dist/resources/validation/declaration.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingOutputs as missing } from "../support/declared-outputs.js";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { createWorld, openStack, recorder, type E2eWorld } from "./harness/stack.js";

const DOMAIN = "declared.e2e.example.com";


describe("every declared property exists at run time (engine)", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;
  let up: UpResult;
  const transcript = recorder();

  beforeAll(async () => {
    sandbox = await startTestSandbox({ validation: "published" });
    world = createWorld(sandbox);
    stack = await openStack(world, "declared-properties", async () => {
      // Only the required inputs: no verificationMethod, algorithms, term or payment method.
      const order = new certs.Order("bare", { productCode: "sandbox-dv-single", domain: DOMAIN });
      const validation = new certs.Validation("bare", { order });
      const records = [DOMAIN].map((d) => {
        const r = validation.dnsRecordFor(d);
        return new certs.testing.SandboxDnsRecord(`dcv-${d}`, { managementUrl: sandbox.managementUrl, fqdn: r.fqdn, type: r.type, value: r.value });
      });
      const certificate = new certs.Certificate("bare", { order }, { dependsOn: records });
      const component = new certs.ValidatedCertificate("component", {
        productCode: "sandbox-dv-single",
        domain: `c.${DOMAIN}`,
        publish: (r) => new certs.testing.SandboxDnsRecord(`dcv-c-${r.name}`, { managementUrl: sandbox.managementUrl, fqdn: r.fqdn, type: r.type, value: r.value }),
      });
      return {
        missing: {
          Order: missing(ORDER, order),
          Validation: missing(VALIDATION, validation),
          Certificate: missing(CERTIFICATE, certificate),
          ValidatedCertificate: missing(VALIDATED_CERTIFICATE, component),
        },
        defaults: {
          keySpec: order.keySpec,
          signatureAlgorithm: order.signatureAlgorithm,
          hashAlgorithm: order.hashAlgorithm,
          paymentMethod: order.paymentMethod,
          months: order.months,
          sanDomains: order.sanDomains,
          verificationMethod: order.verificationMethod,
        },
        orderNo: order.orderNo,
        certId: certificate.certId,
      };
    });
  });

  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await sandbox?.stop();
    world?.dispose();
  });

  it("up: no declared output is missing, and the left-out inputs are outputs with the values the provider filled in", async () => {
    up = await stack.up({ onOutput: transcript.onOutput, onError: transcript.onError, onEvent: transcript.onEvent });
    expect(up.summary.result).toBe("succeeded");
    expect(up.outputs.missing?.value).toEqual({ Order: [], Validation: [], Certificate: [], ValidatedCertificate: [] });
    const order = await sandbox.management.order(String(up.outputs.orderNo?.value));
    expect(up.outputs.defaults?.value).toEqual({
      keySpec: "rsa-2048",
      signatureAlgorithm: "rsa",
      hashAlgorithm: "sha256",
      paymentMethod: "balance",
      months: 12,
      sanDomains: [],
      // The product's default, as the service applied it (the sandbox's record of the order agrees).
      verificationMethod: "dns",
    });
    expect(JSON.stringify(order)).toContain('"dns"');
    expect(transcript.output).not.toMatch(/Undefined value/);
  });
});
