import { describe, expect, it } from "vitest";
import { isVerificationMethod, VERIFICATION_METHODS, type ChangeVerificationMethodRequest } from "../../src/client/index.js";
import { ok } from "../support/partner-api/index.js";
import { answerFrom, expectSpecRequest, failure, fieldsOf, getPath, useContractClients, type FieldRow } from "./support/contract.js";

// Spec 2.5 (validation records), 4.4 ApplySign, 4.5 ChangeVertificationMethod,
// 2.2/4.6 GetRecord.

const contract = useContractClients();
const ORDER_NO = "CERT202607041730001234";
const REQUEST_ID = "SIG-202607131200000000-ABC123";

// Spec 2.5, elements of dns_records.
const DNS_FIELDS: FieldRow[] = [
  ["domain", "example.com", "domain", "example.com"],
  ["type", "main", "type", "main"],
  ["label", "_dnsauth", "label", "_dnsauth"],
  ["record_type", "TXT", "recordType", "TXT"],
  ["value", "202607130000005k2m8x3q9w7e1r4t6y", "value", "202607130000005k2m8x3q9w7e1r4t6y"],
  ["hint", "Add a TXT record _dnsauth with the value above", "hint", "Add a TXT record _dnsauth with the value above"],
];
const DNS_RECORD = answerFrom(DNS_FIELDS);

// Spec 2.5, elements of http_records.
const HTTP_FIELDS: FieldRow[] = [
  ["domain", "www.example.com", "domain", "www.example.com"],
  ["type", "san", "type", "san"],
  ["record_type", "FILE", "recordType", "FILE"],
  ["label", "8F3A1C.txt", "label", "8F3A1C.txt"],
  ["path", "http://www.example.com/.well-known/pki-validation/8F3A1C.txt", "path", "http://www.example.com/.well-known/pki-validation/8F3A1C.txt"],
  ["content", "202607130000005k2m8x\ncomodoca.com\n9w7e1r4t6y", "content", "202607130000005k2m8x\ncomodoca.com\n9w7e1r4t6y"],
  ["link", "//www.example.com/.well-known/pki-validation/8F3A1C.txt", "link", "//www.example.com/.well-known/pki-validation/8F3A1C.txt"],
];
const HTTP_RECORD = answerFrom(HTTP_FIELDS);

// Spec 4.4 / 4.5 answer fields (the same list for both).
const SUBMITTED_FIELDS: FieldRow[] = [
  ["order_no", ORDER_NO, "orderNo", ORDER_NO],
  ["cert_status", 2, "certStatus", 2],
  ["verification_method", "dns", "verificationMethod", "dns"],
  ["dns_records", [DNS_RECORD], "dnsRecords", [answerFromCamel(DNS_FIELDS)]],
  ["http_records", [], "httpRecords", []],
  ["email_records", [], "emailRecords", []],
  ["request_id", REQUEST_ID, "requestId", REQUEST_ID],
];

// Spec 4.6 (and the order fields of 2.2).
const GET_RECORD_FIELDS: FieldRow[] = [
  ["order_no", ORDER_NO, "orderNo", ORDER_NO],
  ["cert_status", 2, "certStatus", 2],
  ["verification_method", "file", "verificationMethod", "file"],
  ["main_domain", "example.com", "mainDomain", "example.com"],
  ["sans_domains", ["www.example.com"], "sansDomains", ["www.example.com"]],
  ["wildcard_domains", ["*.example.net"], "wildcardDomains", ["*.example.net"]],
  ["all_domains", ["example.com", "www.example.com", "*.example.net"], "allDomains", ["example.com", "www.example.com", "*.example.net"]],
  ["all_domains_count", 3, "allDomainsCount", 3],
  ["dns_records", [], "dnsRecords", []],
  ["http_records", [HTTP_RECORD], "httpRecords", [answerFromCamel(HTTP_FIELDS)]],
  ["email_records", [], "emailRecords", []],
  ["fetched_at", "2026-07-13T12:00:05+08:00", "fetchedAt", "2026-07-13T12:00:05+08:00"],
];

function answerFromCamel(rows: readonly FieldRow[]): Record<string, unknown> {
  return Object.fromEntries(rows.map(([, , camel, expected]) => [camel, expected]));
}

describe("spec 2.5 validation records", () => {
  it.each(DNS_FIELDS)("dns_records[].%s = %j → %s", async (_wire, _value, camel, expected) => {
    contract.server.answer(ok({ ...answerFrom(GET_RECORD_FIELDS), dns_records: [DNS_RECORD] }));
    const { dnsRecords } = await contract.client().getRecord({ orderNo: ORDER_NO });
    expect(getPath(dnsRecords[0], camel)).toEqual(expected);
  });

  it.each(HTTP_FIELDS)("http_records[].%s = %j → %s", async (_wire, _value, camel, expected) => {
    contract.server.answer(ok(answerFrom(GET_RECORD_FIELDS)));
    const { httpRecords } = await contract.client().getRecord({ orderNo: ORDER_NO });
    expect(getPath(httpRecords[0], camel)).toEqual(expected);
  });

  it("a DNS record's type may be an empty string, and hint is optional", async () => {
    const { hint: _, ...noHint } = DNS_RECORD;
    contract.server.answer(ok({ ...answerFrom(GET_RECORD_FIELDS), dns_records: [{ ...noHint, type: "" }] }));
    const { dnsRecords } = await contract.client().getRecord({ orderNo: ORDER_NO });
    expect(dnsRecords).toEqual([{ domain: "example.com", type: "", label: "_dnsauth", recordType: "TXT", value: DNS_RECORD.value }]);
    expect(contract.warnings).toEqual([]);
  });

  it("email_records elements (shape not shown) are handed over as sent", async () => {
    const element = { domain: "example.com", email: "admin@example.com", status: 0 };
    contract.server.answer(ok({ ...answerFrom(GET_RECORD_FIELDS), email_records: [element] }));
    expect((await contract.client().getRecord({ orderNo: ORDER_NO })).emailRecords).toEqual([element]);
  });

  it("one bad record does not fail the answer: it is skipped and reported, naming the record and the field", async () => {
    const { value: _, ...noValue } = DNS_RECORD;
    contract.server.answer(ok({ ...answerFrom(GET_RECORD_FIELDS), dns_records: [noValue, DNS_RECORD, "junk"], http_records: [{ ...HTTP_RECORD, content: 42 }] }));
    const result = await contract.client().getRecord({ orderNo: ORDER_NO });
    expect(result.dnsRecords).toHaveLength(1);
    expect(result.httpRecords).toEqual([]);
    expect(contract.warnings).toEqual([
      'GetRecord: skipped data.dns_records[0] (domain "example.com"): data.dns_records[0].value: is missing',
      "GetRecord: skipped data.dns_records[2]: data.dns_records[2]: expected an object, got a string",
      'GetRecord: skipped data.http_records[0] (domain "www.example.com"): data.http_records[0].content: expected a string, got an integer',
    ]);
  });

  it("unknown record fields and an unlisted record_type / type pass through", async () => {
    contract.server.answer(ok({ ...answerFrom(GET_RECORD_FIELDS), dns_records: [{ ...DNS_RECORD, record_type: "CAA", type: "wildcard", ttl: 600 }] }));
    const [record] = (await contract.client().getRecord({ orderNo: ORDER_NO })).dnsRecords;
    expect(record).toMatchObject({ recordType: "CAA", type: "wildcard" });
    expect(record).not.toHaveProperty("ttl");
  });
});

describe("spec 4.4 ApplySign", () => {
  it("the request: POST /partner/ApplySign/ with apikey and order_no", async () => {
    contract.server.answer(ok(answerFrom(SUBMITTED_FIELDS)));
    await contract.client().applySign({ orderNo: ORDER_NO });
    const request = contract.only();
    expectSpecRequest(request, "ApplySign");
    expect(fieldsOf(request)).toEqual([["order_no", ORDER_NO]]);
  });

  it.each(SUBMITTED_FIELDS)("answer %s = %j → %s", async (_wire, _value, camel, expected) => {
    contract.server.answer(ok(answerFrom(SUBMITTED_FIELDS)));
    const result = await contract.client().applySign({ orderNo: ORDER_NO });
    expect(getPath(result, camel)).toEqual(expected);
  });

  it("the submission happened: missing record lists read as [], missing fields are left out and reported, orderNo is the requested one", async () => {
    contract.server.answer(ok({ cert_status: 2 }));
    const result = await contract.client().applySign({ orderNo: ORDER_NO });
    expect(result).toEqual({ orderNo: ORDER_NO, certStatus: 2, dnsRecords: [], httpRecords: [], emailRecords: [] });
    expect(contract.warnings).toEqual([
      "ApplySign: data.order_no: is missing; left out",
      "ApplySign: data.verification_method: is missing; left out",
      "ApplySign: data.request_id: is missing; left out",
    ]);
  });

  it("verification_method `email` (the service's form for e-mail methods) passes through", async () => {
    contract.server.answer(ok({ ...answerFrom(SUBMITTED_FIELDS), verification_method: "email", dns_records: [] }));
    const result = await contract.client().applySign({ orderNo: ORDER_NO });
    expect(result.verificationMethod).toBe("email");
    expect(isVerificationMethod(result.verificationMethod)).toBe(false);
  });
});

describe("spec 4.5 ChangeVertificationMethod", () => {
  it("the method list is exactly the specification's eight codes", () => {
    expect(VERIFICATION_METHODS).toEqual(["dns", "cname", "file", "email-admin", "email-postmaster", "email-webmaster", "email-hostmaster", "dcv"]);
  });

  it.each(VERIFICATION_METHODS)("method %s: POST /partner/ChangeVertificationMethod/ with order_no, method and an empty email_suffix", async (method) => {
    contract.server.answer(ok({ ...answerFrom(SUBMITTED_FIELDS), verification_method: method }));
    const result = await contract.client().changeVerificationMethod({ orderNo: ORDER_NO, method });
    const request = contract.only();
    expectSpecRequest(request, "ChangeVertificationMethod");
    expect(fieldsOf(request)).toEqual([["order_no", ORDER_NO], ["method", method], ["email_suffix", ""]]);
    expect(result.verificationMethod).toBe(method);
  });

  it.each(SUBMITTED_FIELDS)("answer %s = %j → %s", async (_wire, _value, camel, expected) => {
    contract.server.answer(ok(answerFrom(SUBMITTED_FIELDS)));
    const result = await contract.client().changeVerificationMethod({ orderNo: ORDER_NO, method: "dns" });
    expect(getPath(result, camel)).toEqual(expected);
  });

  it("file method: the records of the new method, the others empty", async () => {
    contract.server.answer(ok({ ...answerFrom(SUBMITTED_FIELDS), verification_method: "file", dns_records: [], http_records: [HTTP_RECORD] }));
    const result = await contract.client().changeVerificationMethod({ orderNo: ORDER_NO, method: "file" });
    expect(result).toMatchObject({ dnsRecords: [], emailRecords: [], httpRecords: [answerFromCamel(HTTP_FIELDS)] });
  });

  it.each(["https", "email", "sms"])("method %s (not a spec code) is refused before sending", async (method) => {
    const error = await failure(contract.client().changeVerificationMethod({ orderNo: ORDER_NO, method } as unknown as ChangeVerificationMethodRequest));
    expect(error).toMatchObject({ kind: "invalid_argument", field: "method", mayHaveReachedServer: false });
    expect(contract.server.requests).toHaveLength(0);
  });

  it("emailSuffix is not a request field (the method code names the mailbox)", async () => {
    const error = await failure(contract.client().changeVerificationMethod({ orderNo: ORDER_NO, method: "email-admin", emailSuffix: "admin" } as never));
    expect(error).toMatchObject({ kind: "invalid_argument", field: "emailSuffix" });
  });
});

describe("spec 4.6 GetRecord (order fields of 2.2)", () => {
  it("the request: POST /partner/GetRecord/ with apikey and order_no", async () => {
    contract.server.answer(ok(answerFrom(GET_RECORD_FIELDS)));
    await contract.client().getRecord({ orderNo: ORDER_NO });
    const request = contract.only();
    expectSpecRequest(request, "GetRecord");
    expect(fieldsOf(request)).toEqual([["order_no", ORDER_NO]]);
  });

  it.each(GET_RECORD_FIELDS)("answer %s = %j → %s", async (_wire, _value, camel, expected) => {
    contract.server.answer(ok(answerFrom(GET_RECORD_FIELDS)));
    const result = await contract.client().getRecord({ orderNo: ORDER_NO });
    expect(getPath(result, camel)).toEqual(expected);
    expect(contract.warnings).toEqual([]);
  });

  it("before ApplySign: record lists absent read as []", async () => {
    const { dns_records: _d, http_records: _h, email_records: _e, ...rest } = answerFrom(GET_RECORD_FIELDS);
    contract.server.answer(ok({ ...rest, cert_status: 0 }));
    expect(await contract.client().getRecord({ orderNo: ORDER_NO })).toMatchObject({ certStatus: 0, dnsRecords: [], httpRecords: [], emailRecords: [] });
  });

  it("an unlisted cert_status and verification_method pass through", async () => {
    contract.server.answer(ok({ ...answerFrom(GET_RECORD_FIELDS), cert_status: 7, verification_method: "acme-http" }));
    expect(await contract.client().getRecord({ orderNo: ORDER_NO })).toMatchObject({ certStatus: 7, verificationMethod: "acme-http" });
  });

  it("a read: a missing listed order field is a contract break naming the wire path", async () => {
    const { fetched_at: _, ...rest } = answerFrom(GET_RECORD_FIELDS);
    contract.server.answer(ok(rest));
    expect(await failure(contract.client().getRecord({ orderNo: ORDER_NO }))).toMatchObject({ kind: "malformed_response", field: "data.fetched_at" });
  });
});
