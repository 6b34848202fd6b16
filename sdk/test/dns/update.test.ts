/**
 * sendUpdate against a scripted server (test/support/fake-dns-server.ts):
 * what goes out, TCP after a truncated answer, and every kind of answer that
 * must fail — each error naming the setting, none containing the secret.
 * tests/e2e/dns/ repeats the error cases against BIND.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DnsUpdateError } from "../../src/dns/errors.js";
import { parseTsigSecret, type TsigKey } from "../../src/dns/tsig.js";
import { sendUpdate, type UpdateTarget } from "../../src/dns/update.js";
import { startFakeDnsServer, type FakeDnsServer } from "../support/fake-dns-server.js";

const SECRET = Buffer.from("a test key's secret: 32 bytes ok").toString("base64");
const KEY: TsigKey = { name: "test-key.", algorithm: "hmac-sha256", secret: parseTsigSecret(SECRET)! };
const RECORD = { fqdn: "_dnsauth.www.example.com", type: "TXT" as const, value: "token", ttl: 60 };

let server: FakeDnsServer;
let target: UpdateTarget;

beforeAll(async () => {
  server = await startFakeDnsServer(KEY);
  target = { server: server.address, zone: "example.com", tsigKeyName: "test-key.", tsigAlgorithm: "hmac-sha256", tsigSecret: SECRET };
});
afterAll(async () => server?.close());
beforeEach(() => {
  server.received.length = 0;
  server.replies.length = 0;
});

/** The error a failing update throws. */
async function failure(run: Promise<unknown>): Promise<DnsUpdateError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DnsUpdateError);
  const e = error as DnsUpdateError;
  expect(e.message).not.toContain(SECRET);
  return e;
}

describe("sendUpdate", () => {
  it("sends one signed UPDATE over UDP for the zone, deletes before adds", async () => {
    await expect(sendUpdate(target, { deletes: [{ ...RECORD, value: "old" }], adds: [RECORD] })).resolves.toEqual({ transport: "udp" });
    expect(server.received).toHaveLength(1);
    const [update] = server.received;
    expect(update!.tsig.ok).toBe(true);
    expect(update!.zone).toBe("example.com");
    expect(update!.records).toEqual([
      { name: "_dnsauth.www.example.com", type: "TXT", class: "NONE", ttl: 0, data: "old" },
      { name: "_dnsauth.www.example.com", type: "TXT", class: "IN", ttl: 60, data: "token" },
    ]);
  });

  it("sends the same update again over TCP when the UDP answer is truncated", async () => {
    server.replies.push({ truncate: true });
    await expect(sendUpdate(target, { deletes: [], adds: [RECORD] })).resolves.toEqual({ transport: "tcp" });
    expect(server.received.map((r) => r.transport)).toEqual(["udp", "tcp"]);
    expect(server.received[1]!.records).toEqual(server.received[0]!.records);
  });

  it("uses TCP at once for a message too long for a UDP datagram", async () => {
    await expect(sendUpdate(target, { deletes: [], adds: [{ ...RECORD, value: "x".repeat(600) }] })).resolves.toEqual({ transport: "tcp" });
  });

  it("a message too long for TCP's length prefix fails as an update error, not a crash of the process", async () => {
    const big = { ...RECORD, value: "x".repeat(33_000) };
    const e = await failure(sendUpdate(target, { deletes: [{ ...big, value: "y".repeat(33_000) }], adds: [big] }));
    expect(e.message).toMatch(/at most 65535/);
    expect(server.received).toHaveLength(0);
  });

  it("resends over UDP when an answer is lost", async () => {
    server.replies.push({ silent: true });
    await expect(sendUpdate(target, { deletes: [], adds: [RECORD] }, { timeoutMs: 300 })).resolves.toEqual({ transport: "udp" });
    expect(server.received).toHaveLength(2);
  });

  it("REFUSED names zone and the key's update policy", async () => {
    server.replies.push({ rcode: 5 });
    const e = await failure(sendUpdate(target, { deletes: [], adds: [RECORD] }));
    expect(e).toMatchObject({ code: "REFUSED", settings: ["zone", "tsigKeyName"], mayHaveApplied: false });
    expect(e.message).toMatch(/refused the update for zone example\.com \(REFUSED\): check `zone`.*update-policy\/allow-update grants the key test-key\. \(`tsigKeyName`\)/);
  });

  it("NOTAUTH (no TSIG error) names zone and server", async () => {
    server.replies.push({ rcode: 9 });
    const e = await failure(sendUpdate(target, { deletes: [], adds: [RECORD] }));
    expect(e).toMatchObject({ code: "NOTAUTH", settings: ["zone", "server"] });
    expect(e.message).toMatch(/not authoritative for zone example\.com \(NOTAUTH\): check `zone`.*`server`/);
  });

  it("BADSIG names tsigSecret; BADKEY names tsigKeyName and tsigAlgorithm; BADTIME names the clocks", async () => {
    server.replies.push({ tsigError: 16 }, { tsigError: 17 }, { tsigError: 18 });
    const badsig = await failure(sendUpdate(target, { deletes: [], adds: [RECORD] }));
    expect(badsig).toMatchObject({ code: "BADSIG", settings: ["tsigSecret", "tsigAlgorithm"] });
    expect(badsig.message).toMatch(/\(BADSIG\): `tsigSecret` is not the secret the server holds/);
    const badkey = await failure(sendUpdate(target, { deletes: [], adds: [RECORD] }));
    expect(badkey).toMatchObject({ code: "BADKEY", settings: ["tsigKeyName", "tsigAlgorithm"] });
    expect(badkey.message).toMatch(/does not know the TSIG key test-key\. with algorithm hmac-sha256 \(BADKEY\): check `tsigKeyName`.*`tsigAlgorithm`/);
    const badtime = await failure(sendUpdate(target, { deletes: [], adds: [RECORD] }));
    expect(badtime).toMatchObject({ code: "BADTIME" });
    expect(badtime.message).toMatch(/\(BADTIME\): the clocks differ by more than the 300 s/);
  });

  it("does not trust a NOERROR that is unsigned, signed with another key, or altered", async () => {
    server.replies.push({ unsigned: true }, { signWith: { ...KEY, secret: Buffer.from("someone else's secret") } }, { tamper: true });
    expect(await failure(sendUpdate(target, { deletes: [], adds: [RECORD] }))).toMatchObject({ code: "UNSIGNED", mayHaveApplied: true });
    expect(await failure(sendUpdate(target, { deletes: [], adds: [RECORD] }))).toMatchObject({ code: "FORGED", mayHaveApplied: true });
    expect(await failure(sendUpdate(target, { deletes: [], adds: [RECORD] }))).toMatchObject({ code: "FORGED" });
  });

  it("no answer at all names server", async () => {
    server.replies.push({ silent: true }, { silent: true });
    const e = await failure(sendUpdate(target, { deletes: [], adds: [RECORD] }, { timeoutMs: 200, tries: 2 }));
    expect(e).toMatchObject({ code: "NO_ANSWER", settings: ["server"], mayHaveApplied: true });
    expect(e.message).toMatch(/no answer from 127\.0\.0\.1:\d+ over UDP: nothing came back after 2 tries of 200 ms: check `server`/);
    expect(e.cause).toBeInstanceOf(Error);
  });

  it("a refused TCP connection names server, with the socket's error as the cause", async () => {
    const closed = await startFakeDnsServer(KEY);
    await closed.close();
    const e = await failure(sendUpdate({ ...target, server: closed.address }, { deletes: [], adds: [{ ...RECORD, value: "x".repeat(600) }] }));
    expect(e).toMatchObject({ code: "NO_ANSWER", settings: ["server"] });
    expect(e.message).toMatch(/no answer from 127\.0\.0\.1:\d+ over TCP: connect ECONNREFUSED/);
    expect((e.cause as NodeJS.ErrnoException).code).toBe("ECONNREFUSED");
  });

  it("signs with the clock it is given (the hook that provokes BADTIME)", async () => {
    await sendUpdate(target, { deletes: [], adds: [RECORD] }, { now: () => Date.now() - 3_600_000 });
    expect(server.received[0]!.tsig).toMatchObject({ ok: false, reason: "bad-time" });
  });
});
