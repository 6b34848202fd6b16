/**
 * A multi-domain certificate whose DNS validation records are published in a
 * Cloudflare zone by `cloudflare.DnsRecord` resources.
 *
 * The number of records is known at preview: it comes from the program's own
 * domain list, not from the order's (unknown until bought) answer.
 */
import * as cloudflare from "@pulumi/cloudflare";
import * as pulumi from "@pulumi/pulumi";
import * as certs from "pulumi-certreseller";

/** What this example buys and where it publishes; defaults from stack config. */
export interface CloudflareDnsSettings {
  /** Cloudflare zone id. Config `cloudflare-dns:zoneId` (required). */
  zoneId: string;
  /** Names to certify, main domain first. Config `cloudflare-dns:domains` (JSON list, required). */
  domains: string[];
  /** Product code. Config `cloudflare-dns:productCode`, default `sandbox-dv-multi`. */
  productCode: string;
  /** Term in months. Config `cloudflare-dns:months`, default 12. */
  months: number;
  /** TTL of the validation records. Config `cloudflare-dns:ttl`, default 60. */
  ttl: number;
}

/**
 * Reads {@link CloudflareDnsSettings} from stack config, with defaults;
 * explicit overrides win. Throws naming `cloudflare-dns:domains` when the
 * list is missing or empty.
 *
 * @example
 * ```ts
 * cloudflareDnsSettings({ zoneId: "0123abcd", domains: ["example.com"] }).ttl; // 60
 * ```
 */
export function cloudflareDnsSettings(overrides: Partial<CloudflareDnsSettings> = {}): CloudflareDnsSettings {
  const config = new pulumi.Config("cloudflare-dns");
  const domains = overrides.domains ?? config.requireObject<string[]>("domains");
  if (!Array.isArray(domains) || domains.length === 0 || !domains.every((d) => typeof d === "string")) {
    throw new Error('cloudflare-dns:domains must be a non-empty JSON list of names, e.g. ["example.com","www.example.com"]');
  }
  return {
    zoneId: overrides.zoneId ?? config.require("zoneId"),
    domains,
    productCode: overrides.productCode ?? config.get("productCode") ?? "sandbox-dv-multi",
    months: overrides.months ?? config.getNumber("months") ?? 12,
    ttl: overrides.ttl ?? config.getNumber("ttl") ?? 60,
  };
}

/** Pulumi resource names may not contain `*`; wildcards get a readable name. */
function resourceSuffix(domain: string): string {
  return domain.replace(/^\*\./, "wildcard.");
}

/**
 * Declares the certificate with `ValidatedCertificate`: the Order, the
 * Validation, one Cloudflare DNS record per name (from `publish`, called
 * once per name at preview too) and the Certificate, which depends on every
 * record.
 *
 * @example
 * ```ts
 * const out = cloudflareDns({ zoneId: "0123abcd...", domains: ["example.com", "www.example.com"] });
 * export const fullChainPem = out.fullChainPem;
 * ```
 */
export function cloudflareDns(overrides: Partial<CloudflareDnsSettings> = {}) {
  const settings = cloudflareDnsSettings(overrides);
  const [main, ...more] = settings.domains;
  const site = new certs.ValidatedCertificate("site", {
    productCode: settings.productCode,
    domain: main!,
    sanDomains: more.filter((d) => !d.startsWith("*.")),
    wildcardDomains: more.filter((d) => d.startsWith("*.")),
    months: settings.months,
    verificationMethod: "dns",
    publish: (r, { parent }) =>
      new cloudflare.DnsRecord(`dcv-${resourceSuffix(r.name)}`, { zoneId: settings.zoneId, name: r.fqdn, type: r.type, content: r.value, ttl: settings.ttl }, { parent }),
  });
  const records = site.records as cloudflare.DnsRecord[];
  return {
    orderNo: site.orderNo,
    recordNames: pulumi.all(records.map((r) => r.name)),
    fullChainPem: site.fullChainPem,
    /** Secret. */
    privateKeyPem: site.privateKeyPem,
    notAfter: site.notAfter,
  };
}
