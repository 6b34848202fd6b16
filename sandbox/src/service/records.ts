import { isIP } from "node:net";
import type { MethodCode } from "../catalogue/types.js";
import type { OrderRecord, PublishedDnsRecord, PublishedFile, ValidationRecord } from "../store/types.js";
import { newToken } from "../util/ids.js";
import { baseName } from "./names.js";

export const EMAIL_SUFFIXES = ["admin", "postmaster", "webmaster", "hostmaster"] as const;

/** The ordered names, main first, each with the record `type` it is reported under. */
export function orderedNames(order: Pick<OrderRecord, "domain" | "sanDomains" | "wildcardDomains">): Array<{ name: string; type: ValidationRecord["type"] }> {
  return [
    { name: order.domain, type: order.domain.startsWith("*.") ? "wildcard" : "main" },
    ...order.sanDomains.map((name) => ({ name, type: "san" as const })),
    ...order.wildcardDomains.map((name) => ({ name, type: "wildcard" as const })),
  ];
}

/** A main wildcard is still the main name; the wire reports it as `main` but validates its base. */
function recordType(name: string, position: number, type: ValidationRecord["type"]): ValidationRecord["type"] {
  return position === 0 ? (name.startsWith("*.") ? "wildcard" : "main") : type;
}

const hostForUrl = (domain: string): string => (isIP(domain) === 6 ? `[${domain}]` : domain);

/** Fresh tokens for every ordered name; a method change calls this again, so tokens never carry over. */
export function makeRecords(order: OrderRecord, method: MethodCode, emailSuffix: string | null): ValidationRecord[] {
  return orderedNames(order).map(({ name, type }, i) => {
    const domain = baseName(name);
    const base = { domain, type: recordType(name, i, type), method, verified: false };
    const token = newToken();
    switch (method) {
      case "dns":
        return { ...base, record_type: "TXT", label: "_dnsauth", value: token };
      case "cname": {
        const other = newToken();
        return { ...base, record_type: "CNAME", label: `_${token}`, value: `${other.slice(0, 32)}.${token.slice(0, 16)}.dcv.sandbox.test` };
      }
      case "file":
      case "https": {
        const label = `${token.toUpperCase()}.txt`;
        const path = `/.well-known/pki-validation/${label}`;
        const scheme = method === "https" ? "https" : "http";
        return {
          ...base, record_type: null, label, path,
          content: `${newToken()}\nsandbox\n${order.orderNo}`,
          link: `${scheme}://${hostForUrl(domain)}${path}`,
        };
      }
      case "email":
        return { ...base, record_type: null, label: null, email: `${emailSuffix ?? "admin"}@${domain}` };
    }
  });
}

/** The record as the wire shows it (without the sandbox's `verified` bookkeeping). */
export function renderRecord(r: ValidationRecord): Record<string, unknown> {
  const { verified: _verified, ...wire } = r;
  return wire;
}

const normFqdn = (s: string): string => s.trim().toLowerCase().replace(/\.$/, "");

/** True when exactly this record has been published through the management API. */
export function isPublished(r: ValidationRecord, dns: readonly PublishedDnsRecord[], files: readonly PublishedFile[]): boolean {
  switch (r.method) {
    case "dns":
    case "cname": {
      const fqdn = normFqdn(`${r.label}.${r.domain}`);
      const want = r.method === "cname" ? normFqdn(r.value!) : r.value!;
      return dns.some(
        (d) => d.type === r.record_type && normFqdn(d.fqdn) === fqdn && (r.method === "cname" ? normFqdn(d.value) : d.value.trim()) === want,
      );
    }
    case "file":
    case "https":
      return files.some((f) => f.url === r.link && f.content.trim() === r.content!.trim());
    case "email":
      return false;
  }
}
