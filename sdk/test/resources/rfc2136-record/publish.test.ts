/**
 * publish() against the scripted server, where only the order of answers
 * matters: an update whose first copy went unanswered may have added the
 * record it then finds, so that record is never claimed as the resource's
 * own (tests/e2e/dns/ checks the rest against BIND).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseTsigSecret } from "../../../src/dns/tsig.js";
import { sendUpdate, type UpdateTarget } from "../../../src/dns/update.js";
import { publish } from "../../../src/resources/rfc2136-record/publish.js";
import { startFakeDnsServer, type FakeDnsServer } from "../../support/fake-dns-server.js";

const SECRET = Buffer.from("the publish test's own key, 32 b").toString("base64");
const RECORD = { fqdn: "_dnsauth.www.example.com", type: "TXT" as const, value: "token-1", ttl: 60 };
const FAST = { timeoutMs: 150, tries: 2 };
let server: FakeDnsServer;
let target: UpdateTarget;

beforeAll(async () => {
  server = await startFakeDnsServer({ name: "publish.", algorithm: "hmac-sha256", secret: parseTsigSecret(SECRET)! });
  target = { server: server.address, zone: "example.com", tsigKeyName: "publish.", tsigAlgorithm: "hmac-sha256", tsigSecret: SECRET };
});
afterAll(async () => server?.close());
beforeEach(() => {
  server.received.length = 0;
  server.replies.length = 0;
});

describe("publish", () => {
  it("a prerequisite failure answering the only copy sent: the value found was there before", async () => {
    server.replies.push({ rcode: 7 }, { answers: [{ type: "TXT", value: "token-1" }] });
    await expect(publish(target, RECORD, undefined, FAST)).resolves.toEqual({ preExisting: true, unsure: false });
  });

  it("a prerequisite failure answering a second copy (the first unanswered, perhaps applied): the value found is kept as pre-existing and flagged unsure", async () => {
    server.replies.push({ silent: true }, { rcode: 7 }, { answers: [{ type: "TXT", value: "token-1" }] });
    await expect(publish(target, RECORD, undefined, FAST)).resolves.toEqual({ preExisting: true, unsure: true });
    expect(server.received.map((r) => r.opcode)).toEqual([5, 5, 0]);
    expect(server.received[1]!.records).toEqual(server.received[0]!.records);
  });

  it("sendUpdate's prerequisite error says whether an earlier copy may have been applied", async () => {
    server.replies.push({ rcode: 8 });
    await expect(sendUpdate(target, { deletes: [], adds: [RECORD] }, FAST)).rejects.toMatchObject({ code: "PREREQUISITE", mayHaveApplied: false });
    server.replies.push({ silent: true }, { rcode: 8 });
    await expect(sendUpdate(target, { deletes: [], adds: [RECORD] }, FAST)).rejects.toMatchObject({
      code: "PREREQUISITE",
      mayHaveApplied: true,
      message: expect.stringMatching(/\(NXRRSET\), so the server applied nothing \(an earlier copy of it went unanswered and may have been applied\)$/),
    });
  });

  it("records that keep changing: five tries, then an error saying so, with nothing added", async () => {
    for (let i = 0; i < 5; i++) server.replies.push({ rcode: 7 }, { answers: [{ type: "TXT", value: `other-${i}` }] });
    server.replies.pop();
    await expect(publish(target, RECORD, undefined, FAST)).rejects.toMatchObject({
      code: "PREREQUISITE",
      message: expect.stringMatching(/5 tries in a row: the records at _dnsauth\.www\.example\.com kept changing while this update was made; nothing was added: run it again$/),
    });
    expect(server.received.map((r) => r.opcode)).toEqual([5, 0, 5, 0, 5, 0, 5, 0, 5]);
  });
});
