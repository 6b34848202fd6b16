import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/index.js";
import { startDnsServer } from "./support/dns-server.js";
import { startSite, type TestSite } from "./support/http-server.js";
import { mgmt, ok, withSandbox } from "../support/sandbox.js";

// `--validation real`: the sandbox looks for the records itself, over HTTP
// against a loopback site (host override) and DNS against a local resolver.
let sb: RunningSandbox;
let site: TestSite;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
beforeAll(async () => {
  site = await startSite();
  dns = await startDnsServer();
  sb = await withSandbox({ validation: "real", realValidation: { resolver: dns.address, hostOverrides: { "example.com": site.address }, timeoutMs: 2_000 } });
});
afterAll(async () => {
  await sb.stop();
  await site.stop();
  await dns.stop();
});

describe("real validation", () => {
  it("issues a file-validated order only once the site serves the file", async () => {
    const { order_no } = await ok(sb, "CreateOrder", { product_code: "sandbox-dv-single", domain: "example.com", verification_method: "file", signature_algorithm: "ecc" });
    const [rec] = (await ok(sb, "ApplySign", { order_no })).http_records;
    // GetRecord reads stored state only: no request reaches the site.
    const hostsBefore = site.hosts.length;
    await ok(sb, "GetRecord", { order_no });
    expect(site.hosts.length).toBe(hostsBefore);
    const pending = await ok(sb, "GetCertificateStatus", { order_no });
    expect(pending.cert_status).toBe(2);
    expect(pending.ca_status_text).toMatch(/example\.com/);
    site.routes.set(new URL(rec.path).pathname, rec.content);
    expect((await ok(sb, "GetCertificateStatus", { order_no })).cert_status).toBe(1);
    expect(site.hosts).toContain("example.com");
  });

  it("issues a DNS-validated order only once the resolver answers the TXT record", async () => {
    const { order_no } = await ok(sb, "CreateOrder", { product_code: "sandbox-dv-single", domain: "example.org", verification_method: "dns", signature_algorithm: "ecc" });
    const [rec] = (await ok(sb, "ApplySign", { order_no })).dns_records;
    expect((await ok(sb, "GetCertificateStatus", { order_no })).cert_status).toBe(2);
    dns.set(`${rec.label}.${rec.domain}`, "TXT", [rec.value]);
    expect((await ok(sb, "GetCertificateStatus", { order_no })).cert_status).toBe(1);
  });

  it("can be switched off and on at run time", async () => {
    expect((await mgmt(sb, "PUT", "/config", { validation: "auto" })).body.validation).toBe("auto");
    expect((await mgmt(sb, "PUT", "/config", { validation: "real" })).body.validation).toBe("real");
  });
});
