/**
 * RFC 8657's `validationmethods` and `accounturi` parameters, as a CA weighs
 * them: a property naming the product's CA authorises this Order only when
 * the Order meets its parameters. The records are the RFC's own examples
 * where it gives them (section 5), with the CA `example.net`.
 */
import { describe, expect, it } from "vitest";
import { CAA_VALIDATION_METHODS, describeCaaRefusal, judgeCaa, parseParameters, type CaaProperty } from "../../src/rules/caa.js";
import { VERIFICATION_METHODS } from "../../src/client/vocabulary.js";

const caa = (tag: string, value: string, flags = 0): CaaProperty => ({ flags, tag, value });
const CA = ["example.net"];

describe("the parameters of an issue value (RFC 8659 section 4.2 grammar)", () => {
  it("reads tag=value pairs separated by ';', tags without case, every value kept", () => {
    expect(parseParameters("accounturi=https://example.net/account/1234; validationmethods=dns-01")).toEqual(
      new Map([
        ["accounturi", ["https://example.net/account/1234"]],
        ["validationmethods", ["dns-01"]],
      ]),
    );
    expect(parseParameters("ValidationMethods = http-01")).toEqual(new Map([["validationmethods", ["http-01"]]]));
    expect(parseParameters("a=1; a=2")).toEqual(new Map([["a", ["1", "2"]]]));
    expect(parseParameters("")).toEqual(new Map());
    expect(parseParameters("a=1; ")).toEqual(new Map([["a", ["1"]]]));
  });

  it("refuses what breaks the grammar: no '=', a space inside a value, a tag starting with '-'", () => {
    expect(parseParameters("dns-01")).toBeUndefined();
    expect(parseParameters("validationmethods=dns-01 http-01")).toBeUndefined();
    expect(parseParameters("-x=1")).toBeUndefined();
  });
});

describe("validationmethods (RFC 8657 section 4)", () => {
  // RFC 8657 section 5: example.com CAA 0 issue "example.net; validationmethods=dns-01"
  const dnsOnly = [caa("issue", "example.net; validationmethods=dns-01")];

  it("maps each verification method to its RFC 8657 label, and every method has a decision", () => {
    expect(Object.keys(CAA_VALIDATION_METHODS).sort()).toEqual([...VERIFICATION_METHODS].sort());
    expect(CAA_VALIDATION_METHODS).toMatchObject({ dns: "dns-01", cname: "dns-01", file: "http-01", dcv: undefined, "email-admin": undefined });
  });

  it("allows the methods the list names (dns and cname are dns-01), without case", () => {
    expect(judgeCaa(dnsOnly, CA, false, { verificationMethod: "dns" })).toEqual({ allowed: true, reason: "named" });
    expect(judgeCaa(dnsOnly, CA, false, { verificationMethod: "cname" })).toEqual({ allowed: true, reason: "named" });
    expect(judgeCaa([caa("issue", "example.net; validationmethods=HTTP-01,dns-01")], CA, false, { verificationMethod: "file" }).allowed).toBe(true);
  });

  it("refuses a method the list does not name, a method with no label, and an unset method", () => {
    const file = judgeCaa(dnsOnly, CA, false, { verificationMethod: "file" });
    expect(file).toMatchObject({ allowed: false, reason: "issue", named: ["example.net"], restricted: [{ parameter: "validationmethods" }] });
    const email = judgeCaa(dnsOnly, CA, false, { verificationMethod: "email-admin" });
    expect(email).toMatchObject({ allowed: false, restricted: [{ detail: expect.stringContaining('verificationMethod "email-admin" has no RFC 8657 label') }] });
    const unset = judgeCaa(dnsOnly, CA, false, {});
    expect(unset).toMatchObject({ allowed: false, restricted: [{ detail: expect.stringContaining("verificationMethod is not set") }] });
    // A CA's own label (ca-…) cannot be matched by this package: refused.
    expect(judgeCaa([caa("issue", "example.net; validationmethods=ca-ov-phone")], CA, false, { verificationMethod: "dns" }).allowed).toBe(false);
  });

  it("one property the Order meets is enough; others naming the CA with other methods do not matter", () => {
    const set = [caa("issue", "example.net; validationmethods=http-01"), caa("issue", "example.net; validationmethods=dns-01")];
    expect(judgeCaa(set, CA, false, { verificationMethod: "dns" }).allowed).toBe(true);
    expect(judgeCaa([...dnsOnly, caa("issue", "example.net")], CA, false, { verificationMethod: "file" }).allowed).toBe(true);
  });

  it("a property of another CA is not weighed by its parameters", () => {
    expect(judgeCaa([caa("issue", "other.example; validationmethods=http-01"), ...dnsOnly], CA, false, { verificationMethod: "dns" }).allowed).toBe(true);
  });

  it("a malformed list, or the parameter given twice, authorises nothing", () => {
    expect(judgeCaa([caa("issue", "example.net; validationmethods=dns-01,,http-01")], CA, false, { verificationMethod: "dns" })).toMatchObject({
      allowed: false,
      restricted: [{ parameter: "grammar" }],
    });
    expect(judgeCaa([caa("issue", "example.net; validationmethods=dns-01; validationmethods=http-01")], CA, false, { verificationMethod: "dns" }).allowed).toBe(false);
  });

  it("weighs issuewild's parameters for a wildcard name", () => {
    const set = [caa("issue", "example.net"), caa("issuewild", "example.net; validationmethods=dns-01")];
    expect(judgeCaa(set, CA, true, { verificationMethod: "file" })).toMatchObject({ allowed: false, reason: "issuewild" });
    expect(judgeCaa(set, CA, true, { verificationMethod: "dns" }).allowed).toBe(true);
  });

  it("the refusal says what the record allows, what the Order does, and the ways out", () => {
    const verdict = judgeCaa(dnsOnly, CA, false, { verificationMethod: "file" });
    if (verdict.allowed) throw new Error("expected a refusal");
    expect(describeCaaRefusal({ name: "www.example.com", at: "example.com", rrset: dnsOnly, verdict, issuers: CA, source: { override: true } })).toBe(
      'www.example.com: CAA at example.com names the product\'s CA only with conditions this Order does not meet: 0 issue "example.net; validationmethods=dns-01" ' +
        'allows only validation by dns-01 (RFC 8657), and verificationMethod "file" validates by http-01 (records: 0 issue "example.net; validationmethods=dns-01"); ' +
        "caaIssuerDomains names example.net — set verificationMethod to one the record allows (dns or cname for dns-01, file for http-01), " +
        'add `0 issue "example.net"` at example.com (without parameters). The CA checks CAA before issuing and would refuse after the order is paid; nothing was bought.',
    );
  });
});

describe("accounturi (RFC 8657 section 3)", () => {
  // RFC 8657 section 5: example.com CAA 0 issue "example.net; accounturi=https://example.net/account/1234"
  const bound = [caa("issue", "example.net; accounturi=https://example.net/account/1234")];

  it("refuses: the CA account the reseller buys under is not shown by the Partner API, so no match can be proved", () => {
    const verdict = judgeCaa(bound, CA, false, { verificationMethod: "dns" });
    expect(verdict).toMatchObject({ allowed: false, restricted: [{ parameter: "accounturi" }] });
    if (verdict.allowed) throw new Error("expected a refusal");
    const text = describeCaaRefusal({ name: "example.com", at: "example.com", rrset: bound, verdict, issuers: CA, source: { brand: "sandbox" } });
    expect(text).toContain("lets only the CA account https://example.net/account/1234 issue (RFC 8657)");
    expect(text).toContain("if that account is the one the reseller buys under at the CA, set caaCheck: false on this Order");
  });

  it("a property without accounturi beside it authorises", () => {
    expect(judgeCaa([...bound, caa("issue", "example.net")], CA, false, {}).allowed).toBe(true);
  });

  it("both parameters: each must be met (RFC 8657 section 5's combined example)", () => {
    const both = [caa("issue", "example.net; accounturi=https://example.net/account/1234; validationmethods=dns-01")];
    expect(judgeCaa(both, CA, false, { verificationMethod: "dns" })).toMatchObject({ allowed: false, restricted: [{ parameter: "accounturi" }] });
  });
});
