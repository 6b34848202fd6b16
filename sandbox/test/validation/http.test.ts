import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadOrCreateCa } from "../../src/ca/index.js";
import { createRealValidator, type DcvRecordToCheck } from "../../src/validation/index.js";
import { startSite, type TestSite } from "./support/http-server.js";

const PATH = "/.well-known/pki-validation/3F2A9C.txt";
const CONTENT = "3f2a9c0d1e\nsandbox\nCERT202611220930001234";

let site: TestSite;
let secureSite: TestSite;
beforeAll(async () => {
  site = await startSite();
  // The HTTPS site's certificate comes from a CA nobody trusts, like a
  // self-signed one: the check must still read the file.
  const ca = await loadOrCreateCa();
  const now = Date.now();
  const cert = await ca.issue({ names: ["secure.example.com"], keySpec: "p-256", hashAlgorithm: "sha256", notBefore: new Date(now - 60_000), notAfter: new Date(now + 86_400_000) });
  secureSite = await startSite({ key: cert.privateKeyPem, cert: cert.chainPem });
});
afterAll(async () => {
  await site.stop();
  await secureSite.stop();
});

const validator = (timeoutMs = 3_000) =>
  createRealValidator({
    hostOverrides: { "Example.com": site.address, "www.example.com": site.address, "secure.example.com": secureSite.address },
    timeoutMs,
  });

const file = (overrides: Partial<DcvRecordToCheck> = {}): DcvRecordToCheck => ({
  domain: "example.com",
  method: "file",
  recordType: null,
  label: "3F2A9C.txt",
  link: `http://example.com${PATH}`,
  content: CONTENT,
  ...overrides,
});

describe("file (HTTP)", () => {
  it("verifies the file served at the link, sent to the override address with the domain as Host", async () => {
    site.routes.set(PATH, `${CONTENT}\n`);
    expect(await validator().check(file())).toEqual({ verified: true, detail: `GET http://example.com${PATH} served the expected content` });
    expect(site.hosts.at(-1)).toBe("example.com");
  });

  it("ignores surrounding whitespace and CRLF line ends", async () => {
    site.routes.set(PATH, `\r\n${CONTENT.replace(/\n/g, "\r\n")}\r\n`);
    expect((await validator().check(file())).verified).toBe(true);
  });

  it("builds the link from the domain and label when the record has none", async () => {
    site.routes.set(PATH, CONTENT);
    const { link: _, ...withoutLink } = file();
    expect((await validator().check(withoutLink)).verified).toBe(true);
  });

  it("follows a redirect to another host", async () => {
    site.routes.set("/.well-known/pki-validation/moved.txt", { status: 301, location: `http://www.example.com${PATH}` });
    site.routes.set(PATH, CONTENT);
    const result = await validator().check(file({ link: "http://example.com/.well-known/pki-validation/moved.txt" }));
    expect(result).toEqual({ verified: true, detail: `GET http://www.example.com${PATH} served the expected content` });
    expect(site.hosts.slice(-2)).toEqual(["example.com", "www.example.com"]);
  });

  it("does not verify different content, and shows what was served", async () => {
    site.routes.set(PATH, "old-token");
    const result = await validator().check(file());
    expect(result.verified).toBe(false);
    expect(result.detail).toBe(`GET http://example.com${PATH} served different content (9 characters, expected ${CONTENT.length}): "old-token"`);
  });

  it("does not verify a missing file", async () => {
    const result = await validator().check(file({ link: "http://example.com/.well-known/pki-validation/absent.txt" }));
    expect(result).toEqual({ verified: false, detail: "GET http://example.com/.well-known/pki-validation/absent.txt answered HTTP 404" });
  });

  it("does not verify when nothing listens at the address", async () => {
    const closed = await startSite();
    await closed.stop();
    const va = createRealValidator({ hostOverrides: { "example.com": closed.address } });
    const result = await va.check(file());
    expect(result.verified).toBe(false);
    expect(result.detail).toMatch(new RegExp(`^GET http://example\\.com${PATH.replace(/\./g, "\\.")} failed: .*ECONNREFUSED`));
  });

  it("gives up on a server that never answers after timeoutMs", async () => {
    site.routes.set("/.well-known/pki-validation/slow.txt", "hang");
    const started = Date.now();
    const result = await validator(300).check(file({ link: "http://example.com/.well-known/pki-validation/slow.txt" }));
    expect(result).toEqual({ verified: false, detail: "GET http://example.com/.well-known/pki-validation/slow.txt failed: timed out after 300 ms" });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("stops after five redirects", async () => {
    site.routes.set("/loop", { status: 302, location: "/loop" });
    const result = await validator().check(file({ link: "http://example.com/loop" }));
    expect(result).toEqual({ verified: false, detail: "GET http://example.com/loop: more than 5 redirects" });
  });
});

// A file link is http:// (spec 2.5); sites often redirect it to HTTPS, so a
// file at an https:// URL must be checkable too.
describe("https", () => {
  it("verifies the file over HTTPS even though the site's certificate is not trusted", async () => {
    secureSite.routes.set(PATH, CONTENT);
    const result = await validator().check(file({ domain: "secure.example.com", method: "file", link: `https://secure.example.com${PATH}` }));
    expect(result).toEqual({ verified: true, detail: `GET https://secure.example.com${PATH} served the expected content` });
    expect(secureSite.hosts.at(-1)).toBe("secure.example.com");
  });

  it("does not verify different content over HTTPS", async () => {
    secureSite.routes.set(PATH, "something else");
    const result = await validator().check(file({ domain: "secure.example.com", method: "file", link: `https://secure.example.com${PATH}` }));
    expect(result.verified).toBe(false);
  });
});

describe("email and bad input", () => {
  it("never verifies e-mail, and says how to force issuance", async () => {
    const result = await validator().check({ domain: "example.com", method: "email", recordType: null, label: null });
    expect(result).toEqual({
      verified: false,
      detail: "e-mail validation for example.com is never verified automatically; force issuance through the management API (POST /management/orders/:orderNo/issue)",
    });
  });

  it("refuses an override that is not an address, naming it", () => {
    expect(() => createRealValidator({ hostOverrides: { "example.com": "127.0.0.1:http" } })).toThrow('hostOverrides["example.com"]: port "http" must be 1-65535');
  });

  it("turns a malformed record into a failed check, not an exception", async () => {
    const result = await validator().check({ domain: 42, method: "dns", recordType: "TXT", label: "_x", value: "v" } as unknown as DcvRecordToCheck);
    expect(result.verified).toBe(false);
    expect(result.detail).toMatch(/^checking the dns record for 42 failed: /);
  });

  it("does not verify a link that is not http(s)", async () => {
    const result = await validator().check(file({ link: "ftp://example.com/x.txt" }));
    expect(result).toEqual({ verified: false, detail: "ftp://example.com/x.txt is not http(s); file validation fetches over HTTP or HTTPS only" });
  });
});
