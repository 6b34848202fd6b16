/**
 * Shaping of the service's validation records (spec 2.5: `dns_records`,
 * `http_records`, `email_records`) into what DNS and web resources take, and
 * picking a domain's record. Pure functions: the Validation provider and the
 * Validation class's helpers both use them.
 */
import { isIP } from "node:net";
import type { DnsRecord, EmailRecord, HttpRecord, ValidationRecords } from "../../client/types.js";
import { emailSuffixOf, isEmailSuffix, type EmailSuffix } from "../../client/vocabulary.js";
import { normaliseName } from "../../rules/names.js";

/**
 * One validation record, shaped for publishing. Fields that do not apply to
 * the record's kind are empty strings (outputs must be plain JSON).
 *
 * @example
 * ```ts
 * validation.records.apply((rs) => rs.filter((r) => r.fqdn !== "").map((r) => `${r.fqdn} ${r.recordType} ${r.value}`));
 * ```
 */
export interface DomainValidationRecord {
  /** The validated name: a wildcard's record carries its base name (`example.com` for `*.example.com`). */
  domain: string;
  /**
   * The order's name this record is for, as the order lists it (`*.example.com`
   * for a wildcard); empty when the record matches none of the declared names.
   */
  orderedName: string;
  /** `main` or `san` as the service sends it (`wildcard` also occurs); empty when the service sends none. */
  type: string;
  /** The validation method in effect: `dns`, `cname`, `file`, `email-admin`, ..., `dcv` (spec 4.5). */
  method: string;
  /** DNS: the record name relative to `domain` (e.g. `_dnsauth`; empty at the apex); file: the file name. */
  name: string;
  /** DNS: the absolute record name, `<name>.<domain>`; empty for other kinds. */
  fqdn: string;
  /** DNS: `TXT` or `CNAME`; file: `FILE`; empty for e-mail. */
  recordType: string;
  /** DNS: the TXT content or CNAME target. */
  value: string;
  /** File: the full URL the CA fetches, `http://<domain>/.well-known/pki-validation/<file>`. */
  url: string;
  /** File: the path under the web root (`/.well-known/pki-validation/<file>`). */
  path: string;
  /** File: the exact file content. */
  content: string;
  /** E-mail: the address the approval mail goes to. */
  email: string;
  /** The service's instruction text (GetRecord sends one per DNS record), else empty. */
  hint: string;
}

/**
 * What a DNS resource needs: `dnsRecordFor(domain)`.
 *
 * @example
 * ```ts
 * const r = validation.dnsRecordFor("www.example.com"); // { name: "_dnsauth", fqdn: "_dnsauth.www.example.com", type: "TXT", value }
 * ```
 */
export interface DnsValidationRecord {
  name: string;
  fqdn: string;
  type: string;
  value: string;
}

/**
 * What a web-root writer needs: `fileRecordFor(domain)`.
 *
 * @example
 * ```ts
 * const f = validation.fileRecordFor("example.com"); // serve f.content at f.url (f.path under the web root)
 * ```
 */
export interface FileValidationRecord {
  url: string;
  path: string;
  content: string;
}

/**
 * A record as the Validation stores it in state: the fields of
 * {@link DomainValidationRecord} without the empty ones, and without
 * `method` when it is the Validation's own. The engine rewrites the whole
 * checkpoint after every step, so bytes stored per record cost time in large
 * stacks; {@link expandRecords} gives the program the full shape back.
 * Records stored whole by earlier releases read the same.
 */
export type StoredValidationRecord = Partial<DomainValidationRecord>;

/** Shaped records in their stored form, for the provider's outputs. */
export function storeRecords(records: readonly DomainValidationRecord[], method: string): StoredValidationRecord[] {
  return records.map((record) => {
    const stored: StoredValidationRecord = {};
    for (const [key, value] of Object.entries(record) as [keyof DomainValidationRecord, string][]) {
      if (value === "" || (key === "method" && value === method)) continue;
      stored[key] = value;
    }
    return stored;
  });
}

/**
 * The full records from their stored form (compact or, from an earlier
 * release, whole): every field present, empty where it does not apply.
 *
 * @example
 * ```ts
 * expandRecords([{ domain: "example.com", name: "_dnsauth", fqdn: "_dnsauth.example.com", recordType: "TXT", value: "t" }], "dns")[0].method; // "dns"
 * ```
 */
export function expandRecords(stored: readonly StoredValidationRecord[] | undefined, method: string): DomainValidationRecord[] {
  return (stored ?? []).map((r) => ({ ...EMPTY, domain: "", type: "", ...r, method: r.method ?? method }));
}

/** The name a domain is validated at: a wildcard is validated at its base name. */
export function validatedName(domain: string): string {
  const d = normaliseName(domain);
  return d.startsWith("*.") ? d.slice(2) : d;
}

/** True for the e-mail methods, including the service's bare `email` (spec 4.4 answers may read so). */
export function isEmailMethod(method: string): boolean {
  return method === "email" || method.startsWith("email-");
}

// ---------------------------------------------------------------------------
// One record of each list
// ---------------------------------------------------------------------------

const EMPTY = { orderedName: "", name: "", fqdn: "", recordType: "", value: "", url: "", path: "", content: "", email: "", hint: "" };

/**
 * `label` is relative to the record's domain (spec 2.5); an absolute label
 * (ending in the domain) or `@` is tolerated, so the FQDN never doubles the domain.
 */
function dnsNames(label: string, domain: string): { name: string; fqdn: string } {
  const l = label.trim().replace(/\.$/, "");
  const lower = l.toLowerCase();
  if (l === "" || l === "@" || lower === domain) return { name: "", fqdn: domain };
  if (lower.endsWith(`.${domain}`)) return { name: l.slice(0, l.length - domain.length - 1), fqdn: lower };
  return { name: l, fqdn: `${l}.${domain}` };
}

export function shapeDnsRecord(r: DnsRecord, method: string): DomainValidationRecord {
  const domain = validatedName(r.domain);
  const { name, fqdn } = dnsNames(r.label ?? "", domain);
  const recordType = (r.recordType || (method === "cname" ? "CNAME" : "TXT")).toUpperCase();
  return { ...EMPTY, domain, type: r.type ?? "", method, name, fqdn, recordType, value: r.value ?? "", hint: r.hint ?? "" };
}

function hostOf(domain: string): string {
  return isIP(domain) === 6 ? `[${domain}]` : domain;
}

/**
 * The full URL of a file record. The specification puts it in `path`
 * (`http://<domain>/.well-known/pki-validation/<file>`) and its
 * protocol-relative form in `link`; a bare path or only the file name are
 * tolerated too (the CA fetches over plain HTTP).
 */
function fileUrl(r: HttpRecord, domain: string): string {
  const path = (r.path ?? "").trim();
  const link = (r.link ?? "").trim();
  if (/^https?:\/\//i.test(path)) return path;
  if (/^https?:\/\//i.test(link)) return link;
  if (link.startsWith("//")) return `http:${link}`;
  if (path.startsWith("/")) return `http://${hostOf(domain)}${path}`;
  const label = (r.label ?? "").trim();
  return label ? `http://${hostOf(domain)}/.well-known/pki-validation/${label}` : "";
}

export function shapeFileRecord(r: HttpRecord, method: string): DomainValidationRecord {
  const domain = validatedName(r.domain);
  const url = fileUrl(r, domain);
  let path = "";
  let name = (r.label ?? "").trim();
  if (url) {
    // A URL the service mangled still reaches the program as sent; only the path is then unknown.
    path = URL.canParse(url) ? new URL(url).pathname : "";
    if (!name) name = path.slice(path.lastIndexOf("/") + 1);
  }
  return { ...EMPTY, domain, type: r.type ?? "", method, name, recordType: (r.recordType || "FILE").toUpperCase(), url, path, content: r.content ?? "" };
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/**
 * The specification does not show an e-mail record's shape, so only
 * `domain`, `type` and `email` are read when present; the mailbox otherwise
 * comes from the method code (`email-admin` → `admin@<domain>`).
 */
export function shapeEmailRecord(r: EmailRecord, method: string): DomainValidationRecord {
  const domain = validatedName(text(r.domain));
  const suffix = emailSuffixOf(method);
  const email = text(r.email) || text(r.address) || (suffix && domain ? `${suffix}@${domain}` : "");
  return { ...EMPTY, domain, type: text(r.type), method, email };
}

// ---------------------------------------------------------------------------
// The method in effect
// ---------------------------------------------------------------------------

function mailboxSuffix(records: readonly EmailRecord[]): EmailSuffix | undefined {
  for (const r of records) {
    const local = (text(r.email) || text(r.address)).split("@")[0]?.toLowerCase();
    if (local && isEmailSuffix(local)) return local;
  }
  return undefined;
}

/**
 * The method in effect, as a spec 4.5 code where it can be told. The service
 * may answer `email` for any `email-*` method (then the program's own code,
 * or the mailbox of an e-mail record, names which), or nothing (then the
 * program's code, or the kind of records present).
 */
export function effectiveMethod(serviceMethod: string, expected: string | undefined, lists: ValidationRecords): string {
  const reported = serviceMethod.trim().toLowerCase();
  if (reported === "email") {
    if (expected?.startsWith("email-")) return expected;
    const suffix = mailboxSuffix(lists.emailRecords);
    return suffix ? `email-${suffix}` : "email";
  }
  if (reported !== "") return reported;
  if (expected) return expected;
  if (lists.dnsRecords.length > 0) return lists.dnsRecords[0]!.recordType === "CNAME" ? "cname" : "dns";
  if (lists.httpRecords.length > 0) return "file";
  if (lists.emailRecords.length > 0) return "email";
  return "";
}

// ---------------------------------------------------------------------------
// All records of an answer, each matched to an ordered name
// ---------------------------------------------------------------------------

/** What the shaping needs to know about the order besides the records. */
export interface ShapeContext {
  /** The method in effect ({@link effectiveMethod}). */
  method: string;
  /** The names the program declared, main first. */
  domains: readonly string[];
  /** The order's names as the service lists them (GetRecord `all_domains`); e-mail records are derived from them when the service sends none. */
  allDomains?: readonly string[];
}

/** Shaped records, plus those that match no declared name (they still need publishing). */
export interface ShapedRecords {
  records: DomainValidationRecord[];
  unmatched: DomainValidationRecord[];
}

/**
 * Shapes the records of the method in effect and matches each to one
 * declared name. The service answers the current method's list and leaves
 * the others empty (spec 3, ChangeVertificationMethod); should it send
 * several, only the method's own list is used, and any non-empty list when
 * the method does not say which (e.g. `dcv`).
 *
 * E-mail validation: the specification shows `email_records` only empty; then
 * one record per ordered name is derived, the mailbox taken from the method
 * code.
 */
export function shapeValidationRecords(lists: ValidationRecords, ctx: ShapeContext): ShapedRecords {
  const { method } = ctx;
  const dns = lists.dnsRecords.map((r) => withHint(shapeDnsRecord(r, method), r.domain));
  const files = lists.httpRecords.map((r) => withHint(shapeFileRecord(r, method), r.domain));
  let emailSource: readonly EmailRecord[] = lists.emailRecords;
  if (emailSource.length === 0 && isEmailMethod(method) && dns.length === 0 && files.length === 0) {
    const names = ctx.allDomains && ctx.allDomains.length > 0 ? ctx.allDomains : ctx.domains;
    emailSource = names.map((name, i) => ({ domain: name, type: i === 0 ? "main" : "san" }));
  }
  const emails = emailSource.map((r) => withHint(shapeEmailRecord(r, method), text(r.domain)));
  const own = method === "dns" || method === "cname" ? dns : method === "file" ? files : isEmailMethod(method) ? emails : [];
  const chosen = own.length > 0 ? own : [...dns, ...files, ...emails];
  return matchToDomains(chosen, ctx.domains);
}

/** A shaped record and whether the service marked it as a wildcard's (its domain `*.x`, or type `wildcard`). */
interface Candidate {
  record: DomainValidationRecord;
  wildcard: boolean;
}

function withHint(record: DomainValidationRecord, rawDomain: string): Candidate {
  return { record, wildcard: normaliseName(rawDomain).startsWith("*.") || record.type === "wildcard" };
}

/**
 * Gives each declared name its own record (one-to-one where the counts
 * allow), so a program that publishes `recordFor(d)` for each of its names
 * publishes every record. A record is a wildcard's when the service says so
 * (domain `*.example.com`, or type `wildcard`); a record typed `main` goes
 * to the main name; otherwise records take the declared names with the same
 * base name in order, plain names first. When a wildcard and its base name
 * are both ordered and their records share a name (`_dnsauth.example.com`),
 * which of the two tokens each gets does not matter: both are published.
 */
function matchToDomains(candidates: readonly Candidate[], domains: readonly string[]): ShapedRecords {
  const declared = domains.map(normaliseName);
  const main = declared[0];
  const taken = new Set<string>();
  const unmatched: DomainValidationRecord[] = [];
  const records = candidates.map(({ record, wildcard }) => {
    const free = declared.filter((d) => !taken.has(d) && validatedName(d) === record.domain);
    const pick =
      (wildcard ? free.find((d) => d.startsWith("*.")) : undefined) ??
      (record.type === "main" && main !== undefined && free.includes(main) ? main : undefined) ??
      free.find((d) => !d.startsWith("*.")) ??
      free[0];
    if (pick === undefined) {
      unmatched.push(record);
      return record;
    }
    taken.add(pick);
    return { ...record, orderedName: pick };
  });
  return { records, unmatched };
}

// ---------------------------------------------------------------------------
// Picking and converting (program side and provider side)
// ---------------------------------------------------------------------------

/**
 * The record for one of the ordered domains: the record matched to that name
 * (`orderedName`), else one of the records at its validated name — a
 * wildcard prefers a record typed `wildcard` (records written by earlier
 * releases carry no `orderedName`). Throws naming the domain and what is
 * available when there is none.
 */
export function pickRecord(records: readonly DomainValidationRecord[], domain: string): DomainValidationRecord {
  const wanted = normaliseName(domain);
  const matched = records.find((r) => r.orderedName === wanted);
  if (matched) return matched;
  const base = validatedName(wanted);
  const isWildcard = wanted.startsWith("*.");
  const candidates = records.filter((r) => r.domain === base);
  const found = candidates.find((r) => (r.type === "wildcard") === isWildcard) ?? candidates[0];
  if (!found) {
    const have = [...new Set(records.map((r) => r.domain))].join(", ") || "none";
    throw new Error(`no validation record for domain "${domain}" (validated at "${base}"); records exist for: ${have}`);
  }
  return found;
}

/** What to use instead, for a record of another kind. */
function otherKindHint(record: DomainValidationRecord): string {
  if (record.fqdn) return "use dnsRecordFor";
  if (record.url) return "use fileRecordFor";
  return record.email ? `the approval mail goes to ${record.email} (the record's email)` : "see the record's email";
}

/** The DNS record to publish; fails naming the method when the record is not a DNS record. */
export function toDnsRecord(record: DomainValidationRecord, domain: string): DnsValidationRecord {
  if (!record.fqdn) {
    throw new Error(`domain "${domain}" is validated by method "${record.method}", not DNS: ${otherKindHint(record)} instead of dnsRecordFor`);
  }
  return { name: record.name, fqdn: record.fqdn, type: record.recordType, value: record.value };
}

/** The file to serve; fails naming the method when the record is not a file record. */
export function toFileRecord(record: DomainValidationRecord, domain: string): FileValidationRecord {
  if (!record.url) {
    throw new Error(`domain "${domain}" is validated by method "${record.method}", not file: ${otherKindHint(record)} instead of fileRecordFor`);
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
