import * as pulumi from "@pulumi/pulumi";
import * as certs from "pulumi-certreseller";
import { quietRegistration } from "pulumi-certreseller/dist/program/quiet-registration.js";
import { pickRecord, toDnsRecord, type DomainValidationRecord } from "pulumi-certreseller/dist/resources/validation/records.js";
import { NoopResource } from "./noop-resource.js";

/** What both graphs are made of: per certificate an Order, its Validation, one DNS record, the Certificate. */
export interface GraphSettings {
  count: number;
  productCode: string;
  managementUrl: string;
  signatureAlgorithm: "rsa" | "ecc";
  /** The plugin Certificates' `outputFormats` (absent: not given, the plugin's default). */
  outputFormats?: string[];
  /**
   * Register the plugin graph's resources with `Error.stackTraceLimit = 0`.
   * The plugin serves Go, YAML, Python and C# programs (Node programs use the
   * TypeScript classes), and none of their SDKs formats a stack trace per
   * registered property as @pulumi/pulumi does; without it, this Node program
   * stands for them. `false` measures a generated Node SDK, which does.
   */
  quietRegistration?: boolean;
}

const domainOf = (i: number) => `bench-${i}.example.com`;

/** The real graph: what a user's program declares for `count` single-domain certificates. */
export function certificateGraph(settings: GraphSettings): pulumi.automation.PulumiFn {
  return async () => {
    for (let i = 0; i < settings.count; i++) {
      const domain = domainOf(i);
      const order = new certs.Order(`order-${i}`, {
        productCode: settings.productCode,
        domain,
        verificationMethod: "dns",
        signatureAlgorithm: settings.signatureAlgorithm,
      });
      const validation = new certs.Validation(`validation-${i}`, { order });
      const record = validation.dnsRecordFor(domain);
      const dns = new certs.testing.SandboxDnsRecord(`dns-${i}`, {
        managementUrl: settings.managementUrl,
        fqdn: record.fqdn,
        type: record.type,
        value: record.value,
      });
      new certs.Certificate(`cert-${i}`, { orderNo: order.orderNo }, { dependsOn: [dns] });
    }
  };
}

/** The package schema the plugin serves: each resource's declared outputs. */
const schema = require("pulumi-certreseller/schema.json") as { resources: Record<string, { properties?: Record<string, unknown> }> };

type PluginResource = pulumi.CustomResource & Record<string, pulumi.Output<any>>;
/** `pulumi.CustomResource` is abstract in its typings only. */
class PluginCustomResource extends pulumi.CustomResource {}

/**
 * A resource served by the provider plugin, registered as a generated SDK
 * class registers it: the given inputs, and every other declared output
 * present as `undefined` (so the engine reports it back). The engine starts
 * the installed `pulumi-resource-certreseller` for the type token's package.
 */
function pluginResource(token: string, name: string, inputs: Record<string, pulumi.Input<unknown>>, opts?: pulumi.CustomResourceOptions, quiet = false): PluginResource {
  const declared = schema.resources[token]?.properties;
  if (!declared) throw new Error(`bench: ${token} is not in pulumi-certreseller's schema.json`);
  const props: Record<string, pulumi.Input<unknown>> = {};
  for (const output of Object.keys(declared)) props[output] = undefined;
  using _registration = quiet ? quietRegistration() : undefined;
  // The constructor assigns each registered property to the object as an Output.
  return new PluginCustomResource(token, name, { ...props, ...inputs }, opts) as unknown as PluginResource;
}

/**
 * The real graph of `certificateGraph`, the same resources with the same
 * inputs and edges, served by the provider plugin instead of the dynamic
 * provider: what a program using the plugin (a generated SDK, or YAML)
 * declares. The Validation's inputs are those the TypeScript class sends for
 * `{ order }` (the Order's id, its names from the program, its method and
 * request id); the DNS record is `dnsRecordFor`'s pick of the plugin's
 * (already expanded) records.
 */
export function pluginCertificateGraph(settings: GraphSettings): pulumi.automation.PulumiFn {
  const quiet = settings.quietRegistration === true;
  return async () => {
    for (let i = 0; i < settings.count; i++) {
      const domain = domainOf(i);
      const order = pluginResource("certreseller:index:Order", `order-${i}`, {
        productCode: settings.productCode,
        domain,
        verificationMethod: "dns",
        signatureAlgorithm: settings.signatureAlgorithm,
      }, undefined, quiet);
      const validation = pluginResource("certreseller:index:Validation", `validation-${i}`, {
        orderNo: order.id,
        domains: [domain],
        method: order.verificationMethod,
        requestId: order.requestId,
      }, undefined, quiet);
      const record = (validation.records as pulumi.Output<DomainValidationRecord[]>).apply((records) => toDnsRecord(pickRecord(records, domain), domain));
      const dns = pluginResource("certreseller:testing:SandboxDnsRecord", `dns-${i}`, {
        managementUrl: settings.managementUrl,
        fqdn: record.fqdn,
        type: record.type,
        value: record.value,
      }, undefined, quiet);
      const formats = settings.outputFormats === undefined ? {} : { outputFormats: settings.outputFormats };
      pluginResource("certreseller:index:Certificate", `cert-${i}`, { orderNo: order.orderNo, ...formats }, { dependsOn: [dns] }, quiet);
    }
  };
}

/** The same graph — same count, same edges — of resources whose provider does nothing. */
export function noopGraph(settings: GraphSettings): pulumi.automation.PulumiFn {
  return async () => {
    for (let i = 0; i < settings.count; i++) {
      const domain = domainOf(i);
      const order = new NoopResource(`order-${i}`, {
        productCode: settings.productCode,
        domain,
        verificationMethod: "dns",
        signatureAlgorithm: settings.signatureAlgorithm,
      });
      const validation = new NoopResource(`validation-${i}`, { order: order.id });
      const dns = new NoopResource(`dns-${i}`, { managementUrl: settings.managementUrl, fqdn: validation.id });
      new NoopResource(`cert-${i}`, { orderNo: order.id }, { dependsOn: [dns] });
    }
  };
}
