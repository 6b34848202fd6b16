import { describe, expect, it } from "vitest";
import { CAA_ISSUER_DOMAINS, caaIssuerDomainsOf } from "../../src/rules/caa-issuers.js";
import { describeCaaRefusal, formatCaa, judgeCaa, parseIssueValue, type CaaProperty } from "../../src/rules/caa.js";

const caa = (tag: string, value: string, flags = 0): CaaProperty => ({ flags, tag, value });
const OURS = ["sandbox-ca.test"];

describe("an issue value (RFC 8659 section 4.2)", () => {
  it("is the issuer domain before `;`, then the parameters, whitespace allowed", () => {
    expect(parseIssueValue("letsencrypt.org")).toEqual({ issuer: "letsencrypt.org", parameters: "", malformed: false });
    expect(parseIssueValue("  Sandbox-CA.test ; accounturi=https://ca.test/acct/1; validationmethods=dns-01 ")).toEqual({
      issuer: "sandbox-ca.test",
      parameters: "accounturi=https://ca.test/acct/1; validationmethods=dns-01",
      malformed: false,
    });
  });

  it("names no CA when empty or `;` alone", () => {
    expect(parseIssueValue(";")).toEqual({ parameters: "", malformed: false });
    expect(parseIssueValue("")).toEqual({ parameters: "", malformed: false });
    expect(parseIssueValue(" ; foo=bar")).toEqual({ parameters: "foo=bar", malformed: false });
  });

  it("tolerates a root dot; a value breaking the grammar names no CA", () => {
    expect(parseIssueValue("sandbox-ca.test.").issuer).toBe("sandbox-ca.test");
    expect(parseIssueValue("sandbox ca.test")).toEqual({ parameters: "", malformed: true });
    expect(parseIssueValue("-bad.test").malformed).toBe(true);
    expect(parseIssueValue("mailto:x@example.com").malformed).toBe(true);
  });
});

describe("judgeCaa: RFC 8659's decision for one name", () => {
  it("an empty Relevant RRset lets any CA issue", () => {
    expect(judgeCaa([], OURS, false)).toEqual({ allowed: true, reason: "no-caa" });
  });

  it("an issue property naming the CA allows; naming only others refuses, naming them", () => {
    expect(judgeCaa([caa("issue", "letsencrypt.org"), caa("issue", "sandbox-ca.test")], OURS, false)).toEqual({ allowed: true, reason: "named" });
    expect(judgeCaa([caa("issue", "letsencrypt.org"), caa("issue", "pki.goog; cansignhttpexchanges=yes")], OURS, false)).toEqual({
      allowed: false,
      reason: "issue",
      named: ["letsencrypt.org", "pki.goog"],
    });
  });

  it("issuer domains compare without case; unknown parameters do not matter (RFC 8657's are weighed: caa-parameters.test.ts)", () => {
    expect(judgeCaa([caa("ISSUE", "SANDBOX-CA.TEST; policy=ev")], OURS, false).allowed).toBe(true);
    expect(judgeCaa([caa("ISSUE", "SANDBOX-CA.TEST; accounturi=x")], OURS, false).allowed).toBe(false);
  });

  it('`issue ";"` forbids every CA', () => {
    expect(judgeCaa([caa("issue", ";")], OURS, false)).toEqual({ allowed: false, reason: "issue", named: [] });
  });

  it("a set without issue properties (only iodef) restricts nothing", () => {
    expect(judgeCaa([caa("iodef", "mailto:security@example.com")], OURS, false)).toEqual({ allowed: true, reason: "no-issue-property" });
  });

  it("for a wildcard, issuewild replaces issue when present", () => {
    const set = [caa("issue", "sandbox-ca.test"), caa("issuewild", "letsencrypt.org")];
    expect(judgeCaa(set, OURS, true)).toEqual({ allowed: false, reason: "issuewild", named: ["letsencrypt.org"] });
    expect(judgeCaa(set, OURS, false)).toEqual({ allowed: true, reason: "named" });
    expect(judgeCaa([caa("issuewild", ";"), caa("issue", "sandbox-ca.test")], OURS, true)).toEqual({ allowed: false, reason: "issuewild", named: [] });
  });

  it("for a wildcard without issuewild, issue applies", () => {
    expect(judgeCaa([caa("issue", "letsencrypt.org")], OURS, true)).toEqual({ allowed: false, reason: "issue", named: ["letsencrypt.org"] });
    expect(judgeCaa([caa("issue", "sandbox-ca.test")], OURS, true).allowed).toBe(true);
  });

  it("for a plain name, issuewild is ignored", () => {
    expect(judgeCaa([caa("issuewild", "letsencrypt.org")], OURS, false)).toEqual({ allowed: true, reason: "no-issue-property" });
  });

  it("an unknown tag with the critical flag forbids issuance; a known one or a non-critical one does not", () => {
    const critical = caa("tbs", "x", 128);
    expect(judgeCaa([critical, caa("issue", "sandbox-ca.test")], OURS, false)).toEqual({ allowed: false, reason: "critical", named: [], critical });
    expect(judgeCaa([caa("tbs", "x"), caa("issue", "sandbox-ca.test")], OURS, false).allowed).toBe(true);
    expect(judgeCaa([caa("issue", "sandbox-ca.test", 128)], OURS, false).allowed).toBe(true);
  });
});

describe("the preview failure", () => {
  it("names the name, where the records are, the records, the CA's domains and the record to add", () => {
    const rrset = [caa("issue", "letsencrypt.org")];
    const verdict = judgeCaa(rrset, OURS, false);
    if (verdict.allowed) throw new Error("expected a refusal");
    expect(describeCaaRefusal({ name: "www.example.com", at: "example.com", rrset, verdict, issuers: OURS, source: { brand: "sandbox" } })).toBe(
      'www.example.com: CAA at example.com allows only letsencrypt.org (0 issue "letsencrypt.org"); the product\'s CA (brand sandbox) issues as ' +
        'sandbox-ca.test — add `0 issue "sandbox-ca.test"` at example.com, or choose another product. ' +
        "The CA checks CAA before issuing and would refuse after the order is paid; nothing was bought.",
    );
  });

  it('says "no CA at all" for `;`, issuewild for wildcards, and the override when it was used', () => {
    const rrset = [caa("issuewild", ";")];
    const verdict = judgeCaa(rrset, ["ca.example.net"], true);
    if (verdict.allowed) throw new Error("expected a refusal");
    const text = describeCaaRefusal({ name: "*.example.com", at: "example.com", rrset, verdict, issuers: ["ca.example.net"], source: { override: true } });
    expect(text).toMatch(/^\*\.example\.com: CAA at example\.com allows no CA for wildcard names \(issuewild\) at all \(0 issuewild ";"\); caaIssuerDomains names ca\.example\.net — add `0 issuewild "ca\.example\.net"`/);
  });

  it("explains a critical property", () => {
    const rrset = [caa("tbs", "x", 128)];
    const verdict = judgeCaa(rrset, OURS, false);
    if (verdict.allowed) throw new Error("expected a refusal");
    expect(describeCaaRefusal({ name: "example.com", at: "example.com", rrset, verdict, issuers: OURS, source: { brand: "sandbox" } })).toMatch(
      /the critical property 128 tbs "x", whose tag "tbs" CAs do not know; RFC 8659 forbids issuance/,
    );
    expect(formatCaa(caa("issue", ";"))).toBe('0 issue ";"');
  });
});

describe("the issuer domains by brand", () => {
  it("covers the sandbox's three brands with their own .test domains", () => {
    expect(caaIssuerDomainsOf("sandbox")).toEqual(["sandbox-ca.test"]);
    expect(caaIssuerDomainsOf("exampleca")).toEqual(["example-ca.test"]);
    expect(caaIssuerDomainsOf(" LongLife ")).toEqual(["longlife-pki.test"]);
  });

  it("knows no brand it does not list (no prototype members either)", () => {
    expect(caaIssuerDomainsOf("acme-trust")).toBeUndefined();
    expect(caaIssuerDomainsOf("constructor")).toBeUndefined();
    expect(caaIssuerDomainsOf(undefined)).toBeUndefined();
  });

  it("lists only well-formed issuer domains", () => {
    for (const [brand, domains] of Object.entries(CAA_ISSUER_DOMAINS)) {
      for (const d of domains) expect(parseIssueValue(d), `${brand}: ${d}`).toEqual({ issuer: d, parameters: "", malformed: false });
    }
  });
});
