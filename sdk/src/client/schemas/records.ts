import type { CertStatus, DnsRecordType, HttpRecordType, RecordScope, VerificationMethod } from "../vocabulary.js";
import {
  expected,
  fallback,
  integer,
  list,
  listOf,
  nonEmptyText,
  object,
  opaqueObject,
  openInteger,
  openText,
  optional,
  required,
  text,
} from "./read.js";

// Validation records (spec 2.5) and the three operations that return them:
// ApplySign (4.4), ChangeVertificationMethod (4.5), GetRecord (4.6).
//
// A record needs every field the specification lists for it except `hint`
// (shown only in GetRecord) and `type` (an empty string also occurs, so its
// absence means the same); a record lacking one is skipped and reported, the
// others are returned. A record list the answer omits reads as [].

/** An element of `dns_records`: publish `<label>.<domain> <recordType> <value>`. */
export const dnsRecord = object({
  domain: required("domain", text),
  // `type` missing reads as "": the specification says an empty string occurs.
  /** `main` or `san` (`wildcard` also occurs); an empty string also occurs. */
  type: fallback("type", openText<RecordScope>(), ""),
  /** Host label, relative to `domain`. */
  label: required("label", text),
  /** `TXT` (or `CNAME` for CNAME validation). */
  recordType: required("record_type", openText<DnsRecordType>()),
  value: required("value", text),
  /** Instruction text (GetRecord). */
  hint: optional("hint", text),
});

/** An element of `http_records` (file validation): serve `content` at `path`. */
export const httpRecord = object({
  domain: required("domain", text),
  /** `main` or `san` (`wildcard` also occurs); an empty string also occurs. */
  type: fallback("type", openText<RecordScope>(), ""),
  /** `FILE`. */
  recordType: required("record_type", openText<HttpRecordType>()),
  /** File name. */
  label: required("label", text),
  /** `http://<domain>/.well-known/pki-validation/<file_name>`. */
  path: required("path", text),
  content: required("content", text),
  /** Protocol-relative form of the URL. */
  link: required("link", text),
});

/** An element of `email_records`: its shape is not shown by the specification, so it is handed over as sent. */
export const emailRecord = opaqueObject;

const domainOf = (raw: unknown) => {
  const domain = (raw as { domain?: unknown } | null)?.domain;
  // Never cut a value short: the client redacts whole values (a cut-off echo of the key would slip through).
  return typeof domain === "string" && domain.length <= 253 ? `domain ${JSON.stringify(domain)}` : undefined;
};

/** The three record lists; a list the answer omits reads as `[]`, an element that cannot be read is left out (and reported). */
export const recordLists = {
  dnsRecords: list("dns_records", dnsRecord, domainOf),
  httpRecords: list("http_records", httpRecord, domainOf),
  emailRecords: list("email_records", emailRecord, domainOf),
};

/**
 * ApplySign's and ChangeVertificationMethod's answer (the same fields). Both
 * calls took effect when it arrives, so only the record lists are always
 * there; `orderNo` missing is filled in by the client from its request.
 */
const submittedRecords = object(
  {
    orderNo: expected("order_no", nonEmptyText),
    certStatus: expected("cert_status", openInteger<CertStatus>()),
    /** A spec 4.5 code; the service may also answer `email` for the e-mail methods. */
    verificationMethod: expected("verification_method", openText<VerificationMethod>()),
    ...recordLists,
    /** `SIG-<digits>-<suffix>`. */
    requestId: expected("request_id", text),
  },
  { tolerateNonObject: true },
);

export const applySignResult = submittedRecords;
export const changeVerificationMethodResult = submittedRecords;

/** GetRecord's answer: a read, so the listed order fields are required. */
export const recordSet = object({
  orderNo: required("order_no", nonEmptyText),
  certStatus: required("cert_status", openInteger<CertStatus>()),
  verificationMethod: required("verification_method", openText<VerificationMethod>()),
  mainDomain: required("main_domain", text),
  /** The API spells it `sans_domains`. */
  sansDomains: required("sans_domains", listOf(text)),
  wildcardDomains: required("wildcard_domains", listOf(text)),
  allDomains: required("all_domains", listOf(text)),
  allDomainsCount: required("all_domains_count", integer),
  ...recordLists,
  /** ISO 8601 with UTC offset. */
  fetchedAt: required("fetched_at", text),
});
