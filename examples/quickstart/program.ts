/**
 * Quickstart: one DV certificate for one domain, validated by DNS, bought
 * from the local Partner API sandbox.
 *
 * The sandbox plays the certificate authority *and* the internet's DNS:
 * `testing.SandboxDnsRecord` publishes each validation record to it, as a DNS
 * provider resource (Cloudflare, Route 53, ...) would for a real domain.
 */
import * as pulumi from "@pulumi/pulumi";
import * as certs from "pulumi-certreseller";

/** What the quickstart buys; every field has a default from stack config. */
export interface QuickstartSettings {
  /** The domain to certify. Config `quickstart:domain`, default `quickstart.example.com`. */
  domain: string;
  /** Product code. Config `quickstart:productCode`, default `sandbox-dv-single`. */
  productCode: string;
  /** Term in months. Config `quickstart:months`, default 12. */
  months: number;
  /**
   * The sandbox management API where validation records are published.
   * Config `sandbox:managementUrl`, else `certreseller:baseUrl` (or
   * `CERTRESELLER_BASE_URL`) + `/management`.
   */
  managementUrl: string;
}

/**
 * The sandbox management URL: explicit config, else derived from the Partner
 * API base URL the provider uses (`<baseUrl>/management`).
 *
 * @example
 * ```ts
 * // pulumi config set certreseller:baseUrl http://127.0.0.1:8080
 * sandboxManagementUrl(); // "http://127.0.0.1:8080/management"
 * ```
 */
export function sandboxManagementUrl(): string {
  const explicit = new pulumi.Config("sandbox").get("managementUrl") ?? process.env.CERTRESELLER_SANDBOX_MANAGEMENT_URL;
  if (explicit) return explicit;
  const baseUrl = new pulumi.Config("certreseller").get("baseUrl") ?? process.env.CERTRESELLER_BASE_URL;
  if (!baseUrl) {
    throw new Error(
      "quickstart: no sandbox to publish validation records to. Set `pulumi config set certreseller:baseUrl <sandbox url>` " +
        "(or `sandbox:managementUrl`, or CERTRESELLER_BASE_URL).",
    );
  }
  return `${baseUrl.replace(/\/+$/, "")}/management`;
}

/**
 * Reads {@link QuickstartSettings} from stack config, with defaults; explicit
 * overrides win.
 *
 * @example
 * ```ts
 * quickstartSettings({ domain: "shop.example.com" }).productCode; // "sandbox-dv-single" unless configured
 * ```
 */
export function quickstartSettings(overrides: Partial<QuickstartSettings> = {}): QuickstartSettings {
  const config = new pulumi.Config("quickstart");
  return {
    domain: overrides.domain ?? config.get("domain") ?? "quickstart.example.com",
    productCode: overrides.productCode ?? config.get("productCode") ?? "sandbox-dv-single",
    months: overrides.months ?? config.getNumber("months") ?? 12,
    managementUrl: overrides.managementUrl ?? sandboxManagementUrl(),
  };
}

/**
 * Declares the order, its DNS validation records and the certificate.
 *
 * @example
 * ```ts
 * // index.ts of a Pulumi program
 * import { quickstart } from "./program";
 * const out = quickstart({ domain: "shop.example.com" });
 * export const fullChainPem = out.fullChainPem;
 * ```
 */
export function quickstart(overrides: Partial<QuickstartSettings> = {}) {
  const settings = quickstartSettings(overrides);
  const order = new certs.Order("site", {
    productCode: settings.productCode,
    domain: settings.domain,
    months: settings.months,
    verificationMethod: "dns",
  });
  const validation = new certs.Validation("site", { order });
  const record = validation.dnsRecordFor(settings.domain);
  const dnsRecord = new certs.testing.SandboxDnsRecord("dcv", {
    managementUrl: settings.managementUrl,
    fqdn: record.fqdn,
    type: record.type,
    value: record.value,
  });
  // The certificate waits for issuance, which needs the record published first.
  const certificate = new certs.Certificate("site", { orderNo: order.orderNo }, { dependsOn: [dnsRecord] });
  return {
    orderNo: order.orderNo,
    pricePaid: order.price.apply((p) => p?.total),
    certificatePem: certificate.certificatePem,
    fullChainPem: certificate.fullChainPem,
    /** Secret: encrypted in state, shown only with `pulumi stack output --show-secrets`. */
    privateKeyPem: certificate.privateKeyPem,
    notAfter: certificate.notAfter,
    serialNumber: certificate.serialNumber,
  };
}
