import { isIP } from "node:net";
import { EMAIL_METHODS, METHOD_CODES, type EmailMethodCode, type MethodCode, type Product } from "../catalogue/types.js";
import { badRequest } from "../errors.js";
import type { OrderRecord, PublishedDnsRecord, PublishedFile, RecordKind, ValidationRecord } from "../store/types.js";
import { newToken } from "../util/ids.js";
import { optionalString, type Body } from "./fields.js";
import { baseName } from "./names.js";

export const EMAIL_SUFFIXES = ["admin", "postmaster", "webmaster", "hostmaster"] as const;

/**
 * What a method asks the customer to do. `dcv` is published as a DNS TXT
 * record — the specification does not say what DCV records look like, so the
 * sandbox gives them the one DNS shape it documents.
 */
export function recordKind(method: MethodCode): RecordKind {
  switch (method) {
    case "dns":
    case "dcv":
      return "txt";
    case "cname":
      return "cname";
    case "file":
      return "file";
    default:
      return "email";
  }
}

/**
 * Reads a verification method: a spec 4.5 code, or `email` plus
 * `email_suffix` (admin|postmaster|webmaster|hostmaster; admin when empty),
 * and checks that the product supports it. Undefined when the field is empty.
 */
export function readMethod(body: Body, field: string, product: Product): MethodCode | undefined {
  const raw = optionalString(body, field)?.toLowerCase();
  if (raw === undefined) return undefined;
  const suffix = optionalString(body, "email_suffix")?.toLowerCase();
  let method: MethodCode;
  if (raw === "email") {
    const s = suffix ?? "admin";
    if (!(EMAIL_SUFFIXES as readonly string[]).includes(s)) {
      throw badRequest("email_suffix", `email_suffix ${JSON.stringify(s)} is not supported; allowed: ${EMAIL_SUFFIXES.join(", ")}`);
    }
    method = `email-${s}` as EmailMethodCode;
  } else if ((METHOD_CODES as readonly string[]).includes(raw)) {
    method = raw as MethodCode;
    if (suffix !== undefined && (EMAIL_METHODS as readonly string[]).includes(method) && method !== `email-${suffix}`) {
      throw badRequest("email_suffix", `email_suffix ${JSON.stringify(suffix)} contradicts ${field} ${method}`);
    }
  } else {
    throw badRequest(field, `${field} ${JSON.stringify(raw)} is not a verification method; methods: ${METHOD_CODES.join(", ")} (or email with email_suffix)`);
  }
  if (!product.methods.includes(method)) {
    throw badRequest(field, `${field} ${method} is not supported by product ${product.code}; supported: ${product.methods.join(", ")}`);
  }
  return method;
}

/** The ordered names, main first: `main` for the main name, `san` for every other one (plain or wildcard). */
export function orderedNames(order: Pick<OrderRecord, "domain" | "sanDomains" | "wildcardDomains">): Array<{ name: string; type: ValidationRecord["type"] }> {
  return [
    { name: order.domain, type: "main" as const },
    ...order.sanDomains.map((name) => ({ name, type: "san" as const })),
    ...order.wildcardDomains.map((name) => ({ name, type: "san" as const })),
  ];
}

const hostForUrl = (domain: string): string => (isIP(domain) === 6 ? `[${domain}]` : domain);

/** `//<host>/.well-known/pki-validation/<file>`: the record's `link`; `http:` in front makes its `path`. */
export function fileLink(r: Pick<ValidationRecord, "domain" | "label">): string {
  return `//${hostForUrl(r.domain)}/.well-known/pki-validation/${r.label}`;
}

/** Fresh tokens for every ordered name; a method change calls this again, so tokens never carry over. */
export function makeRecords(order: OrderRecord, method: MethodCode): ValidationRecord[] {
  const kind = recordKind(method);
  return orderedNames(order).map(({ name, type }) => {
    // A wildcard is validated at its base name: control of example.com covers *.example.com.
    const domain = baseName(name);
    const base = { domain, type, method, kind, verified: false };
    const token = newToken();
    switch (kind) {
      case "txt":
        return { ...base, label: "_dnsauth", value: token };
      case "cname":
        return { ...base, label: `_${token}`, value: `${newToken()}.${token.slice(0, 16)}.dcv.sandbox.test` };
      case "file":
        return { ...base, label: `${token.toUpperCase()}.txt`, content: `${newToken()}\nsandbox\n${order.orderNo}` };
      case "email":
        return { ...base, label: "", email: `${method.slice("email-".length)}@${domain}` };
    }
  });
}

/** The three record arrays of spec 2.5; the ones of other methods are empty. `hint` only where GetRecord sends it. */
export function renderRecords(records: readonly ValidationRecord[], opts: { hint: boolean }): {
  dns_records: Array<Record<string, string>>; http_records: Array<Record<string, string>>; email_records: Array<Record<string, string>>;
} {
  const dns = records.filter((r) => r.kind === "txt" || r.kind === "cname").map((r) => {
    const recordType = r.kind === "txt" ? "TXT" : "CNAME";
    const hint = r.kind === "txt"
      ? `Publish a TXT record at ${r.label}.${r.domain} with the value ${r.value!}`
      : `Publish a CNAME record at ${r.label}.${r.domain} pointing to ${r.value!}`;
    return { domain: r.domain, type: r.type, label: r.label, record_type: recordType, value: r.value!, ...(opts.hint ? { hint } : {}) };
  });
  const http = records.filter((r) => r.kind === "file").map((r) => {
    const link = fileLink(r);
    return { domain: r.domain, type: r.type, record_type: "FILE", label: r.label, path: `http:${link}`, content: r.content!, link };
  });
  const email = records.filter((r) => r.kind === "email").map((r) => ({ domain: r.domain, type: r.type, email: r.email! }));
  return { dns_records: dns, http_records: http, email_records: email };
}

const normFqdn = (s: string): string => s.trim().toLowerCase().replace(/\.$/, "");
/** A published file's URL may be the record's `path` (full URL) or its protocol-relative `link`. */
const normUrl = (s: string): string => s.trim().replace(/^https?:/i, "");

/** True when exactly this record has been published through the management API. */
export function isPublished(r: ValidationRecord, dns: readonly PublishedDnsRecord[], files: readonly PublishedFile[]): boolean {
  switch (r.kind) {
    case "txt":
    case "cname": {
      const fqdn = normFqdn(`${r.label}.${r.domain}`);
      const type = r.kind === "txt" ? "TXT" : "CNAME";
      const want = r.kind === "cname" ? normFqdn(r.value!) : r.value!;
      return dns.some((d) => d.type === type && normFqdn(d.fqdn) === fqdn && (r.kind === "cname" ? normFqdn(d.value) : d.value.trim()) === want);
    }
    case "file":
      return files.some((f) => normUrl(f.url) === fileLink(r) && f.content.trim() === r.content!.trim());
    case "email":
      return false;
  }
}
