// The last gate before the money: a context whose call was cancelled refuses
// CreateOrder at the moment it would be sent, before a byte leaves, exactly
// as after stopPurchases; every other operation still runs, so an order
// bought before the cancellation is still submitted.
import { describe, expect, it, vi } from "vitest";
import { isPartnerApiError } from "../../src/client/errors.js";
import type { PartnerApi } from "../../src/client/types.js";
import { createContext, runForCall } from "../../src/provider/context.js";

function fakeApi() {
  const api = {
    createOrder: vi.fn(async () => ({ orderNo: "CERT1" })),
    applySign: vi.fn(async () => ({ requestId: "r1" })),
    getUserData: vi.fn(async () => ({ apiKey: { appId: "ak_1" } })),
  };
  return { api, partnerApi: api as unknown as PartnerApi };
}

const settings = { apiKey: "ak_1:secret", baseUrl: "http://127.0.0.1:1", journalDir: "/nonexistent" };

describe("a cancelled call's context", () => {
  it("refuses CreateOrder before sending once its signal is aborted; other calls still go", async () => {
    const { api, partnerApi } = fakeApi();
    const cancellation = new AbortController();
    const ctx = runForCall(cancellation.signal, () => createContext({ type: "Order", settings, api: partnerApi }));
    expect(ctx.signal).toBe(cancellation.signal);

    await runForCall(cancellation.signal, async () => {
      // The client is taken before the cancellation (as create takes it first), the purchase made after.
      const client = ctx.api();
      await expect(client.createOrder({} as never)).resolves.toEqual({ orderNo: "CERT1" });
      cancellation.abort(new Error("the engine cancelled this call"));
      const refused = await client.createOrder({} as never).catch((error: unknown) => error);
      expect(isPartnerApiError(refused, "invalid_argument")).toBe(true);
      expect(refused).toMatchObject({ operation: "CreateOrder", mayHaveReachedServer: false });
      expect((refused as Error).message).toBe("CreateOrder: refused before sending: the engine cancelled this call");
      expect(api.createOrder).toHaveBeenCalledTimes(1);

      await expect(client.applySign({ orderNo: "CERT1" } as never)).resolves.toEqual({ requestId: "r1" });
      await expect(ctx.api().getUserData()).resolves.toMatchObject({ apiKey: { appId: "ak_1" } });
    });
  });

  it("is only that call's: another call, and code outside any call, still buy on the same client", async () => {
    const { api, partnerApi } = fakeApi();
    const cancelled = new AbortController();
    cancelled.abort("gone");
    const client = createContext({ type: "Order", settings, api: partnerApi }).api();
    await expect(runForCall(cancelled.signal, () => client.createOrder({} as never))).rejects.toThrow("CreateOrder: refused before sending: gone");
    await expect(runForCall(new AbortController().signal, () => client.createOrder({} as never))).resolves.toEqual({ orderNo: "CERT1" });
    await expect(client.createOrder({} as never)).resolves.toEqual({ orderNo: "CERT1" });
    expect(api.createOrder).toHaveBeenCalledTimes(2);
  });

  it("holds through the waits before the purchase (a held read), and keeps one client wrapper per process (the caches are keyed by it)", async () => {
    const { api, partnerApi } = fakeApi();
    const cancellation = new AbortController();
    const outside = createContext({ type: "Order", settings, api: partnerApi });
    const { ctx, pending } = runForCall(cancellation.signal, () => {
      const ctx = createContext({ type: "Order", settings, api: partnerApi });
      const pending = new Promise((resolve) => setTimeout(resolve, 10)).then(() => ctx.api().createOrder({} as never));
      return { ctx, pending };
    });
    expect(ctx.api()).toBe(outside.api());
    cancellation.abort(new Error("cancelled"));
    await expect(pending).rejects.toThrow("refused before sending: cancelled");
    expect(api.createOrder).not.toHaveBeenCalled();
    await expect(outside.api().createOrder({} as never)).resolves.toEqual({ orderNo: "CERT1" });
  });
});
