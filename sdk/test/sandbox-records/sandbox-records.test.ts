/**
 * The testing aids' providers, run the way the engine runs them (through the
 * stable provider entry, as the serialized provider does) against a real
 * sandbox's management API.
 */
import * as path from "node:path";
import { startSandbox, type RunningSandbox } from "certreseller-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManagementClient } from "../../../tests/support/sandbox-management.js";
import { SandboxDnsRecord, SandboxFileRecord } from "../../src/sandbox-records/index.js";

const dist = path.resolve(__dirname, "../../dist");
const entry = require(path.join(dist, "provider/entry.js")) as {
  invoke(self: object, handlerModule: string, method: string, args: unknown[]): Promise<any>;
};
const self = {};
const dns = (method: string, ...args: unknown[]) => entry.invoke(self, "sandbox-records/handlers/dns-record.js", method, args);
const file = (method: string, ...args: unknown[]) => entry.invoke(self, "sandbox-records/handlers/file-record.js", method, args);

let sandbox: RunningSandbox;
const get = (route: string) => ManagementClient.of(sandbox).call("GET", `/${route}`);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await sandbox?.stop();
});

describe("testing.SandboxDnsRecord", () => {
  it("declares its type token", () => {
    expect(SandboxDnsRecord.__pulumiType).toBe("pulumi-nodejs:dynamic/certreseller-testing:SandboxDnsRecord");
  });

  it("publishes on create and unpublishes only its own record on delete", async () => {
    const a = { managementUrl: sandbox.managementUrl, fqdn: "_dnsauth.example.com", type: "TXT", value: "token-a" };
    const b = { ...a, value: "token-b" };
    const created = await dns("create", a);
    await dns("create", b);
    expect(await get("dns-records")).toEqual([
      { fqdn: "_dnsauth.example.com", type: "TXT", value: "token-a" },
      { fqdn: "_dnsauth.example.com", type: "TXT", value: "token-b" },
    ]);
    expect(created.id).not.toContain("token-a");
    await dns("delete", created.id, created.outs);
    expect(await get("dns-records")).toEqual([{ fqdn: "_dnsauth.example.com", type: "TXT", value: "token-b" }]);
  });

  it("replaces on any change, create before delete", async () => {
    const olds = { managementUrl: sandbox.managementUrl, fqdn: "_dnsauth.example.com", type: "TXT", value: "x" };
    expect(await dns("diff", "id", olds, olds)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    expect(await dns("diff", "id", olds, { ...olds, value: "y" })).toEqual({ changes: true, replaces: ["value"], deleteBeforeReplace: false });
  });

  it("names each bad input at preview", async () => {
    const { failures } = await dns("check", {}, { managementUrl: "not a url", fqdn: "", type: "A", value: "v" });
    expect(failures.map((f: { property: string }) => f.property)).toEqual(["managementUrl", "fqdn", "type"]);
  });

  it("fails at preview when the management URL does not answer, naming managementUrl, the URL and the error", async () => {
    const gone = "http://127.0.0.1:9/management";
    const { failures } = await dns("check", {}, { managementUrl: gone, fqdn: "_dnsauth.example.com", type: "TXT", value: "v" });
    expect(failures).toEqual([{ property: "managementUrl", reason: expect.stringMatching(/^managementUrl http:\/\/127\.0\.0\.1:9\/management does not answer: GET http:\/\/127\.0\.0\.1:9\/management\/health failed: /) }]);
    const answering = await dns("check", {}, { managementUrl: sandbox.managementUrl, fqdn: "_dnsauth.example.com", type: "TXT", value: "v" });
    expect(answering.failures).toEqual([]);
    const { failures: fileFailures } = await file("check", {}, { managementUrl: gone, url: "http://example.com/.well-known/pki-validation/x.txt", content: "c" });
    expect(fileFailures).toEqual([{ property: "managementUrl", reason: expect.stringContaining(`managementUrl ${gone} does not answer`) }]);
  });

  it("releases the record when the sandbox is gone instead of failing destroy", async () => {
    const gone = { managementUrl: "http://127.0.0.1:9/management", fqdn: "_x.example.com", type: "TXT", value: "v" };
    await expect(dns("delete", "id", gone)).resolves.toBeUndefined();
    await expect(dns("create", gone)).rejects.toThrow(/is the sandbox running/);
  });
});

describe("testing.SandboxFileRecord", () => {
  it("declares its type token", () => {
    expect(SandboxFileRecord.__pulumiType).toBe("pulumi-nodejs:dynamic/certreseller-testing:SandboxFileRecord");
  });

  it("publishes, updates the content in place and unpublishes", async () => {
    const url = "http://example.com/.well-known/pki-validation/ABC.txt";
    const inputs = { managementUrl: sandbox.managementUrl, url, content: "token\nsandbox" };
    const created = await file("create", inputs);
    expect(created.id).toBe(url);
    const changed = { ...inputs, content: "token2" };
    expect(await file("diff", url, created.outs, changed)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    await file("update", url, created.outs, changed);
    expect(await get("files")).toEqual([{ url, content: "token2" }]);
    await file("delete", url, changed);
    expect(await get("files")).toEqual([]);
  });

  it("refuses a URL that is neither the record's full URL nor its link", async () => {
    const { failures } = await file("check", {}, { managementUrl: sandbox.managementUrl, url: "/.well-known/x", content: "c" });
    expect(failures).toEqual([
      { property: "url", reason: 'url must be the record\'s full http(s) URL (fileRecordFor(d).url) or its protocol-relative link, not "/.well-known/x"' },
    ]);
  });

  it("takes a record's protocol-relative link as its http URL", async () => {
    const link = "//example.com/.well-known/pki-validation/LINK.txt";
    const { inputs, failures } = await file("check", {}, { managementUrl: sandbox.managementUrl, url: link, content: "c" });
    expect(failures).toEqual([]);
    expect(inputs.url).toBe(`http:${link}`);
    const created = await file("create", inputs);
    expect(await get("files")).toEqual([{ url: `http:${link}`, content: "c" }]);
    await file("delete", created.id, created.outs);
    expect(await get("files")).toEqual([]);
  });
});
