import type { ApplySignResult, ChangeVerificationMethodResult, DnsRecord, HttpRecord, RecordSet } from "../types.js";
import type { CertStatus, DnsRecordType, HttpRecordType, RecordScope, VerificationMethod } from "../vocabulary.js";
import {
  expected,
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
  type Reader,
} from "./read.js";

// Validation records (spec 2.5) and the three operations that return them:
// ApplySign (4.4), ChangeVertificationMethod (4.5), GetRecord (4.6).
//
// A record needs every field the specification lists for it except `hint`
// (shown only in GetRecord) and `type` (an empty string also occurs, so its
// absence means the same); a record lacking one is skipped and reported, the
// others are returned. A record list the answer omits reads as [].

// `type` missing reads as "": the specification says an empty string occurs.
const withScope = <T extends { type?: string }>(reader: Reader<T>): Reader<T & { type: string }> => (value, ctx) => {
  const record = reader(value, ctx);
  return { ...record, type: record.type ?? "" };
};

export const dnsRecord: Reader<DnsRecord> = withScope(
  object({
    domain: required("domain", text),
    type: optional("type", openText<RecordScope>()),
    label: required("label", text),
    recordType: required("record_type", openText<DnsRecordType>()),
    value: required("value", text),
    hint: optional("hint", text),
  }),
);

export const httpRecord: Reader<HttpRecord> = withScope(
  object({
    domain: required("domain", text),
    type: optional("type", openText<RecordScope>()),
    recordType: required("record_type", openText<HttpRecordType>()),
    label: required("label", text),
    path: required("path", text),
    content: required("content", text),
    link: required("link", text),
  }),
);

const domainOf = (raw: unknown) => {
  const domain = (raw as { domain?: unknown } | null)?.domain;
  // Never cut a value short: the client redacts whole values (a cut-off echo of the key would slip through).
  return typeof domain === "string" && domain.length <= 253 ? `domain ${JSON.stringify(domain)}` : undefined;
};

const recordLists = {
  dnsRecords: list("dns_records", dnsRecord, domainOf),
  httpRecords: list("http_records", httpRecord, domainOf),
  // Element shape not shown by the specification: handed over as sent.
  emailRecords: list("email_records", opaqueObject, domainOf),
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
    verificationMethod: expected("verification_method", openText<VerificationMethod>()),
    ...recordLists,
    requestId: expected("request_id", text),
  },
  { tolerateNonObject: true },
);

export const applySignResult: Reader<Omit<ApplySignResult, "orderNo"> & { orderNo?: string }> = submittedRecords;
export const changeVerificationMethodResult: Reader<Omit<ChangeVerificationMethodResult, "orderNo"> & { orderNo?: string }> =
  submittedRecords;

/** GetRecord's answer: a read, so the listed order fields are required. */
export const recordSet: Reader<RecordSet> = object({
  orderNo: required("order_no", nonEmptyText),
  certStatus: required("cert_status", openInteger<CertStatus>()),
  verificationMethod: required("verification_method", openText<VerificationMethod>()),
  mainDomain: required("main_domain", text),
  sansDomains: required("sans_domains", listOf(text)),
  wildcardDomains: required("wildcard_domains", listOf(text)),
  allDomains: required("all_domains", listOf(text)),
  allDomainsCount: required("all_domains_count", integer),
  ...recordLists,
  fetchedAt: required("fetched_at", text),
});
