import { describe, expect, it } from "vitest";
import { missingDomains, pickRecord, shapeRecords, toDnsRecord, toFileRecord, validatedName } from "../../src/resources/validation/records.js";

const dns = shapeRecords(
  [
    { domain: "example.com", type: "main", method: "dns", recordType: "TXT", label: "_dnsauth", value: "tok-main" },
    { domain: "www.example.com", type: "san", method: "dns", recordType: "TXT", label: "_dnsauth", value: "tok-www" },
    { domain: "example.com", type: "wildcard", method: "dns", recordType: "TXT", label: "_dnsauth", value: "tok-wild" },
  ],
  "dns",
);

describe("validation records", () => {
  it("wildcards validate at their base name", () => {
    expect(validatedName("*.Example.com.")).toBe("example.com");
    expect(validatedName("www.example.com")).toBe("www.example.com");
  });

  it("shapes DNS records with relative name and FQDN", () => {
    expect(toDnsRecord(pickRecord(dns, "www.example.com"), "www.example.com")).toEqual({ name: "_dnsauth", fqdn: "_dnsauth.www.example.com", type: "TXT", value: "tok-www" });
  });

  it("a wildcard and its base name each get their own record", () => {
    expect(pickRecord(dns, "*.example.com").value).toBe("tok-wild");
    expect(pickRecord(dns, "example.com").value).toBe("tok-main");
  });

  it("shapes CNAME, file and email records", () => {
    const [cname, file, https, email] = shapeRecords(
      [
        { domain: "a.test", type: "main", method: "cname", recordType: "CNAME", label: "_3f2a", value: "3f2a.dcv.sandbox.test" },
        { domain: "b.test", type: "san", method: "file", recordType: null, label: "X.txt", path: "/.well-known/pki-validation/X.txt", content: "tok\nsandbox", link: "http://b.test/.well-known/pki-validation/X.txt" },
        { domain: "c.test", type: "san", method: "https", label: "Y.txt", content: "tok" },
        { domain: "d.test", type: "san", method: "email", recordType: null, label: null, email: "admin@d.test" },
      ],
      "dns",
    );
    expect(toDnsRecord(cname!, "a.test")).toEqual({ name: "_3f2a", fqdn: "_3f2a.a.test", type: "CNAME", value: "3f2a.dcv.sandbox.test" });
    expect(toFileRecord(file!, "b.test")).toEqual({ url: "http://b.test/.well-known/pki-validation/X.txt", path: "/.well-known/pki-validation/X.txt", content: "tok\nsandbox" });
    // A record missing link/path still yields a usable URL (https method → https://).
    expect(toFileRecord(https!, "c.test")).toEqual({ url: "https://c.test/.well-known/pki-validation/Y.txt", path: "/.well-known/pki-validation/Y.txt", content: "tok" });
    expect(email).toMatchObject({ method: "email", email: "admin@d.test", fqdn: "", value: "", url: "" });
    // Every field is a string: outputs must be plain JSON, no undefined.
    for (const r of [cname, file, https, email]) for (const v of Object.values(r!)) expect(typeof v).toBe("string");
  });

  it("asking for the wrong kind or an unknown domain names the problem", () => {
    expect(() => toFileRecord(pickRecord(dns, "example.com"), "example.com")).toThrow(/validated by method "dns", not file/);
    expect(() => pickRecord(dns, "api.example.com")).toThrow(/no validation record for domain "api.example.com".*records exist for: example.com, www.example.com/);
  });

  it("reports declared domains the records do not cover", () => {
    expect(missingDomains(dns, ["example.com", "*.example.com", "api.example.com"])).toEqual(["api.example.com"]);
  });
});
