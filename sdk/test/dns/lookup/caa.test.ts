import { describe, expect, it } from "vitest";
import { DnsLookupError, relevantCaaSet } from "../../../src/dns/lookup/index.js";
import { caa, scriptedDns } from "../../support/scripted-dns.js";

describe("the Relevant RRset (RFC 8659 section 3): climbing the tree", () => {
  it("is the name's own RRset when it has one", async () => {
    const dns = scriptedDns({ default: { "www.example.com": { CAA: [caa("issue", "a.test")] }, "example.com": { CAA: [caa("issue", "b.test")] } } });
    expect(await relevantCaaSet(dns.lookupFor(), "www.example.com")).toEqual({ at: "www.example.com", rrset: [caa("issue", "a.test")] });
  });

  it("else the first non-empty RRset up the tree, asking each name once, in order", async () => {
    const dns = scriptedDns({ default: { "a.b.example.com": { TXT: ["x"] }, "example.com": { CAA: [caa("issue", "letsencrypt.org")] } } });
    expect(await relevantCaaSet(dns.lookupFor(), "a.b.example.com")).toEqual({ at: "example.com", rrset: [caa("issue", "letsencrypt.org")] });
    // a.b.example.com exists (NODATA): is it an alias? b.example.com does not exist (NXDOMAIN): nothing to follow.
    expect(dns.queries).toEqual(["default a.b.example.com CAA", "default a.b.example.com CNAME", "default b.example.com CAA", "default example.com CAA"]);
  });

  it("an alias has its target's RRset; a target without CAA sends the climb on from the alias's parent, not the target's", async () => {
    const dns = scriptedDns({
      default: {
        "shop.example.com": { CNAME: "shops.host.test" },
        "shops.host.test": { CAA: [caa("issue", "host-ca.test")] },
        "blog.example.com": { CNAME: "blogs.host.test" },
        "blogs.host.test": { A: ["192.0.2.1"] },
        "host.test": { CAA: [caa("issue", "never-reached.test")] },
        "example.com": { CAA: [caa("issue", "letsencrypt.org")] },
      },
    });
    expect(await relevantCaaSet(dns.lookupFor(), "shop.example.com")).toEqual({ at: "shop.example.com", rrset: [caa("issue", "host-ca.test")] });
    expect(await relevantCaaSet(dns.lookupFor(), "blog.example.com")).toEqual({ at: "example.com", rrset: [caa("issue", "letsencrypt.org")] });
  });

  it("climbs up to and including the top-level domain, not the root (RFC 8659 section 3)", async () => {
    const dns = scriptedDns({ default: { com: { CAA: [caa("issue", ";")] } } });
    expect(await relevantCaaSet(dns.lookupFor(), "www.example.com")).toEqual({ at: "com", rrset: [caa("issue", ";")] });
    expect(dns.queries).toEqual(["default www.example.com CAA", "default example.com CAA", "default com CAA"]);
  });

  it("an empty tree, the TLD included, is no CAA (anyone may issue)", async () => {
    const dns = scriptedDns({ default: { "example.com": { A: ["192.0.2.1"] }, com: { A: [] } } });
    expect(await relevantCaaSet(dns.lookupFor(), "example.com")).toEqual({ rrset: [] });
    expect(dns.queries.filter((q) => q.endsWith(" CAA"))).toEqual(["default example.com CAA", "default com CAA"]);
  });

  it("RFC 8659 section 3's example: the climb from X.Y.Z reaches the RRset at Z", async () => {
    const dns = scriptedDns({ default: { z: { CAA: [caa("issue", "ca.example")] } } });
    expect(await relevantCaaSet(dns.lookupFor(), "x.y.z")).toEqual({ at: "z", rrset: [caa("issue", "ca.example")] });
  });

  it("a parent the server refuses after answering below (an authoritative server, the TLD) is reported, not thrown", async () => {
    const dns = scriptedDns({ default: { "www.example.test": { A: ["192.0.2.1"] }, "example.test": { SOA: true }, test: { fail: "EREFUSED" } } });
    const found = await relevantCaaSet(dns.lookupFor(), "www.example.test");
    expect(found.rrset).toEqual([]);
    expect(found.unanswered?.name).toBe("test");
    expect(found.unanswered?.error).toBeInstanceOf(DnsLookupError);
    // The name itself refused is an error: nothing was answered.
    const dns2 = scriptedDns({ default: { "www.example.test": { fail: "EREFUSED" } } });
    await expect(relevantCaaSet(dns2.lookupFor(), "www.example.test")).rejects.toBeInstanceOf(DnsLookupError);
  });

  it("looks a wildcard up at its base name, without case or root dot", async () => {
    const dns = scriptedDns({ default: { "shop.example.com": { CAA: [caa("issuewild", ";")] } } });
    expect(await relevantCaaSet(dns.lookupFor(), "*.Shop.Example.com.")).toEqual({ at: "shop.example.com", rrset: [caa("issuewild", ";")] });
  });

  it("shares answers between names of one check (siblings climb through the same parent once)", async () => {
    const dns = scriptedDns({ default: { "example.com": { CAA: [caa("issue", "a.test")] } } });
    const answers = new Map();
    await relevantCaaSet(dns.lookupFor(), "a.example.com", answers);
    await relevantCaaSet(dns.lookupFor(), "b.example.com", answers);
    expect(dns.queries.filter((q) => q.endsWith("example.com CAA") && q.split(" ")[1] === "example.com")).toHaveLength(1);
  });

  it("fails when a server cannot answer: an unknown RRset is not an empty one", async () => {
    const dns = scriptedDns({ default: { "example.com": { fail: "ESERVFAIL" } } });
    const error = await relevantCaaSet(dns.lookupFor(), "www.example.com").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DnsLookupError);
    expect((error as DnsLookupError).message).toBe("example.com CAA from default: the server answered SERVFAIL");
  });
});
