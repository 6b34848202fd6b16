import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/index.js";
import { call, mgmt } from "../support/sandbox.js";

/**
 * Random interleavings of purchases, submissions, cancellations, status reads,
 * forced failures and clock jumps across two accounts — several requests in
 * flight at once — must keep money conserved and states legal, and a restart
 * on the same data dir must bring back exactly the same books.
 */
const SEEDS = [
  { username: "alpha", balance: "2000.00", creditLine: "500.00" },
  { username: "beta", balance: "800.00", creditLine: "300.00" },
];
const cents = (s: string): number => Math.round(Number(s) * 100);

type Cmd =
  | { kind: "create"; who: number; product: number; credit: boolean; sans: number }
  | { kind: "apply" | "cancel" | "status" | "download" | "fail" | "method" | "record"; who: number; pick: number }
  | { kind: "advance"; seconds: number };

const PRODUCTS = [
  { product_code: "sandbox-dv-multi", domain: "example.com", signature_algorithm: "ecc" },
  { product_code: "sandbox-dv-flex", domain: "*.example.org", signature_algorithm: "ecc" },
  { product_code: "sandbox-dv-single", domain: "example.net", signature_algorithm: "ecc", months: 24 },
];

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("create" as const), who: fc.integer({ min: 0, max: 1 }), product: fc.integer({ min: 0, max: 2 }), credit: fc.boolean(), sans: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constantFrom("apply" as const, "cancel" as const, "status" as const, "download" as const, "fail" as const, "method" as const, "record" as const), who: fc.integer({ min: 0, max: 1 }), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("advance" as const), seconds: fc.constantFrom(60, 400, 3 * 86_400, 8 * 86_400) }) },
);

describe("money and states under random concurrent operations", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "sandbox-prop-"));
  let sb: RunningSandbox | undefined;
  afterAll(async () => {
    await sb?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("conserves money, keeps states legal, and survives a restart", async () => {
    sb = await startSandbox({ dataDir, accounts: SEEDS, statusCooldownSeconds: 0, methodCooldownSeconds: 300 });
    const s = sb;
    const keys = s.accounts.map((a) => a.apiKey);
    const ordersOf: string[][] = [[], []];
    const refundedSeen = new Set<string>();
    let created = 0;

    const run = async (c: Cmd): Promise<void> => {
      if (c.kind === "advance") {
        await mgmt(s, "POST", "/clock/advance", { seconds: c.seconds });
        return;
      }
      const key = keys[c.who]!;
      if (c.kind === "create") {
        const base = PRODUCTS[c.product]!;
        const body: Record<string, unknown> = { ...base, payment_method: c.credit ? "credit" : "balance" };
        if (c.product === 0) body.san_domains = Array.from({ length: c.sans }, (_, i) => `s${i}.example.com`);
        if (c.product === 1) body.san_domains = Array.from({ length: c.sans }, (_, i) => `h${i}.example.org`);
        const env = await call(s, "CreateOrder", body, { key });
        if (env.code === 200) {
          ordersOf[c.who]!.push(env.data.order_no);
          created++;
        } else {
          expect(env.code).toBe(400);
          expect(env.data.field).toBe("payment_method");
        }
        return;
      }
      const mine = ordersOf[c.who]!;
      // Sometimes aim at the other account's order: must be a 404, never an effect.
      const theirs = ordersOf[1 - c.who]!;
      const useOther = c.pick % 7 === 0 && theirs.length > 0;
      const pool = useOther ? theirs : mine;
      if (pool.length === 0) return;
      const order_no = pool[c.pick % pool.length]!;
      if (c.kind === "fail") {
        await mgmt(s, "POST", `/orders/${order_no}/fail`);
        return;
      }
      const op = { apply: "ApplySign", cancel: "CancelOrder", status: "GetCertificateStatus", download: "DownloadCertificate", method: "ChangeVertificationMethod", record: "GetRecord" }[c.kind];
      const env = await call(s, op, { order_no, ...(c.kind === "method" ? { method: "email" } : {}) }, { key });
      if (useOther) {
        expect(env.code).toBe(404);
        return;
      }
      expect([200, 400, 429]).toContain(env.code);
      if (env.code === 400) expect(typeof env.message).toBe("string");
      if (env.code === 200 && "cert_status" in env.data) expect([0, 1, 2, 3, 4, 5, 6]).toContain(env.data.cert_status);
      if (c.kind === "cancel" && env.code === 200) refundedSeen.add(order_no);
    };

    const checkBooks = async (): Promise<{ accounts: any[]; orders: any[] }> => {
      const accounts = (await mgmt(s, "GET", "/accounts")).body as any[];
      const orders = (await mgmt(s, "GET", "/orders")).body as any[];
      for (const seed of SEEDS) {
        const a = accounts.find((x) => x.username === seed.username)!;
        const mine = orders.filter((o) => o.username === seed.username);
        const kept = (method: string): number =>
          mine.filter((o) => o.paymentMethod === method && o.refund?.status !== 3).reduce((n, o) => n + cents(o.amount), 0);
        // charged = refunded + kept, seen from the account's side.
        expect(cents(a.balance) + kept("balance")).toBe(cents(seed.balance));
        expect(cents(a.creditUsed)).toBe(kept("credit"));
        expect(cents(a.balance)).toBeGreaterThanOrEqual(0);
        expect(cents(a.creditUsed)).toBeLessThanOrEqual(cents(a.creditLine));
      }
      for (const o of orders) {
        expect([1, 2, 4]).toContain(o.orderStatus);
        for (const c of o.certificates) expect([0, 1, 2, 3, 5, 6]).toContain(c.status);
        if (o.certStatus === 1) expect(o.certificates.at(-1).serialNumber).toMatch(/^[0-9A-F]+$/);
        if (o.refund?.status === 3) expect([o.orderStatus, o.certStatus]).toEqual([4, 5]);
        if (o.refund?.mode === "audit") expect(o.refund.status === 0 ? o.certStatus : 5).toBe(o.refund.status === 0 ? 6 : 5);
        if (o.refund === null) expect(o.orderStatus).not.toBe(4);
      }
      expect(orders.length).toBe(created);
      for (const no of refundedSeen) expect(orders.find((o) => o.orderNo === no).refund).not.toBeNull();
      return { accounts, orders };
    };

    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(cmd, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }), fc.boolean(), async (batches, auditMode) => {
        await mgmt(s, "PUT", "/config", { upstreamCancelFails: auditMode });
        for (const batch of batches) await Promise.all(batch.map(run));
        await checkBooks();
      }),
      { numRuns: 25 },
    );

    const before = await checkBooks();
    await s.stop();
    sb = await startSandbox({ dataDir, accounts: [{ username: "never-created" }], statusCooldownSeconds: 0 });
    const again = sb;
    expect(again.accounts.map((a) => a.apiKey)).toEqual(keys);
    const afterAccounts = (await mgmt(again, "GET", "/accounts")).body;
    const afterOrders = (await mgmt(again, "GET", "/orders")).body;
    expect(afterAccounts).toEqual(before.accounts);
    expect(afterOrders).toEqual(before.orders);
    expect((await call(again, "GetUserData", {}, { key: keys[0] })).code).toBe(200);
  });
});
