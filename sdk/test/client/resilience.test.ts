import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { PartnerApiError, PartnerClient, type PartnerClientOptions, type RetryEvent } from "../../src/client/index.js";
import * as wire from "./support/fixtures.js";
import { apiError, ok, useScriptedClients } from "../support/partner-api/index.js";

// Timeouts, cancellation, retries and the money-safety rule, against a real server.

const KEY = "ak_resilienceresilienceres:" + "r".repeat(64);
const scripted = useScriptedClients(KEY, { retry: { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 20, maxTotalMs: 5_000 } });
const client = (options?: Partial<PartnerClientOptions>) => scripted.client(options);

async function failure(promise: Promise<unknown>): Promise<PartnerApiError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(PartnerApiError);
  return error as PartnerApiError;
}

async function refusedUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}

describe("timeout and cancellation", () => {
  it("a slow server → timeout, per call", async () => {
    scripted.server.answer({ ...ok(wire.userData), delayMs: 1_000 });
    const started = performance.now();
    const error = await failure(client({ retry: false }).getUserData({ timeoutMs: 150 }));
    // The kind is the outcome (an answer after 1 s would have succeeded); the bound only catches a hang.
    expect(error).toMatchObject({ kind: "timeout", operation: "GetUserData", mayHaveReachedServer: true });
    expect(error.message).toMatch(/no complete answer within 150 ms/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("client-wide timeout", async () => {
    scripted.server.answer({ ...ok(wire.userData), delayMs: 1_000 });
    expect(await failure(client({ retry: false, timeoutMs: 100 }).getUserData())).toMatchObject({ kind: "timeout" });
  });

  it("an abort signal stops the call in flight", async () => {
    const controller = new AbortController();
    // Aborted once the server has the request, not after a fixed delay: a loaded machine can stall the loop past
    // a short timer before the request is read, and the test would then see no request at all.
    scripted.server.answer(() => {
      controller.abort();
      return { ...ok(wire.userData), delayMs: 1_000 };
    });
    const error = await failure(client().getUserData({ signal: controller.signal }));
    expect(error).toMatchObject({ kind: "aborted", mayHaveReachedServer: true });
    expect(scripted.server.requests).toHaveLength(1);
  });

  it("an already-aborted signal sends nothing", async () => {
    const error = await failure(client().createOrder({ productCode: "p", domain: "example.com" }, { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ kind: "aborted", mayHaveReachedServer: false });
    expect(scripted.server.requests).toHaveLength(0);
  });

  it("the client's own signal aborts its calls, also while waiting to retry", async () => {
    scripted.server.answer(apiError(503, "busy"));
    const controller = new AbortController();
    // Waits of up to 30 s: only an abort that ends the wait itself returns within the bound below.
    const c = client({ signal: controller.signal, retry: { maxAttempts: 5, baseDelayMs: 30_000, maxDelayMs: 30_000, maxTotalMs: 120_000 } });
    const pending = failure(c.getUserData());
    setTimeout(() => controller.abort(), 150);
    const started = performance.now();
    // The 503 attempt(s) did reach the server: the abort error must say so. (Full jitter may
    // pick a short first wait, so the abort can land in the first or a later wait.)
    expect(await pending).toMatchObject({ kind: "aborted", mayHaveReachedServer: true });
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe("answer size cap", () => {
  it("an answer over maxResponseBytes fails as malformed_response, not retried, naming the option", async () => {
    scripted.server.answer(ok({ ...wire.userData, padding: "x".repeat(64 * 1024) }));
    const error = await failure(client({ maxResponseBytes: 16 * 1024 }).getUserData());
    expect(error).toMatchObject({ kind: "malformed_response", operation: "GetUserData", mayHaveReachedServer: true });
    expect(error.message).toMatch(/exceeded 16384 bytes \(maxResponseBytes\)/);
    expect(scripted.server.requests).toHaveLength(1);
  });

  it("the default cap lets a normal answer through", async () => {
    scripted.server.answer(ok({ ...wire.userData, padding: "x".repeat(64 * 1024) }));
    expect((await client().getUserData()).user).toBeDefined();
  });

  it("refuses a cap that is not a positive whole number", () => {
    expect(() => client({ maxResponseBytes: 0 })).toThrow(/maxResponseBytes must be a positive whole number/);
  });
});

describe("retries of read-only operations", () => {
  it("5xx then success: retried, onRetry and logger told", async () => {
    scripted.server.answer(apiError(500, "oops"), { status: 503, body: "" }, ok(wire.getRecord));
    const events: RetryEvent[] = [];
    const lines: string[] = [];
    const record = await client({ onRetry: (e) => events.push(e), logger: { debug: (m) => lines.push(m) } }).getRecord({ orderNo: "CERT1" });
    expect(record.orderNo).toBe("CERT202611220930001234");
    expect(scripted.server.requests).toHaveLength(3);
    expect(events.map((e) => [e.operation, e.attempt, e.error.kind])).toEqual([["GetRecord", 1, "server"], ["GetRecord", 2, "http_error"]]);
    expect(lines.some((l) => l.includes("retrying in"))).toBe(true);
  });

  it("a dropped connection (network error) is retried for reads", async () => {
    scripted.server.answer({ drop: true }, ok(wire.userData));
    await client().getUserData();
    expect(scripted.server.requests).toHaveLength(2);
  });

  it("429 with retry_after: the next attempt waits at least that long", async () => {
    scripted.server.answer(apiError(429, "slow down", { retry_after: 1 }), ok(wire.userData));
    await client().getUserData();
    expect(scripted.server.requests).toHaveLength(2);
    const gap = scripted.server.requests[1]!.at - scripted.server.requests[0]!.at;
    // The outcome: at least retry_after (load only makes it longer); the backoff alone is at most 20 ms here.
    expect(gap).toBeGreaterThanOrEqual(950);
    expect(gap).toBeLessThan(15_000);
  });

  it("bounded by maxAttempts: the last error is surfaced with the attempt count", async () => {
    scripted.server.answer(apiError(500, "down"));
    const warnings: string[] = [];
    const error = await failure(client({ logger: { warn: (m) => warnings.push(m) } }).downloadCertificate({ orderNo: "CERT1" }));
    expect(error).toMatchObject({ kind: "server", attempts: 4 });
    expect(warnings).toEqual(["DownloadCertificate: giving up after 4 attempts (server, code 500)"]);
    expect(scripted.server.requests).toHaveLength(4);
  });

  it("bounded by maxTotalMs: a retry_after past the budget is surfaced at once", async () => {
    scripted.server.answer(apiError(429, "cooldown", { retry_after: 170, cooldown_seconds: 180 }));
    const started = performance.now();
    const error = await failure(client().getCertificateStatus({ orderNo: "CERT1" }));
    expect(error).toMatchObject({ kind: "rate_limited", retryAfter: 170, cooldownSeconds: 180, attempts: 1 });
    expect(scripted.server.requests).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("bounded by maxTotalMs also while attempts time out: a retry gets only the remaining budget", async () => {
    scripted.server.answer({ ...ok(wire.userData), delayMs: 20_000 });
    const started = performance.now();
    // The first attempt takes its full 2 s; the second starts 2 s or more into a 3 s budget, so it gets 1 s at most.
    // A late timer on a loaded machine shortens the second attempt, it does not add a third.
    const c = client({ timeoutMs: 2_000, retry: { maxAttempts: 10, baseDelayMs: 1, maxDelayMs: 1, maxTotalMs: 3_000 } });
    const error = await failure(c.getUserData());
    expect(error).toMatchObject({ kind: "timeout", attempts: 2 });
    expect(scripted.server.requests).toHaveLength(2);
    const lastTimeoutMs = Number(/no complete answer within ([\d.]+) ms/.exec(error.message)?.[1]);
    expect(lastTimeoutMs, error.message).toBeGreaterThan(0);
    expect(lastTimeoutMs, error.message).toBeLessThanOrEqual(1_000);
    // Without the budget's rule the second attempt would run its full 2 s too; this bound only catches a hang.
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it("HTTP 503 with a Retry-After header and no JSON body: an HTTP error page, retryAfter read from the header", async () => {
    scripted.server.answer({ status: 503, body: "", headers: { "retry-after": "120" } });
    expect(await failure(client({ retry: false }).getUserData())).toMatchObject({ kind: "http_error", httpStatus: 503, retryAfter: 120 });
  });

  it("4xx codes are not retried", async () => {
    scripted.server.answer(apiError(404, "no such order"));
    await failure(client().getRecord({ orderNo: "CERT1" }));
    expect(scripted.server.requests).toHaveLength(1);
  });

  it("connection refused: retried, and reported as never sent", async () => {
    const c = client({ baseUrl: await refusedUrl() });
    const error = await failure(c.getUserData());
    expect(error).toMatchObject({ kind: "network", mayHaveReachedServer: false, attempts: 4 });
    expect(error.message).toMatch(/ECONNREFUSED.*http:\/\/127\.0\.0\.1:\d+/);
  });
});

describe("money safety: state-changing operations are never retried once sent", () => {
  it("CreateOrder: the server charges then answers 500 → exactly one request, error says it may have reached", async () => {
    let charged = 0;
    scripted.server.answer(() => {
      charged++;
      return apiError(500, "internal error after charge", null, true);
    });
    const error = await failure(client().createOrder({ productCode: "p", domain: "example.com" }));
    expect(scripted.server.requests).toHaveLength(1);
    expect(charged).toBe(1);
    expect(error).toMatchObject({ kind: "server", httpStatus: 500, mayHaveReachedServer: true, attempts: 1 });
  });

  it("CreateOrder: the connection drops after the request was read → one request", async () => {
    scripted.server.answer({ drop: true });
    const error = await failure(client().createOrder({ productCode: "p", domain: "example.com" }));
    expect(error).toMatchObject({ kind: "network", mayHaveReachedServer: true });
    expect(scripted.server.requests).toHaveLength(1);
  });

  it("CreateOrder: a timeout → one request", async () => {
    // A timeout long enough that the request is surely read first (the count below), far shorter than the answer.
    scripted.server.answer({ ...ok(wire.createOrder), delayMs: 5_000 });
    const error = await failure(client().createOrder({ productCode: "p", domain: "example.com" }, { timeoutMs: 1_000 }));
    expect(error).toMatchObject({ kind: "timeout", mayHaveReachedServer: true });
    expect(scripted.server.requests).toHaveLength(1);
  });

  it.each([
    ["ApplySign", (c: PartnerClient) => c.applySign({ orderNo: "CERT1" })],
    ["ChangeVertificationMethod", (c: PartnerClient) => c.changeVerificationMethod({ orderNo: "CERT1", method: "dns" })],
    ["CancelOrder", (c: PartnerClient) => c.cancelOrder({ orderNo: "CERT1" })],
  ] as const)("%s: 503 and 429 are not retried", async (_, call) => {
    scripted.server.answer(apiError(503, "busy"));
    await failure(call(client()));
    scripted.server.answer(apiError(429, "too soon", { retry_after: 0 }));
    await failure(call(client()));
    expect(scripted.server.requests).toHaveLength(2);
  });

  it("a throwing logger or onRetry hook cannot turn a paid CreateOrder into a failure", async () => {
    scripted.server.answer(ok(wire.createOrder));
    const throwing = () => {
      throw new Error("logger broke");
    };
    const c = client({ logger: { debug: throwing, warn: throwing }, onRetry: throwing });
    expect((await c.createOrder({ productCode: "p", domain: "example.com" })).orderNo).toBe("CERT202611220930001234");
    scripted.server.answer(apiError(500, "x"), ok(wire.userData));
    await c.getUserData();
    expect(scripted.server.requests).toHaveLength(3);
  });

  it("CreateOrder against a refused connection is retried (provably never sent) and says so", async () => {
    const error = await failure(client({ baseUrl: await refusedUrl() }).createOrder({ productCode: "p", domain: "example.com" }));
    expect(error).toMatchObject({ kind: "network", mayHaveReachedServer: false, attempts: 4 });
  });
});
