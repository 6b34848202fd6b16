/**
 * Shaping of the API's validation records into what DNS and web resources
 * take, and picking a domain's record. Pure functions: the Validation
 * provider and the Validation class's helpers both use them.
 */

/** A record as the client returns it (GetRecord / ApplySign / ChangeVertificationMethod). */
export interface RawValidationRecord {
  domain: string;
  type?: string | null;
  method?: string | null;
  recordType?: string | null;
  label?: string | null;
  value?: string | null;
  path?: string | null;
  content?: string | null;
  link?: string | null;
  email?: string | null;
}

/**
 * One validation record, shaped for publishing. Fields that do not apply to
 * the record's method are empty strings (outputs must be plain JSON).
 */
export interface DomainValidationRecord {
  /** The validated name: a wildcard's record carries its base name. */
  domain: string;
  /** `main`, `san` or `wildcard` (empty when the service omits it). */
  type: string;
  /** `dns`, `cname`, `file`, `https` or `email`. */
  method: string;
  /** DNS: the record name relative to `domain` (e.g. `_dnsauth`); file: the file name. */
  name: string;
  /** DNS: the absolute record name, `<name>.<domain>`. */
  fqdn: string;
  /** DNS: `TXT` or `CNAME`. */
  recordType: string;
  /** DNS: the TXT content or CNAME target. */
  value: string;
  /** File: the URL the CA fetches. */
  url: string;
  /** File: the path under the web root (`/.well-known/pki-validation/...`). */
  path: string;
  /** File: the exact file content. */
  content: string;
  /** E-mail: the address the approval mail goes to. */
  email: string;
}

/** What a DNS resource needs: `dnsRecordFor(domain)`. */
export interface DnsValidationRecord {
  name: string;
  fqdn: string;
  type: string;
  value: string;
}

/** What a web-root writer needs: `fileRecordFor(domain)`. */
export interface FileValidationRecord {
  url: string;
  path: string;
  content: string;
}

const DNS_METHODS = new Set(["dns", "cname"]);
const FILE_METHODS = new Set(["file", "https"]);

/** The name a domain is validated at: a wildcard is validated at its base name. */
export function validatedName(domain: string): string {
  const d = domain.trim().toLowerCase().replace(/\.$/, "");
  return d.startsWith("*.") ? d.slice(2) : d;
}

export function shapeRecord(raw: RawValidationRecord, fallbackMethod: string): DomainValidationRecord {
  const method = (raw.method || fallbackMethod || "").toLowerCase();
  const domain = validatedName(raw.domain);
  const label = raw.label ?? "";
  const isDns = DNS_METHODS.has(method);
  const isFile = FILE_METHODS.has(method);
  const path = raw.path ?? (isFile && label ? `/.well-known/pki-validation/${label}` : "");
  return {
    domain,
    type: raw.type ?? "",
    method,
    name: label,
    fqdn: isDns && label ? `${label}.${domain}` : isDns ? domain : "",
    recordType: raw.recordType ?? (method === "dns" ? "TXT" : method === "cname" ? "CNAME" : ""),
    value: raw.value ?? "",
    url: raw.link ?? (isFile && path ? `${method === "https" ? "https" : "http"}://${domain}${path}` : ""),
    path,
    content: raw.content ?? "",
    email: raw.email ?? "",
  };
}

export function shapeRecords(raws: readonly RawValidationRecord[], fallbackMethod: string): DomainValidationRecord[] {
  return raws.map((r) => shapeRecord(r, fallbackMethod));
}

/**
 * The record for one of the ordered domains. A wildcard's record is the
 * base name's record of type `wildcard` (when the base name is also ordered,
 * each has its own record and token). Throws naming the domain and what is
 * available when there is none.
 */
export function pickRecord(records: readonly DomainValidationRecord[], domain: string): DomainValidationRecord {
  const wanted = validatedName(domain);
  const isWildcard = domain.trim().startsWith("*.");
  const candidates = records.filter((r) => r.domain === wanted);
  const exact = candidates.find((r) => (r.type === "wildcard") === isWildcard);
  const found = exact ?? candidates[0];
  if (!found) {
    const have = [...new Set(records.map((r) => r.domain))].join(", ") || "none";
    throw new Error(`no validation record for domain "${domain}" (validated at "${wanted}"); records exist for: ${have}`);
  }
  return found;
}

export function toDnsRecord(record: DomainValidationRecord, domain: string): DnsValidationRecord {
  if (!DNS_METHODS.has(record.method)) {
    throw new Error(`domain "${domain}" is validated by method "${record.method}", not DNS: use fileRecordFor or the record's email instead of dnsRecordFor`);
  }
  return { name: record.name, fqdn: record.fqdn, type: record.recordType, value: record.value };
}

export function toFileRecord(record: DomainValidationRecord, domain: string): FileValidationRecord {
  if (!FILE_METHODS.has(record.method)) {
    throw new Error(`domain "${domain}" is validated by method "${record.method}", not file/https: use dnsRecordFor or the record's email instead of fileRecordFor`);
  }
  return { url: record.url, path: record.path, content: record.content };
}

/**
 * Declared domains the records do not cover: the Validation refuses to
 * report success for an order that does not validate what the program says.
 */
export function missingDomains(records: readonly DomainValidationRecord[], domains: readonly string[]): string[] {
  return domains.filter((d) => {
    try {
      pickRecord(records, d);
      return false;
    } catch {
      return true;
    }
  });
}
