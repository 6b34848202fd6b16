// A corpus of invalid Orders. Each must fail at PREVIEW (the provider's
// `check`), with a message naming the property at fault, and no order may be
// created at any point: the sandbox sees no CreateOrder at all.
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EC_P256, makeCsr } from "./harness/csr.js";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { createWorld, failureOf, openStack, type E2eWorld } from "./harness/stack.js";
import { COMPANY, ordersProgram, type OrderArgs } from "./programs.js";

const { companyName: _name, ...COMPANY_WITHOUT_NAME } = COMPANY;
const { contactEmail: _email, ...COMPANY_WITHOUT_EMAIL } = COMPANY;

const d = "bad.e2e.example.com";
const many = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}.e2e.example.com`);

interface BadCase {
  title: string;
  order: OrderArgs;
  /** The property the message must name. */
  property: string;
}

const CASES: BadCase[] = [
  // Domain-type rules (docs/wire-format.md)
  { title: "single product with SANs", property: "sanDomains", order: { productCode: "sandbox-dv-single", domain: d, sanDomains: ["www.bad.e2e.example.com"] } },
  { title: "single product with a wildcard main name", property: "domain", order: { productCode: "sandbox-dv-single", domain: "*.bad.e2e.example.com" } },
  { title: "single product with wildcardDomains", property: "wildcardDomains", order: { productCode: "sandbox-dv-single", domain: d, wildcardDomains: ["*.w.e2e.example.com"] } },
  { title: "multi product with a wildcard SAN", property: "sanDomains", order: { productCode: "sandbox-dv-multi", domain: d, sanDomains: ["*.w.e2e.example.com"] } },
  { title: "multi product over its name limit", property: "sanDomains", order: { productCode: "sandbox-dv-multi", domain: d, sanDomains: many(10, "san") } },
  { title: "wildcard product with an FQDN main name", property: "domain", order: { productCode: "sandbox-dv-wildcard", domain: d } },
  { title: "wildcard product with SANs", property: "sanDomains", order: { productCode: "sandbox-dv-wildcard", domain: "*.bad.e2e.example.com", sanDomains: [d] } },
  { title: "multi-wildcard product with an FQDN in wildcardDomains", property: "wildcardDomains", order: { productCode: "sandbox-dv-multi-wildcard", domain: "*.bad.e2e.example.com", wildcardDomains: [d] } },
  { title: "multi-wildcard product over its wildcard limit", property: "wildcardDomains", order: { productCode: "sandbox-dv-multi-wildcard", domain: "*.bad.e2e.example.com", wildcardDomains: many(5, "*.w") } },
  { title: "flex product over its wildcard limit", property: "wildcardDomains", order: { productCode: "sandbox-dv-flex", domain: d, wildcardDomains: many(6, "*.w") } },
  { title: "IP product with a host name", property: "domain", order: { productCode: "sandbox-dv-ip", domain: d, verificationMethod: "file" } },
  { title: "IP product with a private address", property: "domain", order: { productCode: "sandbox-dv-ip", domain: "10.0.0.1", verificationMethod: "file" } },
  { title: "IP product with a loopback address", property: "domain", order: { productCode: "sandbox-dv-ip", domain: "127.0.0.1", verificationMethod: "file" } },
  { title: "multi-IP product with a host name SAN", property: "sanDomains", order: { productCode: "sandbox-dv-ip-multi", domain: "93.184.216.34", sanDomains: [d], verificationMethod: "file" } },
  { title: "a SAN listed twice", property: "sanDomains", order: { productCode: "sandbox-dv-multi", domain: d, sanDomains: ["a.e2e.example.com", "a.e2e.example.com"] } },
  { title: "a SAN repeating the main name in other case", property: "sanDomains", order: { productCode: "sandbox-dv-multi", domain: d, sanDomains: ["BAD.e2e.example.com"] } },
  { title: "a malformed host name", property: "domain", order: { productCode: "sandbox-dv-single", domain: "bad_name..e2e.example.com" } },
  { title: "a wildcard with two stars", property: "domain", order: { productCode: "sandbox-dv-wildcard", domain: "*.*.e2e.example.com" } },
  { title: "an empty domain", property: "domain", order: { productCode: "sandbox-dv-single", domain: "" } },
  { title: "an unknown product", property: "productCode", order: { productCode: "no-such-product", domain: d } },
  // Company fields (OV/EV)
  { title: "OV without company", property: "companyInfo", order: { productCode: "sandbox-ov-single", domain: d } },
  { title: "OV company without its name", property: "companyInfo.companyName", order: { productCode: "sandbox-ov-single", domain: d, companyInfo: COMPANY_WITHOUT_NAME as typeof COMPANY } },
  { title: "EV company without contact e-mail", property: "companyInfo.contactEmail", order: { productCode: "sandbox-ev-single", domain: d, companyInfo: COMPANY_WITHOUT_EMAIL as typeof COMPANY } },
  { title: "company country not ISO alpha-2", property: "companyInfo.country", order: { productCode: "sandbox-ov-single", domain: d, companyInfo: { ...COMPANY, country: "Germany" } } },
  { title: "company contact e-mail malformed", property: "companyInfo.contactEmail", order: { productCode: "sandbox-ov-single", domain: d, companyInfo: { ...COMPANY, contactEmail: "ada-at-acme" } } },
  { title: "company with an unknown member", property: "companyInfo", order: { productCode: "sandbox-ov-single", domain: d, companyInfo: { ...COMPANY, ceo: "Wile E." } as typeof COMPANY } },
  { title: "both companyId and companyInfo", property: "companyInfo", order: { productCode: "sandbox-ov-single", domain: d, companyId: 42, companyInfo: COMPANY } },
  // Terms
  { title: "a term the product is not sold for", property: "months", order: { productCode: "sandbox-dv-single", domain: d, months: 18 } },
  { title: "36 months of a 12-month-only product", property: "months", order: { productCode: "sandbox-ev-single", domain: d, months: 36, companyInfo: COMPANY } },
  { title: "a zero term", property: "months", order: { productCode: "sandbox-dv-single", domain: d, months: 0 } },
  { title: "a fractional term", property: "months", order: { productCode: "sandbox-dv-single", domain: d, months: 1.5 } },
  // Verification methods
  { title: "file validation of a wildcard", property: "verificationMethod", order: { productCode: "sandbox-dv-wildcard", domain: "*.bad.e2e.example.com", verificationMethod: "file" } },
  { title: "e-mail validation of an EV product", property: "verificationMethod", order: { productCode: "sandbox-ev-single", domain: d, verificationMethod: "email", companyInfo: COMPANY } },
  { title: "an unknown method", property: "verificationMethod", order: { productCode: "sandbox-dv-single", domain: d, verificationMethod: "telepathy" as "dns" } },
  { title: "an e-mail suffix without e-mail validation", property: "emailSuffix", order: { productCode: "sandbox-dv-single", domain: d, verificationMethod: "dns", emailSuffix: "admin" } },
  { title: "an e-mail suffix outside the allowed four", property: "emailSuffix", order: { productCode: "sandbox-dv-single", domain: d, verificationMethod: "email", emailSuffix: "root" as "admin" } },
  { title: "DNS validation of an IP address", property: "verificationMethod", order: { productCode: "sandbox-dv-ip", domain: "93.184.216.34", verificationMethod: "dns" } },
  // Algorithms
  { title: "an unknown signature algorithm", property: "signatureAlgorithm", order: { productCode: "sandbox-dv-single", domain: d, signatureAlgorithm: "dsa" as "rsa" } },
  { title: "an EC key spec with RSA", property: "keySpec", order: { productCode: "sandbox-dv-single", domain: d, signatureAlgorithm: "rsa", keySpec: "p-256" } },
  { title: "ECC on an RSA-only product", property: "signatureAlgorithm", order: { productCode: "sandbox-ev-single", domain: d, signatureAlgorithm: "ecc", keySpec: "p-256", companyInfo: COMPANY } },
  { title: "SHA-384 on a SHA-256-only product", property: "hashAlgorithm", order: { productCode: "sandbox-ev-single", domain: d, hashAlgorithm: "sha384", companyInfo: COMPANY } },
  { title: "a 1024-bit RSA key", property: "keySpec", order: { productCode: "sandbox-dv-single", domain: d, keySpec: "rsa-1024" as "rsa-2048" } },
  { title: "SM2 on a product that does not sell it", property: "signatureAlgorithm", order: { productCode: "sandbox-dv-single", domain: d, signatureAlgorithm: "sm2", keySpec: "sm2" } },
  // Custom CSRs
  { title: "a CSR that is not PEM", property: "customCsr", order: { productCode: "sandbox-dv-single", domain: d, customCsr: "not a certificate request" } },
  { title: "a CSR for another domain", property: "customCsr", order: { productCode: "sandbox-dv-single", domain: d, customCsr: makeCsr("other.e2e.example.com") } },
  { title: "a CSR missing an ordered SAN", property: "customCsr", order: { productCode: "sandbox-dv-multi", domain: d, sanDomains: ["www.bad.e2e.example.com"], customCsr: makeCsr(d) } },
  { title: "an EC CSR for an RSA order", property: "customCsr", order: { productCode: "sandbox-dv-single", domain: d, signatureAlgorithm: "rsa", customCsr: makeCsr(d, [d], EC_P256) } },
  // Payment, renewal, adoption
  { title: "an unknown payment method", property: "paymentMethod", order: { productCode: "sandbox-dv-single", domain: d, paymentMethod: "cash" as "balance" } },
  { title: "a renewal window longer than the term", property: "renewBeforeDays", order: { productCode: "sandbox-dv-single", domain: d, months: 12, renewBeforeDays: 400 } },
  { title: "a malformed order number to adopt", property: "adoptOrderNo", order: { productCode: "sandbox-dv-single", domain: d, adoptOrderNo: "nonsense!" } },
];

describe("bad input fails at preview, naming the property, buying nothing", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    world = createWorld(sandbox);
    stack = await openStack(world, "bad-input", ordersProgram({}));
  });

  afterAll(async () => {
    await sandbox?.stop();
    world?.dispose();
  });

  it("has a corpus of at least 40 programs", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(CASES)("$title → $property", async ({ order, property }) => {
    const message = await failureOf(stack.preview({ program: ordersProgram({ bad: order }) }));
    // The engine prints a check failure as "property <name> value {...} has a problem: <reason>".
    const escaped = property.replace(/\./g, "\\.");
    expect(message).toMatch(new RegExp(`property ${escaped} value \\{[\\s\\S]*?\\} has a problem`));
  });

  it("created no order and sent no CreateOrder through the whole corpus", async () => {
    expect(await sandbox.management.orders()).toHaveLength(0);
    const counts = await sandbox.management.operationCounts();
    expect(counts.CreateOrder ?? 0).toBe(0);
  });
});
