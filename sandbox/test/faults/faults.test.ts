import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/index.js";
import { DV_MULTI, mgmt, ok, rawCall, withSandbox } from "../support/sandbox.js";

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await withSandbox({ faults: { GetRecord: { latencyMs: 1 } } });
});
afterAll(() => sb.stop());
afterEach(async () => {
  await mgmt(sb, "DELETE", "/faults");
});

const ordersAndBalance = async (): Promise<{ orders: number; balance: string }> => ({
  orders: (await mgmt(sb, "GET", "/orders")).body.length,
  balance: (await ok(sb, "GetUserData")).account.balance,
});

describe("fault knobs", () => {
  it("start-up faults are visible and replaceable at run time", async () => {
    expect((await mgmt(sb, "GET", "/faults")).body).toEqual({ GetRecord: { latencyMs: 1 } });
    const bad = await mgmt(sb, "PUT", "/faults", { CreateOrder: { errorRate: 2 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/errorRate/);
    expect((await mgmt(sb, "PUT", "/faults", { NoSuchOp: {} })).status).toBe(400);
    expect((await mgmt(sb, "PUT", "/faults", { CreateOrder: { explode: true } })).status).toBe(400);
  });

  it("errorRate/errorCode answers the code without performing the operation", async () => {
    await mgmt(sb, "PUT", "/faults", { CreateOrder: { errorRate: 1, errorCode: 503 } });
    const before = await ordersAndBalance();
    const res = await rawCall(sb, "CreateOrder", DV_MULTI);
    expect(res.status).toBe(503);
    expect((await res.json()).code).toBe(503);
    expect(await ordersAndBalance()).toEqual(before);
    await mgmt(sb, "PUT", "/faults", { GetRecord: { errorRate: 1, errorCode: 429 } });
    const limited = await (await rawCall(sb, "GetRecord", { order_no: "x" })).json();
    expect(limited).toMatchObject({ code: 429, data: { retry_after: 1 } });
  });

  it("latencyMs delays the answer", async () => {
    await mgmt(sb, "PUT", "/faults", { GetUserData: { latencyMs: 300 } });
    const t0 = performance.now();
    await ok(sb, "GetUserData");
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
  });

  it("reset drops the connection without performing the operation", async () => {
    await mgmt(sb, "PUT", "/faults", { CreateOrder: { reset: true } });
    const before = await ordersAndBalance();
    await expect(rawCall(sb, "CreateOrder", DV_MULTI)).rejects.toThrow();
    expect(await ordersAndBalance()).toEqual(before);
  });

  it("malformed answers a body that is not JSON, without performing the operation", async () => {
    await mgmt(sb, "PUT", "/faults", { CreateOrder: { malformed: 1 } });
    const before = await ordersAndBalance();
    const res = await rawCall(sb, "CreateOrder", DV_MULTI);
    expect(res.status).toBe(200);
    await expect(res.json()).rejects.toThrow();
    expect(await ordersAndBalance()).toEqual(before);
  });

  it("commitThenFail 500: the order exists and the money moved although the answer was a 500", async () => {
    await mgmt(sb, "PUT", "/faults", { CreateOrder: { commitThenFail: "500" } });
    const before = await ordersAndBalance();
    const res = await rawCall(sb, "CreateOrder", DV_MULTI);
    expect(res.status).toBe(500);
    expect((await res.json()).code).toBe(500);
    const after = await ordersAndBalance();
    expect(after.orders).toBe(before.orders + 1);
    expect(Number(after.balance)).toBe(Number(before.balance) - 120);
  });

  it("commitThenFail drop: the order exists and the money moved although the connection dropped", async () => {
    await mgmt(sb, "PUT", "/faults", { CreateOrder: { commitThenFail: "drop" } });
    const before = await ordersAndBalance();
    await expect(rawCall(sb, "CreateOrder", DV_MULTI)).rejects.toThrow();
    const after = await ordersAndBalance();
    expect(after.orders).toBe(before.orders + 1);
    expect(Number(after.balance)).toBe(Number(before.balance) - 120);
    const log = (await mgmt(sb, "GET", "/requests")).body as any[];
    expect(log.filter((e) => e.fault === "commit-then-drop")).toMatchObject([{ operation: "CreateOrder", code: 0, httpStatus: 0 }]);
  });

  it("commitThenFail on CancelOrder refunds although the answer failed", async () => {
    const { order_no } = await ok(sb, "CreateOrder", DV_MULTI);
    const before = (await ok(sb, "GetUserData")).account.balance;
    await mgmt(sb, "PUT", "/faults", { CancelOrder: { commitThenFail: "500" } });
    expect((await rawCall(sb, "CancelOrder", { order_no })).status).toBe(500);
    expect(Number((await ok(sb, "GetUserData")).account.balance)).toBe(Number(before) + 120);
    expect((await mgmt(sb, "GET", `/orders/${order_no}`)).body.orderStatus).toBe(4);
  });

  it("times limits how often a fault fires, then it clears itself", async () => {
    await mgmt(sb, "PUT", "/faults", { GetUserData: { errorRate: 1, errorCode: 500, times: 2 } });
    expect((await rawCall(sb, "GetUserData")).status).toBe(500);
    expect((await rawCall(sb, "GetUserData")).status).toBe(500);
    expect((await rawCall(sb, "GetUserData")).status).toBe(200);
    expect((await mgmt(sb, "GET", "/faults")).body).toEqual({});
  });

  it("an error rate between 0 and 1 fails about that share of calls", async () => {
    await mgmt(sb, "PUT", "/faults", { GetUserData: { errorRate: 0.5 } });
    let failed = 0;
    for (let i = 0; i < 80; i++) if ((await rawCall(sb, "GetUserData")).status === 500) failed++;
    expect(failed).toBeGreaterThan(15);
    expect(failed).toBeLessThan(65);
  });
});
