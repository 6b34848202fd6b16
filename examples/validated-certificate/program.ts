/**
 * The common case in one call: `ValidatedCertificate` orders the names,
 * hands each name's validation record to `publish`, and waits for the
 * certificate once every record is published. Here the records go to the
 * sandbox's DNS (`testing.SandboxDnsRecord`); with a real domain, return a
 * Cloudflare or Route 53 record instead.
 */
import * as pulumi from "@pulumi/pulumi";
import * as certs from "pulumi-certreseller";

/**
 * Where the sandbox takes DNS records: config `sandbox:managementUrl`, else
 * `<certreseller:baseUrl>/management`.
 *
 * @example
 * ```ts
 * managementUrl(); // "http://127.0.0.1:8080/management"
 * ```
 */
export function managementUrl(): string {
  const explicit = new pulumi.Config("sandbox").get("managementUrl") ?? process.env.CERTRESELLER_SANDBOX_MANAGEMENT_URL;
  const baseUrl = new pulumi.Config("certreseller").get("baseUrl") ?? process.env.CERTRESELLER_BASE_URL;
  if (!explicit && !baseUrl) throw new Error("validated-certificate: set certreseller:baseUrl (or sandbox:managementUrl) to the sandbox");
  return explicit ?? `${baseUrl!.replace(/\/+$/, "")}/management`;
}

/**
 * Declares the certificate for `domain` and its `www.` name.
 *
 * @example
 * ```ts
 * const site = validatedCertificate({ domain: "shop.example.com" });
 * export const fullChainPem = site.fullChainPem;
 * ```
 */
export function validatedCertificate(settings: { domain?: string } = {}) {
  const domain = settings.domain ?? new pulumi.Config("site").get("domain") ?? "site.example.com";
  const dns = managementUrl();
  return new certs.ValidatedCertificate("site", {
    productCode: "sandbox-dv-multi",
    domain,
    sanDomains: [`www.${domain}`],
    verificationMethod: "dns",
    publish: (r) => new certs.testing.SandboxDnsRecord(`dcv-${r.name}`, { managementUrl: dns, fqdn: r.fqdn, type: r.type, value: r.value }),
  });
}
