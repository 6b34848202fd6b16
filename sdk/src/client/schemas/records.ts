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
  type Field,
  type FieldMode,
  type Reader,
} from "./read.js";

// Validation records (spec 2.5) and the three operations that return them:
// ApplySign (4.4), ChangeVertificationMethod (4.5), GetRecord (4.6).
//
// A record needs every field the specification lists for it except `hint`
// (shown only in GetRecord) and `type` (an empty string also occurs, so its
// absence means the same); a record lacking one is skipped and reported, the
// others are returned. A record list the answer omits reads as [].

/** What every record says first: the name it validates and that name's place in the order. */
const recordTarget = {
  domain: required(text),
  // `type` missing reads as "": the specification says an empty string occurs.
  /** `main` or `san` (`wildcard` also occurs); an empty string also occurs. */
  type: fallback(openText<RecordScope>(), ""),
};

/**
 * The order's names as an answer lists them, each read as `presence` says
 * (GetRecord's are required, DownloadCertificate's optional).
 */
export const orderNames = <M extends FieldMode>(presence: <R extends Reader<unknown>>(read: R) => Field<R, M>) => ({
  mainDomain: presence(text),
  /** The API spells it `sans_domains`. */
  sansDomains: presence(listOf(text)),
  wildcardDomains: presence(listOf(text)),
});

/** An element of `dns_records`: publish `<label>.<domain> <recordType> <value>`. */
export const dnsRecord = object({
  ...recordTarget,
  /** Host label, relative to `domain`. */
  label: required(text),
  /** `TXT` (or `CNAME` for CNAME validation). */
  recordType: required(openText<DnsRecordType>()),
  value: required(text),
  /** Instruction text (GetRecord). */
  hint: optional(text),
});

/** An element of `http_records` (file validation): serve `content` at `path`. */
export const httpRecord = object({
  ...recordTarget,
  /** `FILE`. */
  recordType: required(openText<HttpRecordType>()),
  /** File name. */
  label: required(text),
  /** `http://<domain>/.well-known/pki-validation/<file_name>`. */
  path: required(text),
  content: required(text),
  /** Protocol-relative form of the URL. */
  link: required(text),
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
  dnsRecords: list(dnsRecord, domainOf),
  httpRecords: list(httpRecord, domainOf),
  emailRecords: list(emailRecord, domainOf),
};

/**
 * ApplySign's and ChangeVertificationMethod's answer (the same fields). Both
 * calls took effect when it arrives, so only the record lists are always
 * there; `orderNo` missing is filled in by the client from its request.
 */
const submittedRecords = object(
  {
    orderNo: expected(nonEmptyText),
    certStatus: expected(openInteger<CertStatus>()),
    /** A spec 4.5 code; the service may also answer `email` for the e-mail methods. */
    verificationMethod: expected(openText<VerificationMethod>()),
    ...recordLists,
    /** `SIG-<digits>-<suffix>`. */
    requestId: expected(text),
  },
  { tolerateNonObject: true },
);

export const applySignResult = submittedRecords;
export const changeVerificationMethodResult = submittedRecords;

/** GetRecord's answer: a read, so the listed order fields are required. */
export const recordSet = object({
  orderNo: required(nonEmptyText),
  certStatus: required(openInteger<CertStatus>()),
  verificationMethod: required(openText<VerificationMethod>()),
  ...orderNames(required),
  allDomains: required(listOf(text)),
  allDomainsCount: required(integer),
  ...recordLists,
  /** ISO 8601 with UTC offset. */
  fetchedAt: required(text),
});
