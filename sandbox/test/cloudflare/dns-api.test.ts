// The Cloudflare stand-in against Cloudflare's API v4 documentation for DNS
// records ("DNS Records for a Zone": create, list with filters, record
// details, overwrite, update, delete) and the refusals Cloudflare documents
// and sends: the v4 envelope on every answer, bearer tokens, zones by id.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { optionsFromArgs } from "../../src/cli.js";
import type { CloudflareZone, RunningSandbox } from "../../src/index.js";
import { DV_MULTI, mgmt, ok, withSandbox } from "../support/sandbox.js";

const TOKEN = "A".repeat(20) + "b".repeat(20);
const ZONE_ID = "023e105f4ecef8ad9ca31a8372d0c353";

let sb: RunningSandbox;
let zone: CloudflareZone;

beforeAll(async () => {
  sb = await withSandbox({ cloudflareZones: [{ name: "example.com", id: ZONE_ID, token: TOKEN }, { name: "example.org" }] });
  zone = sb.cloudflare.zones[0]!;
});
afterAll(() => sb.stop());

async function cf(method: string, path: string, body?: unknown, token: string | null = TOKEN): Promise<{ status: number; body: any }> {
  const res = await fetch(`${sb.cloudflare.apiUrl}${path}`, {
    method,
    headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}
const records = `/zones/${ZONE_ID}/dns_records`;
const txt = (name: string, content: string, extra: Record<string, unknown> = {}) => ({ type: "TXT", name, content, ttl: 60, ...extra });
const refusal = (status: number, code: number) => ({ status, body: { success: false, errors: [expect.objectContaining({ code })], messages: [], result: null } });

describe("zones", () => {
  it("from options (an id and token generated when not given) and from the management API; the base URL ends in /client/v4", async () => {
    expect(sb.cloudflare.apiUrl).toBe(`${sb.url}/client/v4`);
    expect(zone).toEqual({ id: ZONE_ID, name: "example.com", token: TOKEN });
    const generated = sb.cloudflare.zones[1]!;
    expect(generated.id).toMatch(/^[0-9a-f]{32}$/);
    expect(generated.token).toMatch(/^[0-9A-Za-z_-]{40,80}$/);
    const made = await mgmt(sb, "POST", "/cloudflare/zones", { name: "Example.NET." });
    expect(made).toMatchObject({ status: 201, body: { name: "example.net", id: expect.stringMatching(/^[0-9a-f]{32}$/) } });
    expect((await mgmt(sb, "POST", "/cloudflare/zones", { name: "net" })).status).toBe(400);
    expect((await mgmt(sb, "POST", "/cloudflare/zones", { name: "x.example", token: "short" })).status).toBe(400);
    const listed = (await mgmt(sb, "GET", "/cloudflare/zones")).body as Array<{ name: string }>;
    expect(listed.map((z) => z.name)).toEqual(["example.com", "example.org", "example.net"]);
  });

  it("the CLI takes NAME[=ID[:TOKEN]], repeatable, or a comma-separated environment variable", () => {
    expect(optionsFromArgs(["--cloudflare-zone", `example.com=${ZONE_ID}:${TOKEN}`, "--cloudflare-zone", "example.org"], {}).cloudflareZones).toEqual([
      { name: "example.com", id: ZONE_ID, token: TOKEN },
      { name: "example.org" },
    ]);
    expect(optionsFromArgs([], { SANDBOX_CLOUDFLARE_ZONES: `a.test=${ZONE_ID},b.test` }).cloudflareZones).toEqual([{ name: "a.test", id: ZONE_ID }, { name: "b.test" }]);
    expect(() => optionsFromArgs(["--cloudflare-zone", "example.com=NOTHEX"], {})).toThrow(/--cloudflare-zone must be NAME\[=ID\[:TOKEN\]\]/);
  });
});

describe("DNS records: create, details, list, overwrite, update, delete", () => {
  it("answers in the v4 envelope with the record's documented fields", async () => {
    const created = await cf("POST", records, txt("_dnsauth.example.com", "token-1"));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ success: true, errors: [], messages: [] });
    const r = created.body.result;
    expect(r).toMatchObject({ name: "_dnsauth.example.com", type: "TXT", content: "token-1", ttl: 60, proxied: false, proxiable: false, tags: [], comment: null });
    expect(r.id).toMatch(/^[0-9a-f]{32}$/);
    expect(Date.parse(r.created_on)).toBeGreaterThan(0);
    expect(await cf("GET", `${records}/${r.id}`)).toMatchObject({ status: 200, body: { success: true, result: r } });

    // A single label is relative to the zone; "@" is its apex.
    const relative = await cf("POST", records, txt("_acme", "token-2"));
    expect(relative.body.result.name).toBe("_acme.example.com");
    const apex = await cf("POST", records, { type: "A", name: "@", content: "192.0.2.1", ttl: 1, proxied: true });
    expect(apex.body.result).toMatchObject({ name: "example.com", ttl: 1, proxied: true, proxiable: true });

    const list = await cf("GET", `${records}?type=TXT&name=_dnsauth.example.com`);
    expect(list.body.result.map((x: { id: string }) => x.id)).toEqual([r.id]);
    expect(list.body.result_info).toEqual({ page: 1, per_page: 100, count: 1, total_count: 1, total_pages: 1 });
    expect((await cf("GET", `${records}?per_page=5`)).body.result_info).toMatchObject({ per_page: 5, count: 3, total_count: 3 });

    const overwritten = await cf("PUT", `${records}/${r.id}`, { type: "TXT", name: "_dnsauth.example.com", content: "token-3" });
    expect(overwritten.body.result).toMatchObject({ id: r.id, content: "token-3", ttl: 1, created_on: r.created_on });
    const edited = await cf("PATCH", `${records}/${r.id}`, { ttl: 120, comment: "dcv" });
    expect(edited.body.result).toMatchObject({ content: "token-3", ttl: 120, comment: "dcv" });

    for (const id of [r.id, relative.body.result.id, apex.body.result.id]) {
      expect(await cf("DELETE", `${records}/${id}`)).toEqual({ status: 200, body: { success: true, errors: [], messages: [], result: { id } } });
    }
    expect(await cf("GET", `${records}/${r.id}`)).toMatchObject(refusal(404, 81044));
    expect((await cf("GET", records)).body.result).toEqual([]);
  });
});

describe("Cloudflare's refusals", () => {
  it("authentication: no header, an unknown token, another zone's token, a malformed header", async () => {
    expect(await cf("GET", records, undefined, null)).toMatchObject(refusal(400, 9106));
    expect(await cf("GET", records, undefined, "z".repeat(40))).toMatchObject(refusal(401, 9109));
    expect(await cf("GET", records, undefined, sb.cloudflare.zones[1]!.token)).toMatchObject(refusal(403, 10000));
    const res = await fetch(`${sb.cloudflare.apiUrl}${records}`, { headers: { authorization: TOKEN } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: Array<{ code: number }> }).errors.map((e) => e.code)).toEqual([6003, 6111]);
  });

  it("an unknown zone or route: 7003 with 7000", async () => {
    const unknown = await cf("POST", `/zones/${"0".repeat(32)}/dns_records`, txt("a.example.com", "v"));
    expect(unknown).toMatchObject({ status: 400, body: { success: false, result: null } });
    expect(unknown.body.errors).toEqual([
      { code: 7003, message: `Could not route to /zones/${"0".repeat(32)}/dns_records, perhaps your object identifier is invalid?` },
      { code: 7000, message: "No route for that URI" },
    ]);
    const route = await cf("GET", "/zones");
    expect(route.status).toBe(400);
    expect(route.body.errors.map((e: { code: number }) => e.code)).toEqual([7003, 7000]);
  });

  it("bad records: a name outside the zone, TTL out of range, bad content, an identical record, a CNAME beside another record", async () => {
    expect(await cf("POST", records, txt("_dnsauth.example.org", "v"))).toMatchObject(refusal(400, 9000));
    expect(await cf("POST", records, txt("bad..example.com", "v"))).toMatchObject(refusal(400, 9000));
    for (const ttl of [0, 59, 86_401, 1.5, "60"]) expect(await cf("POST", records, txt("t.example.com", "v", { ttl }))).toMatchObject(refusal(400, 9021));
    for (const ttl of [1, 60, 86_400]) {
      const r = await cf("POST", records, txt("t.example.com", `ttl-${ttl}`, { ttl }));
      expect(r.status).toBe(200);
      await cf("DELETE", `${records}/${r.body.result.id}`);
    }
    expect(await cf("POST", records, { type: "A", name: "a.example.com", content: "not-an-ip" })).toMatchObject(refusal(400, 9005));
    expect(await cf("POST", records, { type: "TXT", name: "a.example.com", content: "" })).toMatchObject(refusal(400, 9005));
    expect(await cf("POST", records, { type: "MX", name: "a.example.com", content: "mx.example.com" })).toMatchObject(refusal(400, 9004));
    expect(await cf("POST", records, { name: "a.example.com", content: "v" })).toMatchObject(refusal(400, 9101));

    const first = await cf("POST", records, txt("dup.example.com", "same"));
    expect(await cf("POST", records, txt("DUP.example.com.", "same"))).toMatchObject(refusal(400, 81058));
    const second = await cf("POST", records, txt("dup.example.com", "other"));
    expect(second.status).toBe(200);
    expect(await cf("PUT", `${records}/${second.body.result.id}`, txt("dup.example.com", "same"))).toMatchObject(refusal(400, 81058));
    expect(await cf("POST", records, { type: "CNAME", name: "dup.example.com", content: "target.example.net", ttl: 60 })).toMatchObject(refusal(400, 81053));
    for (const r of [first, second]) await cf("DELETE", `${records}/${r.body.result.id}`);
  });
});

describe("records are published where the CA validates from", () => {
  it("an order validates once its records exist through the Cloudflare API, and the management listing shows them until deleted", async () => {
    await mgmt(sb, "PUT", "/config", { validation: "published" });
    try {
      const no = (await ok(sb, "CreateOrder", DV_MULTI)).order_no as string;
      const dns = (await ok(sb, "ApplySign", { order_no: no })).dns_records as Array<{ domain: string; value: string }>;
      const made = [];
      for (const r of dns) {
        expect((await ok(sb, "GetCertificateStatus", { order_no: no })).cert_status).toBe(2);
        made.push((await cf("POST", records, txt(`_dnsauth.${r.domain}`, `"${r.value}"`))).body.result.id as string);
      }
      expect((await mgmt(sb, "GET", "/dns-records")).body).toEqual(dns.map((r) => ({ fqdn: `_dnsauth.${r.domain}`, type: "TXT", value: r.value })));
      expect((await ok(sb, "GetCertificateStatus", { order_no: no })).cert_status).toBe(1);

      // The management API's DELETE clears only what was posted there.
      await mgmt(sb, "DELETE", "/dns-records");
      expect((await mgmt(sb, "GET", "/dns-records")).body).toHaveLength(dns.length);
      for (const id of made) await cf("DELETE", `${records}/${id}`);
      expect((await mgmt(sb, "GET", "/dns-records")).body).toEqual([]);
    } finally {
      await mgmt(sb, "PUT", "/config", { validation: "auto" });
    }
  });

  it("the management API lists each request: method, path, status and the first error code, never the token", async () => {
    const log = (await mgmt(sb, "GET", "/cloudflare/requests")).body as Array<Record<string, unknown>>;
    expect(log.length).toBeGreaterThan(10);
    expect(log[0]).toEqual({ at: expect.any(String), method: "POST", path: `/client/v4${records}`, status: 200, code: null });
    expect(log.some((e) => e.status === 401 && e.code === 9109)).toBe(true);
    expect(JSON.stringify(log)).not.toContain(TOKEN);
    await mgmt(sb, "DELETE", "/cloudflare/requests");
    expect((await mgmt(sb, "GET", "/cloudflare/requests")).body).toEqual([]);
  });
});

describe("with a data directory", () => {
  it("zones and records survive a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cf-sandbox-"));
    try {
      const first = await withSandbox({ dataDir: dir, cloudflareZones: [{ name: "example.com", id: ZONE_ID, token: TOKEN }] });
      const res = await fetch(`${first.cloudflare.apiUrl}${records}`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}` }, body: JSON.stringify(txt("_keep.example.com", "v")) });
      const id = ((await res.json()) as { result: { id: string } }).result.id;
      await first.stop();
      const second = await withSandbox({ dataDir: dir });
      try {
        expect(second.cloudflare.zones).toEqual([{ id: ZONE_ID, name: "example.com", token: TOKEN }]);
        const again = await fetch(`${second.cloudflare.apiUrl}${records}/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } });
        expect(again.status).toBe(200);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
