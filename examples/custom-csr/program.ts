/**
 * Bring your own key: the key pair is generated on this machine, only the
 * CSR goes to the Partner API (the Order's `customCsr`), and the private key
 * lives in state only as an encrypted secret. The downloaded certificate then
 * has no private key from the service (`privateKeyPem` is empty); pair it
 * with the local one.
 */
import * as pulumi from "@pulumi/pulumi";
import * as certs from "pulumi-certreseller";
import { LocalCsr, type KeySpec } from "./local-csr";

/** What this example buys; defaults from stack config. */
export interface CustomCsrSettings {
  /** Names, main first. Config `custom-csr:domains` (JSON list), default `["csr.example.com", "www.csr.example.com"]`. */
  domains: string[];
  /** Product. Config `custom-csr:productCode`, default `sandbox-dv-multi`. */
  productCode: string;
  /** Key algorithm. Config `custom-csr:keySpec`, default `p-256`. */
  keySpec: KeySpec;
  /** Sandbox management URL for the DNS records (see the quickstart). */
  managementUrl: string;
}

/**
 * Reads {@link CustomCsrSettings} from stack config, with defaults; explicit
 * overrides win.
 *
 * @example
 * ```ts
 * customCsrSettings({ managementUrl: "http://127.0.0.1:8080/management" }).keySpec; // "p-256"
 * ```
 */
export function customCsrSettings(overrides: Partial<CustomCsrSettings> = {}): CustomCsrSettings {
  const config = new pulumi.Config("custom-csr");
  const baseUrl = new pulumi.Config("certreseller").get("baseUrl") ?? process.env.CERTRESELLER_BASE_URL;
  const managementUrl =
    overrides.managementUrl ?? new pulumi.Config("sandbox").get("managementUrl") ?? (baseUrl ? `${baseUrl.replace(/\/+$/, "")}/management` : undefined);
  if (!managementUrl) {
    throw new Error("custom-csr: set certreseller:baseUrl (the sandbox) or sandbox:managementUrl to publish the DNS records.");
  }
  return {
    domains: overrides.domains ?? config.getObject<string[]>("domains") ?? ["csr.example.com", "www.csr.example.com"],
    productCode: overrides.productCode ?? config.get("productCode") ?? "sandbox-dv-multi",
    keySpec: overrides.keySpec ?? (config.get("keySpec") as KeySpec | undefined) ?? "p-256",
    managementUrl,
  };
}

/**
 * The Order's `signatureAlgorithm` for a key spec: the CSR's algorithm must match the order's.
 *
 * @example
 * ```ts
 * signatureAlgorithmOf("p-384"); // "ecc"
 * ```
 */
export function signatureAlgorithmOf(keySpec: KeySpec): "rsa" | "ecc" {
  return keySpec.startsWith("rsa-") ? "rsa" : "ecc";
}

/**
 * Declares the local key and CSR, the order that carries the CSR, its DNS
 * records in the sandbox and the certificate.
 *
 * @example
 * ```ts
 * const out = customCsr({ domains: ["example.com"], keySpec: "rsa-3072" });
 * export const privateKeyPem = out.privateKeyPem; // secret, from LocalCsr
 * ```
 */
export function customCsr(overrides: Partial<CustomCsrSettings> = {}) {
  const s = customCsrSettings(overrides);
  const [main, ...sans] = s.domains;
  const csr = new LocalCsr("site", { commonName: main!, dnsNames: s.domains, keySpec: s.keySpec });
  const order = new certs.Order("site", {
    productCode: s.productCode,
    domain: main!,
    sanDomains: sans,
    signatureAlgorithm: signatureAlgorithmOf(s.keySpec),
    keySpec: s.keySpec,
    verificationMethod: "dns",
    customCsr: csr.csrPem,
  });
  const validation = new certs.Validation("site", { order });
  const records = s.domains.map((domain) => {
    const r = validation.dnsRecordFor(domain);
    return new certs.testing.SandboxDnsRecord(`dcv-${domain}`, { managementUrl: s.managementUrl, fqdn: r.fqdn, type: r.type, value: r.value });
  });
  const certificate = new certs.Certificate("site", { orderNo: order.orderNo }, { dependsOn: records });
  return {
    orderNo: order.orderNo,
    csrPem: csr.csrPem,
    publicKeyPem: csr.publicKeyPem,
    fullChainPem: certificate.fullChainPem,
    /** Secret: the key generated here, never sent to the API. */
    privateKeyPem: csr.privateKeyPem,
    notAfter: certificate.notAfter,
  };
}
