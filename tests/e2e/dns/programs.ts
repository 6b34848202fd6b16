// The DNS scenarios' inline programs: the quickstart shape (Order →
// Validation → one Rfc2136Record per name → Certificate) and the same
// through ValidatedCertificate's `publish`, publishing into a BIND of
// scripts/dns/ exactly as a user's program publishes into their own server.
import * as pulumi from "@pulumi/pulumi";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import * as certs from "pulumi-certreseller";
import type { RunningBind } from "../../../scripts/dns/index.js";

/** The stack config key holding the TSIG secret (set as a secret, as a user would). */
export const TSIG_SECRET_CONFIG = "rfc2136:tsigSecret";

/** Stack config for a program of this file: the BIND key's secret, as a secret. */
export function tsigConfig(bind: RunningBind): Record<string, { value: string; secret: boolean }> {
  return { [TSIG_SECRET_CONFIG]: { value: bind.secret, secret: true } };
}

/** Where the records go, the program's view: no secret here (it comes from stack config). */
export interface DnsTarget {
  server: string;
  zone: string;
  tsigKeyName: string;
}

export function dnsTarget(bind: RunningBind): DnsTarget {
  return { server: bind.address, zone: bind.zone, tsigKeyName: bind.keyName };
}

export interface Rfc2136Program {
  names: string[];
  method: "dns" | "cname";
  target: DnsTarget;
  /** Publish the records (default true). */
  publish?: boolean;
  /** Declare the Certificate, which waits for issuance (default true). */
  issue?: boolean;
}

/**
 * Order → Validation → an Rfc2136Record per ordered name → Certificate that
 * depends on the records. Without `publish` it stops at the Validation (an
 * order bought, nothing published); without `issue`, before the Certificate.
 */
export function rfc2136Program(settings: Rfc2136Program): PulumiFn {
  return async () => {
    const tsigSecret = new pulumi.Config("rfc2136").requireSecret("tsigSecret");
    const [domain, ...sanDomains] = settings.names;
    const order = new certs.Order("site", { productCode: "sandbox-dv-multi", domain: domain!, sanDomains, verificationMethod: settings.method });
    const validation = new certs.Validation("site", { order });
    const outputs: Record<string, unknown> = { orderNo: order.orderNo, method: validation.method, records: validation.records };
    if (settings.publish === false) return outputs;
    const records = settings.names.map((name) => {
      const r = validation.dnsRecordFor(name);
      return new certs.Rfc2136Record(`dcv-${name}`, { ...settings.target, fqdn: r.fqdn, type: r.type, value: r.value, tsigSecret });
    });
    outputs.published = records.map((r) => ({ fqdn: r.fqdn, type: r.type, value: r.value }));
    if (settings.issue === false) return outputs;
    const certificate = new certs.Certificate("site", { order }, { dependsOn: records });
    return { ...outputs, fullChainPem: certificate.fullChainPem, privateKeyPem: certificate.privateKeyPem };
  };
}

/** The same through ValidatedCertificate: `publish` returns one Rfc2136Record per name. */
export function validatedCertificateProgram(settings: { names: string[]; target: DnsTarget }): PulumiFn {
  return async () => {
    const tsigSecret = new pulumi.Config("rfc2136").requireSecret("tsigSecret");
    const [domain, ...sanDomains] = settings.names;
    const site = new certs.ValidatedCertificate("vc", {
      productCode: "sandbox-dv-multi",
      domain: domain!,
      sanDomains,
      verificationMethod: "dns",
      publish: (r, { parent }) =>
        new certs.Rfc2136Record(`dcv-${r.name}`, { ...settings.target, fqdn: r.fqdn, type: r.type, value: r.value, tsigSecret }, { parent }),
    });
    return { orderNo: site.orderNo, fullChainPem: site.fullChainPem, records: site.validation.records };
  };
}

/**
 * The end of a DNS scenario: destroy what is left, stop the sandbox, drop the
 * world, and print BIND's log of the updates it accepted (the evidence that
 * the records went through BIND) before stopping it.
 *
 * @example
 * afterAll(() => closeScenario({ stack, sandbox, world, bind }));
 */
export async function closeScenario(parts: {
  stack?: { destroy(): Promise<unknown> };
  sandbox?: { stop(): Promise<void> };
  world?: { dispose(): void };
  bind?: RunningBind;
}): Promise<void> {
  await parts.stack?.destroy().catch(() => undefined);
  await parts.sandbox?.stop();
  parts.world?.dispose();
  if (parts.bind) {
    console.log(`[bind] its log of updates:\n${parts.bind.log()}`);
    await parts.bind.stop();
  }
}
