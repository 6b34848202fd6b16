/**
 * The Rfc2136Record provider run the way the engine runs it (through the
 * stable provider entry, as the serialized provider text does) against a
 * scripted DNS server: what each step sends, and that a refusal reaches the
 * engine as the error naming the setting. tests/e2e/dns/ does the same with
 * BIND and the real engine.
 */
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { parseTsigSecret } from "../../../src/dns/tsig.js";
import { startFakeDnsServer, type FakeDnsServer } from "../../support/fake-dns-server.js";

const entry = require(path.resolve(__dirname, "../../../dist/provider/entry.js")) as {
  provider(name: string): Record<string, (...args: unknown[]) => Promise<any>>;
};
const SECRET = Buffer.from("the lifecycle test's own key, 32b").toString("base64");
let server: FakeDnsServer;
let provider: Record<string, (...args: unknown[]) => Promise<any>>;
const lines: string[] = [];

beforeAll(async () => {
  server = await startFakeDnsServer({ name: "lifecycle.", algorithm: "hmac-sha256", secret: parseTsigSecret(SECRET)! });
  provider = entry.provider("rfc2136-record");
  await provider.configure!({ config: { get: () => undefined } });
});
afterAll(async () => server?.close());
beforeEach(() => {
  server.received.length = 0;
  server.replies.length = 0;
  lines.length = 0;
  // Outside the engine the provider's log lines go to stdout.
  vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
});

const inputs = () => ({
  server: server.address,
  zone: "example.com",
  fqdn: "_dnsauth.www.example.com.",
  type: "TXT",
  value: "token-1",
  tsigKeyName: "lifecycle.",
  tsigSecret: SECRET,
});

/** check then create, as the engine does. */
async function created(): Promise<{ id: string; outs: any }> {
  const { inputs: checked, failures } = await provider.check!({}, inputs());
  expect(failures).toEqual([]);
  return provider.create!(checked);
}

describe("Rfc2136Record through the provider entry", () => {
  it("create adds the RR once, signed, provided the name holds no CNAME and no TXT; outputs are the normalised inputs, id names no value or key", async () => {
    const { id, outs } = await created();
    expect(id).toBe(`TXT _dnsauth.www.example.com @${server.address}`);
    expect(outs).toEqual({ ...inputs(), fqdn: "_dnsauth.www.example.com", ttl: 60, tsigAlgorithm: "hmac-sha256", preExisting: false });
    expect(server.received).toHaveLength(1);
    expect(server.received[0]!.tsig.ok).toBe(true);
    expect(server.received[0]!.prerequisites).toEqual([
      { name: "_dnsauth.www.example.com", type: "CNAME", class: "NONE", ttl: 0, data: "" },
      { name: "_dnsauth.www.example.com", type: "TXT", class: "NONE", ttl: 0, data: "" },
    ]);
    expect(server.received[0]!.records).toEqual([{ name: "_dnsauth.www.example.com", type: "TXT", class: "IN", ttl: 60, data: "token-1" }]);
    expect(lines).toEqual([`certreseller Rfc2136Record "_dnsauth.www.example.com": added TXT _dnsauth.www.example.com (TTL 60) to zone example.com at ${server.address} (UDP)`]);
  });

  it("a new value is ONE update: exactly the old RR deleted and the new one added", async () => {
    const { outs } = await created();
    server.received.length = 0;
    const { inputs: news } = await provider.check!(outs, { ...inputs(), value: "token-2" });
    expect(await provider.diff!("id", outs, news)).toMatchObject({ changes: true, replaces: [] });
    const { outs: after } = await provider.update!("id", outs, news);
    expect(after.value).toBe("token-2");
    expect(server.received).toHaveLength(1);
    // Applied only while the name's TXT RRset is exactly the old value.
    expect(server.received[0]!.prerequisites[1]).toEqual({ name: "_dnsauth.www.example.com", type: "TXT", class: "IN", ttl: 0, data: "token-1" });
    expect(server.received[0]!.records).toEqual([
      { name: "_dnsauth.www.example.com", type: "TXT", class: "NONE", ttl: 0, data: "token-1" },
      { name: "_dnsauth.www.example.com", type: "TXT", class: "IN", ttl: 60, data: "token-2" },
    ]);
  });

  it("a new ttl while the name's TXT RRset also holds another value at the old TTL fails the update naming ttl; nothing is deleted or added", async () => {
    const { outs } = await created();
    server.received.length = 0;
    const { inputs: news } = await provider.check!(outs, { ...inputs(), ttl: 3600 });
    expect(await provider.diff!("id", outs, news)).toMatchObject({ changes: true, replaces: [] });
    server.replies.push({ rcode: 8 }, { answers: [{ type: "TXT", value: "token-1" }, { type: "TXT", value: "v=their-token" }] });
    const error = await provider.update!("id", outs, news).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/^ttl: the TXT RRset at _dnsauth\.www\.example\.com .* also holds a value this resource did not add \("v=their-token"\), and an RRset has one TTL for all its values \(RFC 2181 5\.2\)/);
    expect((error as Error).message).not.toContain(SECRET);
    // The first try's prerequisite failed (the server applied nothing); then only the read.
    expect(server.received.map((r) => r.opcode)).toEqual([5, 0]);
  });

  it("a new key setting alone sends nothing", async () => {
    const { outs } = await created();
    server.received.length = 0;
    const other = Buffer.from("another secret").toString("base64");
    const { inputs: news } = await provider.check!(outs, { ...inputs(), tsigSecret: other });
    const { outs: after } = await provider.update!("id", outs, news);
    expect(after.tsigSecret).toBe(other);
    expect(server.received).toHaveLength(0);
  });

  it("delete removes only this RR (class NONE), never the RRset", async () => {
    const { id, outs } = await created();
    server.received.length = 0;
    await provider.delete!(id, outs);
    expect(server.received.map((u) => u.records)).toEqual([[{ name: "_dnsauth.www.example.com", type: "TXT", class: "NONE", ttl: 0, data: "token-1" }]]);
  });

  it("when the name already holds other TXT values, create reads them back and adds its own only while the RRset is still exactly those", async () => {
    server.replies.push({ rcode: 7 }, { answers: [{ type: "TXT", value: "someone-else" }] });
    const { outs } = await created();
    expect(outs.preExisting).toBe(false);
    expect(server.received.map((r) => r.opcode)).toEqual([5, 0, 5]);
    expect(server.received[1]!.zone).toBe("_dnsauth.www.example.com");
    expect(server.received[1]!.tsig.ok).toBe(true);
    expect(server.received[2]!.prerequisites).toEqual([
      { name: "_dnsauth.www.example.com", type: "CNAME", class: "NONE", ttl: 0, data: "" },
      { name: "_dnsauth.www.example.com", type: "TXT", class: "IN", ttl: 0, data: "someone-else" },
    ]);
    expect(server.received[2]!.records).toEqual([{ name: "_dnsauth.www.example.com", type: "TXT", class: "IN", ttl: 60, data: "token-1" }]);
  });

  it("the very value already at the name is pre-existing: nothing is added, and delete sends nothing", async () => {
    server.replies.push({ rcode: 7 }, { answers: [{ type: "TXT", value: "token-1" }] });
    const { id, outs } = await created();
    expect(outs.preExisting).toBe(true);
    expect(server.received.map((r) => r.opcode)).toEqual([5, 0]);
    expect(lines.at(-1)).toMatch(/found TXT _dnsauth\.www\.example\.com with this value already .*kept as pre-existing \(nothing added; destroy leaves it\)/);
    server.received.length = 0;
    await provider.delete!(id, outs);
    expect(server.received).toEqual([]);
    expect(lines.at(-1)).toMatch(/left TXT _dnsauth\.www\.example\.com .* in place: it was there before this resource/);
  });

  it("a TXT record at a name that is a CNAME is refused, naming the CNAME and the server; nothing more is sent", async () => {
    server.replies.push({ rcode: 7 }, { answers: [{ type: "CNAME", value: "elsewhere.example.net" }] });
    const error = await created().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(new RegExp(`TXT record at _dnsauth\\.www\\.example\\.com: the zone example\\.com at ${server.address.replace(/\./g, "\\.")} already holds CNAME elsewhere\\.example\\.net there`));
    expect(server.received.map((r) => r.opcode)).toEqual([5, 0]);
  });

  it("a refusal fails the step with the message naming the setting, and no secret", async () => {
    server.replies.push({ tsigError: 16 });
    const error = await created().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/\(BADSIG\): `tsigSecret` is not the secret the server holds/);
    expect(error?.message).not.toContain(SECRET);
    expect(lines.join("\n")).not.toContain(SECRET);
  });
});
