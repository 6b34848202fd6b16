import { describe, expect, it } from "vitest";
import type { DnsRecord, HttpRecord, ValidationRecords } from "../../../src/client/types.js";
import {
  effectiveMethod,
  expandRecords,
  missingDomains,
  pickRecord,
  shapeValidationRecords,
  storeRecords,
  toDnsRecord,
  toFileRecord,
  validatedName,
  type DomainValidationRecord,
} from "../../../src/resources/validation/records.js";
import { sameMethod } from "../../../src/resources/shared/verification-method.js";

const lists = (partial: Partial<ValidationRecords>): ValidationRecords => ({ dnsRecords: [], httpRecords: [], emailRecords: [], ...partial });
const txt = (domain: string, type: string, value: string, label = "_dnsauth"): DnsRecord => ({ domain, type, label, recordType: "TXT", value });

describe("DNS records (spec 2.5 dns_records)", () => {
  it("label relative to the domain gives name and FQDN; the hint is kept", () => {
    const { records } = shapeValidationRecords(lists({ dnsRecords: [{ ...txt("www.example.com", "san", "tok"), hint: "Publish it" }] }), {
      method: "dns",
      domains: ["www.example.com"],
    });
    expect(toDnsRecord(pickRecord(records, "www.example.com"), "www.example.com")).toEqual({ name: "_dnsauth", fqdn: "_dnsauth.www.example.com", type: "TXT", value: "tok" });
    expect(records[0]).toMatchObject({ hint: "Publish it", method: "dns", orderedName: "www.example.com", url: "", email: "" });
  });

  it("tolerates an absolute label, an apex label and a missing record_type", () => {
    const { records } = shapeValidationRecords(
      lists({
        dnsRecords: [
          { domain: "a.test", type: "main", label: "_abc.A.test.", recordType: "", value: "x.dcv.test" },
          { domain: "b.test", type: "san", label: "@", recordType: "", value: "v" },
        ],
      }),
      { method: "cname", domains: ["a.test", "b.test"] },
    );
    expect(toDnsRecord(records[0]!, "a.test")).toEqual({ name: "_abc", fqdn: "_abc.a.test", type: "CNAME", value: "x.dcv.test" });
    expect(toDnsRecord(records[1]!, "b.test")).toEqual({ name: "", fqdn: "b.test", type: "CNAME", value: "v" });
  });

  it("every field is a string: outputs must be plain JSON", () => {
    const { records } = shapeValidationRecords(lists({ dnsRecords: [txt("example.com", "", "t")] }), { method: "dns", domains: ["example.com"] });
    for (const v of Object.values(records[0]!)) expect(typeof v).toBe("string");
  });
});

describe("a wildcard and its base name each get their own record", () => {
  const domains = ["example.com", "www.example.com", "*.example.com"];
  const shapes: [string, DnsRecord[]][] = [
    // The sandbox's form: the wildcard's record at its base name, typed san.
    ["type san at the base name", [txt("example.com", "main", "m"), txt("www.example.com", "san", "w"), txt("example.com", "san", "x")]],
    // The fuller documentation's form: typed wildcard.
    ["type wildcard", [txt("example.com", "main", "m"), txt("www.example.com", "san", "w"), txt("example.com", "wildcard", "x")]],
    // The wildcard named as such, listed first.
    ["domain *.example.com", [txt("*.example.com", "san", "x"), txt("example.com", "main", "m"), txt("www.example.com", "san", "w")]],
    // No type at all: declared order decides.
    ["empty type", [txt("example.com", "", "m"), txt("www.example.com", "", "w"), txt("example.com", "", "x")]],
  ];
  for (const [label, dns] of shapes) {
    it(label, () => {
      const { records, unmatched } = shapeValidationRecords(lists({ dnsRecords: dns }), { method: "dns", domains });
      expect(unmatched).toEqual([]);
      expect(domains.map((d) => pickRecord(records, d).value)).toEqual(["m", "w", "x"]);
      expect(pickRecord(records, "*.example.com")).toMatchObject({ domain: "example.com", fqdn: "_dnsauth.example.com", orderedName: "*.example.com" });
      expect(missingDomains(records, domains)).toEqual([]);
    });
  }

  it("a wildcard main name takes the record typed main", () => {
    const { records } = shapeValidationRecords(lists({ dnsRecords: [txt("example.com", "main", "m")] }), { method: "dns", domains: ["*.example.com"] });
    expect(pickRecord(records, "*.Example.com.").value).toBe("m");
  });

  it("records for names the program did not declare are reported, not matched", () => {
    const { records, unmatched } = shapeValidationRecords(lists({ dnsRecords: [txt("a.test", "main", "1"), txt("b.test", "san", "2")] }), { method: "dns", domains: ["a.test"] });
    expect(unmatched.map((r) => r.domain)).toEqual(["b.test"]);
    expect(records).toHaveLength(2);
  });

  it("one record shared by a name and its wildcard covers both", () => {
    const { records } = shapeValidationRecords(lists({ dnsRecords: [txt("example.com", "main", "m")] }), { method: "dns", domains: ["example.com", "*.example.com"] });
    expect(pickRecord(records, "*.example.com").value).toBe("m");
    expect(missingDomains(records, ["example.com", "*.example.com", "api.example.com"])).toEqual(["api.example.com"]);
  });
});

describe("file records (spec 2.5 http_records)", () => {
  const file = (r: Partial<HttpRecord>): HttpRecord => ({ domain: "b.test", type: "main", recordType: "FILE", label: "X.txt", path: "", content: "tok\nsandbox", link: "", ...r });
  const shape = (r: HttpRecord) => toFileRecord(shapeValidationRecords(lists({ httpRecords: [r] }), { method: "file", domains: [r.domain] }).records[0]!, r.domain);

  it("path is the full URL; url is that URL and path the part under the web root", () => {
    const full = "http://b.test/.well-known/pki-validation/X.txt";
    expect(shape(file({ path: full, link: "//b.test/.well-known/pki-validation/X.txt" }))).toEqual({ url: full, path: "/.well-known/pki-validation/X.txt", content: "tok\nsandbox" });
  });

  it("falls back to the protocol-relative link, a bare path, or the file name", () => {
    const want = { url: "http://b.test/.well-known/pki-validation/X.txt", path: "/.well-known/pki-validation/X.txt", content: "tok\nsandbox" };
    expect(shape(file({ link: "//b.test/.well-known/pki-validation/X.txt" }))).toEqual(want);
    expect(shape(file({ path: "/.well-known/pki-validation/X.txt" }))).toEqual(want);
    expect(shape(file({}))).toEqual(want);
  });

  it("a URL that does not parse is passed on as sent, without a path", () => {
    expect(shape(file({ path: "http://b test/x.txt" }))).toEqual({ url: "http://b test/x.txt", path: "", content: "tok\nsandbox" });
  });

  it("brackets an IPv6 host", () => {
    expect(shape(file({ domain: "2001:db8::1", label: "Y.txt" })).url).toBe("http://[2001:db8::1]/.well-known/pki-validation/Y.txt");
  });

  it("a file record is not a DNS record, and the reverse", () => {
    const r = shapeValidationRecords(lists({ httpRecords: [file({})] }), { method: "file", domains: ["b.test"] }).records[0]!;
    expect(() => toDnsRecord(r, "b.test")).toThrow(/validated by method "file", not DNS: use fileRecordFor instead of dnsRecordFor/);
    const d = shapeValidationRecords(lists({ dnsRecords: [txt("b.test", "main", "v")] }), { method: "dns", domains: ["b.test"] }).records[0]!;
    expect(() => toFileRecord(d, "b.test")).toThrow(/validated by method "dns", not file: use dnsRecordFor/);
  });
});

describe("e-mail records (shape not shown by the specification)", () => {
  it("reads domain, type and email when present, drops the rest", () => {
    const { records } = shapeValidationRecords(lists({ emailRecords: [{ domain: "e.test", type: "main", email: "hostmaster@e.test", extra: { a: 1 } }] }), {
      method: "email-hostmaster",
      domains: ["e.test"],
    });
    expect(records).toEqual([expect.objectContaining({ domain: "e.test", type: "main", email: "hostmaster@e.test", fqdn: "", url: "", orderedName: "e.test" })]);
    expect(Object.keys(records[0]!)).not.toContain("extra");
    expect(() => toDnsRecord(records[0]!, "e.test")).toThrow(/validated by method "email-hostmaster", not DNS: the approval mail goes to hostmaster@e\.test/);
  });

  it("derives one record per ordered name from the method code when the list is empty", () => {
    const { records } = shapeValidationRecords(lists({}), { method: "email-admin", domains: ["a.test"], allDomains: ["a.test", "*.b.test"] });
    expect(records.map((r) => [r.orderedName, r.email])).toEqual([["a.test", "admin@a.test"], ["", "admin@b.test"]]);
  });

  it("no mailbox is invented for a bare email method", () => {
    const { records } = shapeValidationRecords(lists({}), { method: "email", domains: ["a.test"] });
    expect(records[0]).toMatchObject({ method: "email", email: "" });
  });
});

describe("the method in effect", () => {
  it("the service's bare email is named by the program's code, else by a record's mailbox", () => {
    expect(effectiveMethod("email", "email-webmaster", lists({}))).toBe("email-webmaster");
    expect(effectiveMethod("email", undefined, lists({ emailRecords: [{ email: "Postmaster@x.test" }] }))).toBe("email-postmaster");
    expect(effectiveMethod("email", undefined, lists({}))).toBe("email");
    expect(effectiveMethod("DNS", "cname", lists({}))).toBe("dns");
  });

  it("without a reported method, the program's code or the records' kind", () => {
    expect(effectiveMethod("", "file", lists({}))).toBe("file");
    expect(effectiveMethod("", undefined, lists({ dnsRecords: [{ ...txt("a.test", "main", "v"), recordType: "CNAME" }] }))).toBe("cname");
    expect(effectiveMethod("", undefined, lists({ httpRecords: [{ domain: "a.test", type: "main", recordType: "FILE", label: "x", path: "", content: "", link: "" }] }))).toBe("file");
  });

  it("email agrees with every email-* code and nothing else", () => {
    expect(sameMethod("email", "email-admin")).toBe(true);
    expect(sameMethod("email-hostmaster", "email")).toBe(true);
    expect(sameMethod("email-admin", "email-hostmaster")).toBe(false);
    expect(sameMethod("dns", "cname")).toBe(false);
  });

  it("only the method's own list is used when the service sends several", () => {
    const both = lists({ dnsRecords: [txt("a.test", "main", "v")], httpRecords: [{ domain: "a.test", type: "main", recordType: "FILE", label: "x", path: "", content: "c", link: "" }] });
    expect(shapeValidationRecords(both, { method: "file", domains: ["a.test"] }).records.map((r) => r.recordType)).toEqual(["FILE"]);
    // dcv: the specification does not say which list; whatever is there is used.
    expect(shapeValidationRecords(lists({ dnsRecords: [txt("a.test", "main", "v")] }), { method: "dcv", domains: ["a.test"] }).records[0]).toMatchObject({ method: "dcv", fqdn: "_dnsauth.a.test" });
  });
});

describe("records stored by earlier releases", () => {
  // No orderedName, method https, type wildcard: picking still works.
  const old = [
    { domain: "example.com", type: "main", method: "dns", name: "_dnsauth", fqdn: "_dnsauth.example.com", recordType: "TXT", value: "m", url: "", path: "", content: "", email: "" },
    { domain: "example.com", type: "wildcard", method: "dns", name: "_dnsauth", fqdn: "_dnsauth.example.com", recordType: "TXT", value: "x", url: "", path: "", content: "", email: "" },
  ] as unknown as DomainValidationRecord[];

  it("pick by base name, a wildcard preferring the record typed wildcard", () => {
    expect(pickRecord(old, "*.example.com").value).toBe("x");
    expect(pickRecord(old, "example.com").value).toBe("m");
    expect(validatedName("*.Example.com.")).toBe("example.com");
    expect(() => pickRecord(old, "api.example.com")).toThrow(/no validation record for domain "api.example.com".*records exist for: example.com/);
  });
});

describe("records as stored in state", () => {
  const shaped = shapeValidationRecords(lists({ dnsRecords: [txt("example.com", "main", "m"), txt("*.example.com", "wildcard", "w")] }), {
    method: "dns",
    domains: ["example.com", "*.example.com"],
  }).records;

  it("drop the empty fields and the Validation's own method, and expand back to the same records", () => {
    const stored = storeRecords(shaped, "dns");
    for (const record of stored) {
      expect(record).not.toHaveProperty("method");
      expect(Object.values(record)).not.toContain("");
    }
    expect(JSON.stringify(stored).length).toBeLessThan(JSON.stringify(shaped).length * 0.8);
    expect(expandRecords(stored, "dns")).toEqual(shaped);
  });

  it("keep a record's method when it differs from the Validation's", () => {
    const stored = storeRecords([{ ...shaped[0]!, method: "cname" }], "dns");
    expect(stored[0]!.method).toBe("cname");
    expect(expandRecords(stored, "dns")[0]!.method).toBe("cname");
  });

  it("records stored whole by an earlier release expand to themselves", () => {
    expect(expandRecords(shaped, "file")).toEqual(shaped);
    expect(expandRecords(undefined, "dns")).toEqual([]);
  });
});
