import * as pulumi from "@pulumi/pulumi";
import * as certs from "pulumi-certreseller";
import { NoopResource } from "./noop-resource.js";

/** What both graphs are made of: per certificate an Order, its Validation, one DNS record, the Certificate. */
export interface GraphSettings {
  count: number;
  productCode: string;
  managementUrl: string;
  signatureAlgorithm: "rsa" | "ecc";
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
