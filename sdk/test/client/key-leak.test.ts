import { createServer } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PartnerApiError, PartnerClient, type PartnerClientOptions } from "../../src/client/index.js";
import * as wire from "./support/fixtures.js";
import { apiError, ok, ScriptedServer, type ScriptedAnswer } from "../support/partner-api/index.js";

// The API key must never appear in anything the client emits. A distinctive
// key is used, every kind of error is provoked — including servers that echo
// the key back in messages and bodies — and everything is searched for the
// whole key, its secret half and their encoded forms.

const APP_ID = "ak_LEAKCANARYAPPID0123456789";
const SECRET = "SECRETCANARY" + "0123456789abcdef".repeat(3) + "ZZZZ";
const KEY = `${APP_ID}:${SECRET}`;
const NEEDLES = [KEY, SECRET, encodeURIComponent(KEY), SECRET.slice(0, 24), SECRET.slice(-24)];

let server: ScriptedServer;
const emitted: string[] = [];

beforeAll(async () => {
  server = await ScriptedServer.start();
});
afterAll(() => server.close());

function everythingAbout(value: unknown): string[] {
  const out = [String(value), inspect(value, { depth: Infinity, showHidden: true }), JSON.stringify(value) ?? ""];
  let cause: unknown = value;
  for (let depth = 0; cause !== undefined && depth < 8; depth++) {
    if (cause instanceof Error) {
      out.push(cause.message, cause.stack ?? "", inspect(cause, { depth: Infinity, showHidden: true }));
      cause = cause.cause;
    } else {
      out.push(String(cause));
      break;
    }
  }
  return out;
}

function newClient(options: Partial<PartnerClientOptions> = {}): PartnerClient {
  return new PartnerClient({
    baseUrl: server.url,
    apiKey: KEY,
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2, maxTotalMs: 2_000 },
    logger: { debug: (m) => emitted.push(m), warn: (m) => emitted.push(m) },
    onRetry: (event) => emitted.push(...everythingAbout(event)),
    ...options,
  });
}

const echoes = (req: { body: string; headers: Record<string, unknown> }) => `${req.body} ${JSON.stringify(req.headers)}`;

type Scenario = [string, ScriptedAnswer | ((req: { body: string; headers: Record<string, unknown> }) => ScriptedAnswer)];

const SCENARIOS: Scenario[] = [
  ...[400, 401, 403, 404, 405, 429, 500].map(
    (code): Scenario => [`code ${code} echoing the request`, (req) => apiError(code, `bad key ${echoes(req)}`, { field: `apikey=${KEY}` }, code % 2 === 0)],
  ),
  ["HTML 502 echoing the key", (req) => ({ status: 502, body: `<pre>${echoes(req)}</pre>` })],
  ["not JSON, echoing the key", (req) => ({ status: 200, body: `oops ${echoes(req)}` })],
  ["not the envelope, echoing the key", (req) => ({ status: 200, body: { echo: echoes(req) } })],
  ["contract break with the key in data", () => ok({ ...wire.userData, account: { ...wire.userData.account, balance: KEY }, user: { ...wire.userData.user, status: KEY, username: KEY }, order_no: "" })],
  ["429 with retry_after echoing", (req) => ({ status: 429, body: `slow down ${echoes(req)}`, headers: { "retry-after": "0" } })],
  ["request id header echoing the secret", () => ({ ...apiError(404, "no such order"), headers: { "x-request-id": `id-${SECRET}` } })],
  ["success whose request id echoes the secret", () => ({ ...ok(wire.userData), headers: { "x-request-id": SECRET } })],
  ["dropped connection", { drop: true }],
  ["slow server (timeout)", { ...ok(wire.userData), delayMs: 500 }],
];

describe.each(["body", "header", "bearer"] as const)("key placement %s", (keyPlacement) => {
  it.each(SCENARIOS)("%s", async (_, answer) => {
    server.answer(answer);
    const client = newClient({ keyPlacement, timeoutMs: 200 });
    for (const call of [() => client.getUserData(), () => client.createOrder({ productCode: "p", domain: "example.com" })]) {
      const outcome = await call().then((result: unknown) => ({ result }), (error: unknown) => ({ error }));
      if ("error" in outcome) expect(outcome.error).toBeInstanceOf(PartnerApiError);
      emitted.push(...everythingAbout("error" in outcome ? outcome.error : outcome.result));
    }
    await client.close();
  });
});

describe("errors without a server answer", () => {
  it("connection refused, abort, invalid argument, closed client, bad construction", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));

    const refused = newClient({ baseUrl: `http://127.0.0.1:${port}` });
    const controller = new AbortController();
    server.answer({ ...ok(wire.userData), delayMs: 300 });
    const aborted = newClient();
    setTimeout(() => controller.abort(new Error(`aborted with ${KEY}`)), 50);
    const results = await Promise.allSettled([
      refused.getUserData(),
      aborted.getUserData({ signal: controller.signal }),
      aborted.createOrder({ productCode: KEY, domain: ` ${KEY}` }),
      aborted.getRecord({ orderNo: KEY + " " }),
    ]);
    await refused.close();
    await aborted.close();
    results.push(...(await Promise.allSettled([aborted.getUserData()])));
    for (const result of results) {
      expect(result.status).toBe("rejected");
      emitted.push(...everythingAbout((result as PromiseRejectedResult).reason));
    }
    for (const bad of [{ baseUrl: `${KEY}` }, { baseUrl: `http://user:${SECRET}@example.com/` }]) {
      try {
        new PartnerClient({ apiKey: KEY, ...bad });
      } catch (e) {
        emitted.push(...everythingAbout(e));
      }
    }
  });

  it("tolerant reading's warnings: a skipped product or record named by a field that echoes the key", async () => {
    server.answer(ok(wire.productPage([wire.product, { ...wire.product, product_code: KEY, base_price: KEY }])));
    const client = newClient();
    const page = await client.listProducts();
    expect(page.items).toHaveLength(1);
    server.answer(ok({ ...wire.getRecord, dns_records: [{ ...wire.dnsRecord, domain: KEY, value: 5 }] }));
    await client.getRecord({ orderNo: "CERT1" });
    server.answer(ok({ order_no: "CERT1", payment_method: 5, total_amount: KEY }));
    await client.createOrder({ productCode: "p", domain: "example.com" });
    await client.close();
    expect(emitted.filter((line) => line.includes("skipped")).length).toBeGreaterThanOrEqual(2);
  });

  it("the client itself: inspect, JSON, String", () => {
    const client = newClient();
    emitted.push(...everythingAbout(client), inspect(client, { showHidden: true, depth: Infinity, customInspect: false }));
    expect(inspect(client)).toContain("[redacted]");
    void client.close();
  });
});

describe("the search", () => {
  it("found something to search (sanity) and no form of the key in any of it", () => {
    expect(emitted.length).toBeGreaterThan(150);
    // The servers above did echo the key: the redaction marker proves the search saw those texts.
    expect(emitted.some((text) => text.includes("[redacted]"))).toBe(true);
    const leaks = emitted.filter((text) => NEEDLES.some((needle) => text.includes(needle)));
    expect(leaks.slice(0, 3)).toEqual([]);
  });
});
