// Inline programs for scenarios the examples do not cover. They use the
// resources exactly as a user's program does; the quickstart scenario imports
// the example's own program module instead.
import type { PulumiFn } from "@pulumi/pulumi/automation";
import * as certs from "pulumi-certreseller";
import { Hold } from "./harness/hold-resource.js";

export type OrderArgs = ConstructorParameters<typeof certs.Order>[1];

/**
 * A complete company for OV/EV orders: the specification's `company_info`
 * (section 2.4) in camelCase, contactFirst being the family name.
 */
export const COMPANY: certs.CompanyInfo = {
  companyName: "Acme Widgets Ltd",
  countryCode: "DE",
  contactFirst: "Admin",
  contactLast: "Ada",
  email: "ada@acme.example.com",
  registrationNo: "HRB 123456",
  countryName: "Germany",
  province: "Berlin",
  city: "Berlin",
  address: "Examplestrasse 1",
  postalCode: "10115",
  phone: "+49 30 1234567",
  contactTitle: "Head of IT",
};

export interface CertificateProgram {
  /** Resource name prefix (also the purchase journal key's last part). */
  name?: string;
  order: OrderArgs;
  /** Publish DNS records and download the certificate (default true). */
  issue?: boolean;
  managementUrl: string;
}

/**
 * Order → Validation → one sandbox DNS record per ordered name → Certificate,
 * the shape of the issue's model program. With `issue: false` it stops after
 * the Validation (an order kept pending, e.g. to switch methods).
 */
export function certificateProgram(settings: CertificateProgram): PulumiFn {
  return async () => {
    const name = settings.name ?? "site";
    const order = new certs.Order(name, settings.order);
    const validation = new certs.Validation(name, { order });
    const outputs: Record<string, unknown> = {
      orderNo: order.orderNo,
      price: order.price,
      quotedPrice: order.quotedPrice,
      certStatus: order.certStatus,
      method: validation.method,
      records: validation.records,
    };
    const method = String(settings.order.verificationMethod ?? "dns");
    if (method === "dns" || method === "cname") {
      const names = [settings.order.domain, ...((settings.order.sanDomains as string[] | undefined) ?? [])].map(String);
      const dnsRecords = names.map((domain, i) => {
        const record = validation.dnsRecordFor(domain);
        return new certs.testing.SandboxDnsRecord(`${name}-dcv-${i}`, {
          managementUrl: settings.managementUrl,
          fqdn: record.fqdn,
          type: record.type,
          value: record.value,
        });
      });
      if (settings.issue !== false) {
        const certificate = new certs.Certificate(name, { orderNo: order.orderNo }, { dependsOn: dnsRecords });
        outputs.fullChainPem = certificate.fullChainPem;
        outputs.privateKeyPem = certificate.privateKeyPem;
        outputs.serialNumber = certificate.serialNumber;
      }
    }
    return outputs;
  };
}

/** Only Orders: for scenarios about purchases (preview classification, bad input, policies). */
export function ordersProgram(orders: Record<string, OrderArgs>): PulumiFn {
  return async () => {
    const outputs: Record<string, unknown> = {};
    for (const [name, args] of Object.entries(orders)) {
      const order = new certs.Order(name, args);
      outputs[`${name}OrderNo`] = order.orderNo;
    }
    return outputs;
  };
}

/** Orders, each followed by a resource that takes `holdMs` to create: the engine stays busy after the Orders. */
export function ordersThenHoldProgram(settings: { orders: Record<string, OrderArgs>; holdMs: number }): PulumiFn {
  return async () => {
    const outputs: Record<string, unknown> = {};
    for (const [name, args] of Object.entries(settings.orders)) {
      const order = new certs.Order(name, args);
      new Hold(`${name}-hold`, { after: order.orderNo, holdMs: settings.holdMs });
      outputs[`${name}OrderNo`] = order.orderNo;
    }
    return outputs;
  };
}

/** The programs a child process can run by name (tests/e2e/harness/up-child.ts). */
export const PROGRAMS = {
  orders: ordersProgram,
  ordersThenHold: ordersThenHoldProgram,
  certificate: certificateProgram,
} as const;
export type ProgramName = keyof typeof PROGRAMS;
