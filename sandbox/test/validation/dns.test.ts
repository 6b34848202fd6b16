import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRealValidator, type DcvRecordToCheck } from "../../src/validation/index.js";
import { startDnsServer } from "./support/dns-server.js";

let dns: Awaited<ReturnType<typeof startDnsServer>>;
let va: ReturnType<typeof createRealValidator>;

beforeAll(async () => {
  dns = await startDnsServer();
  va = createRealValidator({ resolver: dns.address, timeoutMs: 2_000 });
});
afterAll(() => dns.stop());

const txt = (overrides: Partial<DcvRecordToCheck> = {}): DcvRecordToCheck => ({
  domain: "example.com",
  method: "dns",
  recordType: "TXT",
  label: "_dnsauth",
  value: "token-123",
  ...overrides,
});
const cname = (overrides: Partial<DcvRecordToCheck> = {}): DcvRecordToCheck => ({
  domain: "www.example.net",
  method: "cname",
  recordType: "CNAME",
  label: "_3f2a9c",
  value: "3f2a9c.dcv.sandbox.test",
  ...overrides,
});

describe("dns (TXT)", () => {
  it("verifies a TXT record at <label>.<domain> holding the value, asking the configured resolver", async () => {
    dns.set("_dnsauth.example.com", "TXT", ["unrelated", "token-123"]);
    expect(await va.check(txt())).toEqual({ verified: true, detail: "TXT _dnsauth.example.com holds the expected value" });
    expect(dns.queries.at(-1)).toEqual({ name: "_dnsauth.example.com", type: 16 });
  });

  it("joins a value longer than 255 characters that arrives in several strings", async () => {
    const long = "x".repeat(300);
    dns.set("_dnsauth.long.example.com", "TXT", [long]);
    expect((await va.check(txt({ domain: "long.example.com", value: long }))).verified).toBe(true);
  });

  it("checks a wildcard at its base name", async () => {
    dns.set("_dnsauth.wild.example.com", "TXT", ["wild-token"]);
    expect((await va.check(txt({ domain: "*.wild.example.com", value: "wild-token" }))).verified).toBe(true);
  });

  it("does not verify a different value, and says what it found", async () => {
    dns.set("_dnsauth.other.example.com", "TXT", ["stale-token"]);
    const result = await va.check(txt({ domain: "other.example.com" }));
    expect(result.verified).toBe(false);
    expect(result.detail).toBe('TXT _dnsauth.other.example.com has 1 value(s), none the expected one: ["stale-token"]');
  });

  it("does not verify a name that does not exist", async () => {
    const result = await va.check(txt({ domain: "missing.example.com" }));
    expect(result).toEqual({ verified: false, detail: "no TXT record at _dnsauth.missing.example.com: the name does not exist (NXDOMAIN)" });
  });

  it("does not verify a name that exists without a TXT record", async () => {
    dns.set("_dnsauth.empty.example.com", "CNAME", []);
    const result = await va.check(txt({ domain: "empty.example.com" }));
    expect(result).toEqual({ verified: false, detail: "no TXT record at _dnsauth.empty.example.com: the name has no record of that type" });
  });
});

describe("cname", () => {
  it("verifies a CNAME pointing at the value, ignoring case and a trailing dot", async () => {
    dns.set("_3f2a9c.www.example.net", "CNAME", ["3F2A9C.dcv.Sandbox.test"]);
    expect(await va.check(cname({ value: "3f2a9c.dcv.sandbox.test." }))).toEqual({
      verified: true,
      detail: "CNAME _3f2a9c.www.example.net points to 3f2a9c.dcv.sandbox.test",
    });
  });

  it("does not verify a CNAME pointing elsewhere", async () => {
    dns.set("_3f2a9c.api.example.net", "CNAME", ["elsewhere.example.org"]);
    const result = await va.check(cname({ domain: "api.example.net" }));
    expect(result).toEqual({ verified: false, detail: "CNAME _3f2a9c.api.example.net points to elsewhere.example.org, expected 3f2a9c.dcv.sandbox.test" });
  });

  it("does not verify a missing CNAME", async () => {
    expect((await va.check(cname({ domain: "nothing.example.net" }))).verified).toBe(false);
  });
});

describe("options", () => {
  it("refuses a resolver that is not host:port, naming the option", () => {
    expect(() => createRealValidator({ resolver: "dns.example.com:53:1" })).toThrow(/^resolver: /);
    expect(() => createRealValidator({ resolver: "127.0.0.1:99999" })).toThrow(/resolver: port "99999" must be 1-65535/);
  });

  it("reports a resolver that does not answer as a failed check, within the timeout", async () => {
    const silent = await startDnsServer();
    await silent.stop(); // nothing listens on that port any more
    const deaf = createRealValidator({ resolver: silent.address, timeoutMs: 300 });
    const started = Date.now();
    const result = await deaf.check(txt());
    expect(result.verified).toBe(false);
    expect(result.detail).toMatch(/^no TXT record at _dnsauth\.example\.com: the resolver (did not answer in time|refused the connection)$/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
