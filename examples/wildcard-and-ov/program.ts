/**
 * An organisation-validated (OV) certificate mixing plain names and
 * wildcards on a "flex" product (domain type `multiple-mix`). OV products need the company's details;
 * the provider's preview checks them, and the names against the product's
 * domain rules, before anything is bought.
 */
import * as pulumi from "@pulumi/pulumi";
import * as certs from "pulumi-certreseller";

/**
 * The company of an OV/EV order — the package's own type, the members of the
 * specification's `company_info` (section 2.4) in camelCase. Required:
 * `companyName`, `countryCode` (two letters), `contactFirst` (the contact's
 * family name), `contactLast` (the given name) and `email`; the rest optional.
 */
export type CompanyInfo = certs.CompanyInfo;

/** What this example buys; defaults from stack config. */
export interface WildcardAndOvSettings {
  /** Main name. Config `wildcard-and-ov:domain`, default `example.com`. */
  domain: string;
  /** Further plain names. Config `wildcard-and-ov:sanDomains` (JSON list), default `["www.example.com"]`. */
  sanDomains: string[];
  /** Wildcards. Config `wildcard-and-ov:wildcardDomains` (JSON list), default `["*.example.com", "*.api.example.com"]`. */
  wildcardDomains: string[];
  /** Product. Config `wildcard-and-ov:productCode`, default `sandbox-ov-flex` (OV, names and wildcards mixed). */
  productCode: string;
  /** Company details. Config `wildcard-and-ov:company` (JSON object), default an example company. */
  company: Partial<CompanyInfo>;
  /** Sandbox management URL for the DNS records (see the quickstart). */
  managementUrl: string;
}

/**
 * The example company used when none is configured.
 *
 * @example
 * ```ts
 * wildcardAndOv({ company: { ...EXAMPLE_COMPANY, companyName: "Acme Ltd", countryCode: "GB", countryName: "United Kingdom" } });
 * ```
 */
export const EXAMPLE_COMPANY: CompanyInfo = {
  companyName: "Example Widgets GmbH",
  countryCode: "DE",
  // The specification's contact_first is the family name, contact_last the given name.
  contactFirst: "Mustermann",
  contactLast: "Erika",
  email: "pki@example.com",
  registrationNo: "HRB 123456",
  countryName: "Germany",
  province: "Berlin",
  city: "Berlin",
  address: "Beispielstrasse 1",
  postalCode: "10115",
  phone: "+49 30 1234567",
  contactTitle: "IT Security Officer",
};

/**
 * Reads {@link WildcardAndOvSettings} from stack config, with defaults;
 * explicit overrides win.
 *
 * @example
 * ```ts
 * wildcardAndOvSettings({ managementUrl: "http://127.0.0.1:8080/management" }).wildcardDomains; // ["*.example.com", "*.api.example.com"]
 * ```
 */
export function wildcardAndOvSettings(overrides: Partial<WildcardAndOvSettings> = {}): WildcardAndOvSettings {
  const config = new pulumi.Config("wildcard-and-ov");
  const baseUrl = new pulumi.Config("certreseller").get("baseUrl") ?? process.env.CERTRESELLER_BASE_URL;
  const managementUrl =
    overrides.managementUrl ?? new pulumi.Config("sandbox").get("managementUrl") ?? (baseUrl ? `${baseUrl.replace(/\/+$/, "")}/management` : undefined);
  if (!managementUrl) {
    throw new Error("wildcard-and-ov: set certreseller:baseUrl (the sandbox) or sandbox:managementUrl to publish the DNS records.");
  }
  return {
    domain: overrides.domain ?? config.get("domain") ?? "example.com",
    sanDomains: overrides.sanDomains ?? config.getObject<string[]>("sanDomains") ?? ["www.example.com"],
    wildcardDomains: overrides.wildcardDomains ?? config.getObject<string[]>("wildcardDomains") ?? ["*.example.com", "*.api.example.com"],
    productCode: overrides.productCode ?? config.get("productCode") ?? "sandbox-ov-flex",
    company: overrides.company ?? config.getObject<Partial<CompanyInfo>>("company") ?? EXAMPLE_COMPANY,
    managementUrl,
  };
}

/** Pulumi resource names may not contain `*`. */
function resourceSuffix(domain: string): string {
  return domain.replace(/^\*\./, "wildcard.");
}

/**
 * Declares the OV order, one sandbox DNS record per name (a wildcard is
 * validated at its base name) and the certificate.
 *
 * @example
 * ```ts
 * const out = wildcardAndOv({ domain: "example.com", wildcardDomains: ["*.example.com"], company: myCompany });
 * export const domains = out.domains;
 * ```
 */
export function wildcardAndOv(overrides: Partial<WildcardAndOvSettings> = {}) {
  const s = wildcardAndOvSettings(overrides);
  const order = new certs.Order("ov", {
    productCode: s.productCode,
    domain: s.domain,
    sanDomains: s.sanDomains,
    wildcardDomains: s.wildcardDomains,
    verificationMethod: "dns",
    // Missing or empty fields are reported at preview, naming each one.
    companyInfo: s.company as CompanyInfo,
  });
  const validation = new certs.Validation("ov", { order });
  const names = [s.domain, ...s.sanDomains, ...s.wildcardDomains];
  const records = names.map((name) => {
    const r = validation.dnsRecordFor(name);
    return new certs.testing.SandboxDnsRecord(`dcv-${resourceSuffix(name)}`, {
      managementUrl: s.managementUrl,
      fqdn: r.fqdn,
      type: r.type,
      value: r.value,
    });
  });
  const certificate = new certs.Certificate("ov", { orderNo: order.orderNo }, { dependsOn: records });
  return {
    orderNo: order.orderNo,
    price: order.price,
    domains: certificate.domains,
    fullChainPem: certificate.fullChainPem,
    /** Secret. */
    privateKeyPem: certificate.privateKeyPem,
    notAfter: certificate.notAfter,
  };
}
