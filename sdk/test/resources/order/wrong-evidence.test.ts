// Never drop, release or re-buy a paid order on ambiguous evidence: the
// service's 404 also means "another account's order", an error page proves
// nothing, CancelOrder's 400 also means "bad parameters", and an answer that
// names an order number means the order exists.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPartnerApiError } from "../../../src/client/errors.js";
import { PartnerClient } from "../../../src/client/index.js";
import { PurchaseJournal } from "../../../src/journal/index.js";
import { createContext, PartialFailureError, type ProviderContext } from "../../../src/provider/index.js";
import { serviceEndpoint } from "../../../src/resources/order/account.js";
import { handlers } from "../../../src/resources/order/handlers.js";
import type { OrderInputs } from "../../../src/resources/order/inputs.js";
import type { OrderState } from "../../../src/resources/order/state.js";
import { count, failureOf, PROVIDER_TEXT, useHarness } from "./harness.js";
import { apiError, byOperation, htmlPage, ok, recordOf, ScriptedServer, userData, type Script, type ScriptedAnswer } from "../../support/partner-api/index.js";

const h = useHarness({}, { faults: true, requests: true });


/** A context on the sandbox with another key (another account), logging into `lines`. */
function contextFor(apiKey: string, lines: string[] = [], extra: { now?: string; baseUrl?: string; api?: PartnerClient } = {}): ProviderContext {
  return createContext({
    type: "Order",
    settings: { apiKey, baseUrl: extra.baseUrl ?? h.sandbox.url, journalDir: h.journalDir, ...(extra.now ? { now: extra.now } : {}) },
    sink: (level, line) => lines.push(`${level}: ${line}`),
    ...(extra.api ? { api: extra.api } : {}),
  });
}

async function appIdOf(ctx: ProviderContext): Promise<string> {
  return (await ctx.api().getUserData()).apiKey.appId!;
}

describe("the Order records the account that bought it", () => {
  it("create records the key's app id (public), never the secret", async () => {
    const { outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "whose.example.com" });
    const appId = await appIdOf(h.ctx);
    expect(outs.accountId).toBe(appId);
    const secret = h.sandbox.accounts[0]!.apiKey.split(":")[1]!;
    expect(JSON.stringify(outs)).not.toContain(secret);
    expect(appId).not.toContain(secret);
  });

  it("adoption records the adopting account", async () => {
    const { id } = await h.buy({ productCode: "sandbox-dv-single", domain: "adopt-whose.example.com" });
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "adopt-whose.example.com", adoptOrderNo: id });
    const { outs } = await handlers.create(h.ctx, inputs);
    expect(outs!.accountId).toBe(await appIdOf(h.ctx));
  });
});

describe("another account's key never drops, releases or re-buys", () => {
  let other: ProviderContext;
  const otherLines: string[] = [];
  beforeAll(() => {
    other = contextFor(h.sandbox.accounts[1]!.apiKey, otherLines);
  });

  it("read fails naming both app ids and what to do; the order stays", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "other-read.example.com" });
    const mine = await appIdOf(h.ctx);
    const theirs = await appIdOf(other);
    expect(theirs).not.toBe(mine);
    const error = await failureOf(handlers.read!(other, id, { ...outs, __provider: PROVIDER_TEXT } as unknown as OrderState));
    expect(error.message).toContain(mine);
    expect(error.message).toContain(theirs);
    expect(error.message).toMatch(/pulumi config set --secret certreseller:apiKey/);
    expect(error.message).toMatch(/run `pulumi up` so the engine records that key/);
    expect(error.message).toMatch(/pulumi state delete/);
    expect(error.message).not.toContain(h.sandbox.accounts[1]!.apiKey.split(":")[1]!);
    // The same state under the right key still reads.
    expect((await handlers.read!(h.ctx, id, outs)).id).toBe(id);
  });

  it("delete fails without CancelOrder; the order is neither refunded nor released", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "other-delete.example.com" });
    await h.mgmt("DELETE", "/requests");
    const error = await failureOf(handlers.delete!(other, id, outs));
    expect(error.message).toMatch(/Nothing was cancelled or released/);
    expect(await h.operations()).not.toContain("CancelOrder");
    expect((await h.mgmt("GET", `/orders/${id}`)).refund).toBeNull();
  });

  it("update fails naming both app ids", async () => {
    const { id, outs, inputs } = await h.buy({ productCode: "sandbox-dv-single", domain: "other-update.example.com" });
    const error = await failureOf(handlers.update!(other, id, outs, { ...inputs, verificationMethod: "cname" }));
    expect(error.message).toContain(outs.accountId!);
    expect(error.message).toContain(await appIdOf(other));
    expect((await h.mgmt("GET", `/orders/${id}`)).certificates[0].method).toBe("dns");
  });

  it("create does not take the journal's order for gone (another account's 404) and does not buy", async () => {
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "other-journal.example.com" });
    const journal = new PurchaseJournal(h.journalDir);
    await journal.recordIntent({ key: inputs.journalKey, domain: inputs.domain, productCode: inputs.productCode, names: [inputs.domain] });
    const bought = await h.ctx.api().createOrder({ productCode: inputs.productCode, domain: inputs.domain });
    await journal.recordOrder(inputs.journalKey, bought.orderNo, { orderNo: bought.orderNo, accountId: await appIdOf(h.ctx) });
    await h.mgmt("DELETE", "/requests");
    const error = await failureOf(handlers.create(other, inputs));
    expect(error.message).toContain(bought.orderNo);
    expect(error.message).toContain(await appIdOf(other));
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
    expect((await journal.read(inputs.journalKey))?.orderNo).toBe(bought.orderNo);
    // The right key resumes it.
    const { id } = await handlers.create(h.ctx, inputs);
    expect(id).toBe(bought.orderNo);
  });

  it("a journal entry without an account is not taken for gone on a 404 either", async () => {
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "other-journal-old.example.com" });
    const journal = new PurchaseJournal(h.journalDir);
    await journal.recordIntent({ key: inputs.journalKey, domain: inputs.domain, productCode: inputs.productCode, names: [inputs.domain] });
    const bought = await h.ctx.api().createOrder({ productCode: inputs.productCode, domain: inputs.domain });
    await journal.recordOrder(inputs.journalKey, bought.orderNo, { orderNo: bought.orderNo });
    await h.mgmt("DELETE", "/requests");
    const error = await failureOf(handlers.create(other, inputs));
    expect(error.message).toMatch(/written before the account was recorded.*Not buying/s);
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
  });
});

describe("state written before the account was recorded", () => {
  it("read under another key keeps the order on a 404 and says how to confirm", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "old-state.example.com" });
    const { accountId: _dropped, ...older } = outs;
    const lines: string[] = [];
    const other = contextFor(h.sandbox.accounts[1]!.apiKey, lines);
    const kept = await handlers.read!(other, id, older as OrderState);
    expect(kept.id).toBe(id);
    expect(kept.props?.orderNo).toBe(id);
    expect(lines.join("\n")).toMatch(/KEPT in state/);
    // The right key proves the order is its own: the account is recorded from then on.
    const upgraded = await handlers.read!(h.ctx, id, older as OrderState);
    expect(upgraded.props?.accountId).toBe(await appIdOf(h.ctx));
  });

  it("delete under another key neither cancels nor releases", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "old-delete.example.com" });
    const { accountId: _dropped, ...older } = outs;
    await h.mgmt("DELETE", "/requests");
    const error = await failureOf(handlers.delete!(contextFor(h.sandbox.accounts[1]!.apiKey), id, older as OrderState));
    expect(error.message).toMatch(/neither cancelled nor released/);
    expect(await h.operations()).not.toContain("CancelOrder");
  });
});

describe("CancelOrder refused: released only on proof", () => {
  it("a 400 within the refund window, on an order neither refunded nor cancelled, fails destroy with the service's message", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "refused-cancel.example.com" });
    await h.mgmt("PUT", "/faults", { CancelOrder: { errorRate: 1, errorCode: 400 } });
    const error = await failureOf(handlers.delete!(h.ctx, id, outs));
    expect(error.message).toMatch(new RegExp(`the service refused to cancel order ${id} \\(CancelOrder invalid_request 400`));
    expect(error.message).toMatch(/kept in state/);
    expect(h.lines.join("\n")).not.toMatch(/released/);
    // The status read was used (nothing cheaper proved anything).
    expect(await h.operations()).toContain("GetCertificateStatus");
    // Once the service accepts, destroy cancels and refunds.
    await h.mgmt("DELETE", "/faults");
    await handlers.delete!(h.ctx, id, outs);
    expect((await h.mgmt("GET", `/orders/${id}`)).orderStatus).toBe(4);
  });

  it("a 400 while the status read is rate limited (429) is unknown, not proof", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "cooldown-cancel.example.com" });
    await h.ctx.api().getCertificateStatus({ orderNo: id }); // starts the 180 s cooldown
    await h.mgmt("PUT", "/faults", { CancelOrder: { errorRate: 1, errorCode: 400 } });
    const error = await failureOf(handlers.delete!(h.ctx, id, outs));
    expect(error.message).toMatch(/nothing shows that it cannot be cancelled/);
    expect((await h.mgmt("GET", `/orders/${id}`)).refund).toBeNull();
  });

  it("CancelOrder's own 404 for an order GetRecord still shows is not proof", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "cancel-404.example.com" });
    await h.mgmt("PUT", "/faults", { CancelOrder: { errorRate: 1, errorCode: 404 } });
    const error = await failureOf(handlers.delete!(h.ctx, id, outs));
    expect(error.message).toMatch(/CancelOrder not_found 404/);
  });

  describe("scripted answers", () => {
    const appId = "ak_scriptedscriptedscripted";
    const state = (orderNo: string, extra: Partial<OrderState> = {}) =>
      ({ orderNo, journalKey: "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/certreseller:Order::scripted", certStatus: 2, accountId: appId, paidAt: new Date().toISOString(), ...extra }) as OrderState;
    async function deleteWith(script: Record<string, Script>, props: OrderState) {
      const api = await ScriptedServer.start(byOperation({ GetUserData: () => userData(appId), ...script }));
      const lines: string[] = [];
      try {
        const ctx = contextFor("ak_x:secretsecret", lines, { baseUrl: api.url });
        // Bought against this service: the state records its endpoint with the app id.
        const outcome = await handlers.delete!(ctx, props.orderNo, { accountEndpoint: serviceEndpoint(api.url), ...props }).then(
          () => undefined,
          (e: unknown) => e as Error,
        );
        return { outcome, lines: lines.join("\n"), calls: api.operations };
      } finally {
        await api.close();
      }
    }
    /** GetCertificateStatus's data for `orderNo`, with `over` replacing members. */
    const statusOf = (orderNo: string, over: Record<string, unknown>) => ({
      order_no: orderNo, order_status: 2, cert_id: null, cert_status: 2, ca_status: null, ca_status_text: null, all_dcv_verified: false,
      domain_statuses: [], serial_number: null, start_date: null, end_date: null, request_id: null, cert_downloaded: false, source: "local",
      checked_at: "2026-11-22T10:00:00+00:00", cooldown_seconds: 180, ...over,
    });
    /** GetRecord answers `first` before CancelOrder and `then` after. */
    function records(first: ScriptedAnswer, then: ScriptedAnswer) {
      let reads = 0;
      return () => (reads++ === 0 ? first : then);
    }

    it("400, then GetRecord shows cert status 5 ('revoked/refunded') and the order status no refund: kept, not released", async () => {
      const { outcome, lines } = await deleteWith(
        {
          GetRecord: records(recordOf("CERT5", 2), recordOf("CERT5", 5)),
          CancelOrder: () => apiError(400, "already refunded", {}),
          GetCertificateStatus: () => ok(statusOf("CERT5", { order_status: 2, cert_status: 5 })),
        },
        state("CERT5"),
      );
      expect(outcome?.message).toMatch(/refused to cancel order CERT5 .*kept in state/);
      expect(lines).not.toMatch(/released from Pulumi/);
    });

    it("400, then GetRecord shows a refund in progress (cert status 6): released", async () => {
      const { outcome, lines } = await deleteWith(
        { GetRecord: records(recordOf("CERT5B", 2), recordOf("CERT5B", 6)), CancelOrder: () => apiError(400, "refund pending", {}) },
        state("CERT5B"),
      );
      expect(outcome).toBeUndefined();
      expect(lines).toMatch(/CERT5B was NOT cancelled and is released from Pulumi.*a refund is already in progress \(cert status 6\)/);
    });

    it("400, then GetRecord answers the API's 404 under the recorded account: released", async () => {
      const { outcome, lines } = await deleteWith(
        { GetRecord: records(recordOf("CERT6", 2), apiError(404, "order does not exist", {})), CancelOrder: () => apiError(400, "no", {}) },
        state("CERT6"),
      );
      expect(outcome).toBeUndefined();
      expect(lines).toMatch(/does not exist for the account that holds it/);
    });

    it("400 past the 7-day window by the service's clock: released without the status read", async () => {
      const paidAt = new Date(Date.now() - 9 * 86_400_000).toISOString();
      const { outcome, lines, calls } = await deleteWith(
        { GetRecord: () => recordOf("CERT7", 2), CancelOrder: () => apiError(400, "refund window passed", {}) },
        state("CERT7", { paidAt }),
      );
      expect(outcome).toBeUndefined();
      expect(lines).toMatch(/past the refund window/);
      expect(calls).not.toContain("GetCertificateStatus");
    });

    it("400 and the status read says order status 4 (refunded): released", async () => {
      const { outcome, lines } = await deleteWith(
        {
          GetRecord: () => recordOf("CERT8", 2),
          CancelOrder: () => apiError(400, "refund pending", {}),
          GetCertificateStatus: () =>
            ok({
              order_no: "CERT8", order_status: 4, cert_id: null, cert_status: 2, ca_status: null, ca_status_text: null, all_dcv_verified: false,
              domain_statuses: [], serial_number: null, start_date: null, end_date: null, request_id: null, cert_downloaded: false, source: "local",
              checked_at: "2026-11-22T10:00:00+00:00", cooldown_seconds: 180,
            }),
        },
        state("CERT8"),
      );
      expect(outcome).toBeUndefined();
      expect(lines).toMatch(/order status is 4 \(refunded\)/);
    });

    it("400 and the status read rate limited: destroy fails with the service's message", async () => {
      const { outcome, calls } = await deleteWith(
        {
          GetRecord: () => recordOf("CERT9", 2),
          CancelOrder: () => apiError(400, "bad parameter: reason", {}),
          GetCertificateStatus: () => apiError(429, "too often", { retry_after: 120, cooldown_seconds: 180 }),
        },
        state("CERT9"),
      );
      expect(outcome?.message).toMatch(/refused to cancel order CERT9 .*bad parameter: reason.*kept in state/);
      expect(calls.filter((c) => c === "CancelOrder")).toHaveLength(1);
    });

    it("a gateway's HTML 400 to CancelOrder is not a refusal at all", async () => {
      const { outcome, calls } = await deleteWith({ GetRecord: () => recordOf("CERT10", 2), CancelOrder: () => htmlPage(400, "Bad Request") }, state("CERT10"));
      expect(outcome?.message).toMatch(/cancelling order CERT10 failed .*http_error/);
      expect(calls).not.toContain("GetCertificateStatus");
    });

    it("400 inside the window when the service's clock reads UTC+8: kept (the window's margin covers any zone), not released", async () => {
      // Paid 30 minutes short of 7 days ago; the service reports its local time, 8 hours ahead of UTC, with no zone.
      const paidAt = new Date(Date.now() - 7 * 86_400_000 + 30 * 60_000).toISOString();
      const serverTime = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 19).replace("T", " ");
      const api = await ScriptedServer.start(byOperation({
        GetUserData: () => userData(appId, serverTime),
        GetRecord: () => recordOf("CERT12", 2),
        CancelOrder: () => apiError(400, "upstream busy, try again", {}),
      }));
      try {
        const outcome = await failureOf(handlers.delete!(contextFor("ak_x:secretsecret", [], { baseUrl: api.url }), "CERT12", state("CERT12", { paidAt })));
        expect(outcome.message).toMatch(/refused to cancel order CERT12 .*not provably past the 7-day refund window.*kept in state/);
      } finally {
        await api.close();
      }
    });

    it("400 past the window AND the 15-hour margin by the service's clock: released", async () => {
      const paidAt = new Date(Date.now() - 7 * 86_400_000 - 16 * 3_600_000).toISOString();
      const { outcome, lines } = await deleteWith(
        { GetRecord: () => recordOf("CERT13", 2), CancelOrder: () => apiError(400, "refund window passed", {}) },
        state("CERT13", { paidAt }),
      );
      expect(outcome).toBeUndefined();
      expect(lines).toMatch(/more than 7 days and 15 hours before the service's clock .*past the refund window/);
    });

    // A gateway's JSON in the envelope's very shape, under an HTTP 404. (Without `data` it is not the envelope at all: next test.)
    const gateway404: ScriptedAnswer = { status: 404, headers: { "content-type": "application/json" }, body: JSON.stringify({ code: 404, message: "Not Found", data: null }) };

    it("read: the JSON {code, message} with no data member is not the API's envelope: never 'gone', no second read needed", async () => {
      const api = await ScriptedServer.start(byOperation({
        GetUserData: () => userData(appId),
        GetRecord: () => ({ status: 404, headers: { "content-type": "application/json" }, body: JSON.stringify({ code: 404, message: "Not Found" }) }),
      }));
      try {
        const ctx = contextFor("ak_x:secretsecret", [], { baseUrl: api.url });
        await expect(handlers.read!(ctx, "CERT16", state("CERT16"))).rejects.toThrow(/not the API envelope.*kept in state/);
      } finally {
        await api.close();
      }
    });

    it("read: a gateway's JSON 404 under HTTP 404 is not 'gone' unless a second operation agrees", async () => {
      const api = await ScriptedServer.start(byOperation({ GetUserData: () => userData(appId), GetRecord: () => gateway404 }));
      try {
        const ctx = contextFor("ak_x:secretsecret", [], { baseUrl: api.url });
        await expect(handlers.read!(ctx, "CERT14", state("CERT14"))).rejects.toThrow(/a 404 under an HTTP 404 that a second operation did not confirm .*kept in state/);
        expect(api.operations).toContain("GetCertificateStatus");
      } finally {
        await api.close();
      }
      const agreeing = await ScriptedServer.start(byOperation({ GetUserData: () => userData(appId), GetRecord: () => gateway404, GetCertificateStatus: () => apiError(404, "no such order", {}) }));
      try {
        const ctx = contextFor("ak_x:secretsecret", [], { baseUrl: agreeing.url });
        expect((await handlers.read!(ctx, "CERT14", state("CERT14", { accountEndpoint: serviceEndpoint(agreeing.url) }))).id).toBeUndefined();
      } finally {
        await agreeing.close();
      }
    });

    it("delete: a gateway's JSON 404 before CancelOrder neither releases nor cancels", async () => {
      const { outcome, calls } = await deleteWith({ GetRecord: () => gateway404 }, state("CERT15"));
      expect(outcome?.message).toMatch(/reading order CERT15 before cancelling it failed .*did not confirm.*nothing was cancelled/);
      expect(calls).not.toContain("CancelOrder");
    });

    it("read: an HTML 404 page is never 'gone'; the API's 404 under the recorded account is", async () => {
      const api = await ScriptedServer.start(byOperation({ GetUserData: () => userData(appId) }));
      try {
        const ctx = contextFor("ak_x:secretsecret", [], { baseUrl: api.url });
        await expect(handlers.read!(ctx, "CERT11", state("CERT11"))).rejects.toThrow(/http_error/);
      } finally {
        await api.close();
      }
      const api404 = await ScriptedServer.start(byOperation({ GetUserData: () => userData(appId), GetRecord: () => apiError(404, "no such order", {}) }));
      try {
        const ctx = contextFor("ak_x:secretsecret", [], { baseUrl: api404.url });
        expect((await handlers.read!(ctx, "CERT11", state("CERT11", { accountEndpoint: serviceEndpoint(api404.url) }))).id).toBeUndefined();
      } finally {
        await api404.close();
      }
    });
  });
});

describe("CreateOrder answers that name an order", () => {
  const appId = "ak_buyerbuyerbuyerbuyerbuy";
  const NAMED = "CERT20991231000000000001";
  async function createWith(createAnswer: ScriptedAnswer, domain: string, getRecord?: () => ScriptedAnswer) {
    const api = await ScriptedServer.start(byOperation({ GetUserData: () => userData(appId), CreateOrder: () => createAnswer, ...(getRecord ? { GetRecord: getRecord } : {}) }));
    try {
      const ctx = contextFor("ak_x:secretsecret", [], { baseUrl: api.url });
      const inputs = await h.plan({ productCode: "sandbox-dv-single", domain });
      const error = await failureOf(handlers.create(ctx, inputs));
      return { error, inputs, calls: api.operations };
    } finally {
      await api.close();
    }
  }
  const expectKept = async (error: Error, inputs: OrderInputs, calls: string[]) => {
    expect(error).toBeInstanceOf(PartialFailureError);
    const partial = error as PartialFailureError;
    expect(partial.id).toBe(NAMED);
    expect(partial.properties.orderNo).toBe(NAMED);
    expect(partial.properties.accountId).toBe(appId);
    expect(partial.properties.__provider).toBe(PROVIDER_TEXT);
    expect(partial.message).toMatch(/the order exists.*next `pulumi up` resumes it/);
    expect(partial.message).not.toMatch(/MAY have been charged|may have been charged/i);
    expect((await new PurchaseJournal(h.journalDir).read(inputs.journalKey))?.orderNo).toBe(NAMED);
    expect(calls.filter((c) => c === "CreateOrder")).toHaveLength(1);
    expect(calls).not.toContain("ApplySign");
  };

  it("a success envelope under HTTP 502: the order exists, kept as a partial failure without a read", async () => {
    const answer: ScriptedAnswer = { status: 502, headers: { "content-type": "application/json" }, body: JSON.stringify({ code: 200, message: "ok", data: { order_no: NAMED } }) };
    const { error, inputs, calls } = await createWith(answer, "named-502.example.com");
    await expectKept(error, inputs, calls);
    expect(calls).not.toContain("GetRecord");
  });

  it("a failure that is not a refusal (500) naming an order that GetRecord shows with this Order's names: that is the purchase, kept", async () => {
    const domain = "named-500.example.com";
    const { error, inputs, calls } = await createWith(apiError(500, "upstream CA failed", { order_no: NAMED }), domain, () => recordOf(NAMED, 0, domain));
    await expectKept(error, inputs, calls);
    expect(calls).toContain("GetRecord");
  });

  // By the API's own refusal nothing was bought, so the order it names is another purchase (a replaced or renamed
  // resource's, another stack's): taking it would let two resources hold one order. Even one with these very names.
  it.each([
    ["has this Order's names (another resource's order for the same domain)", "named-same-names.example.com", (d: string) => recordOf(NAMED, 2, d)],
    ["covers other names", "named-other-names.example.com", () => recordOf(NAMED, 2, "someone-else.example.com")],
    ["is not this account's (the API's 404)", "named-other-account.example.com", () => apiError(404, "no such order", {})],
  ] as const)("a refusal (400 'already ordered') naming an order that %s: refused, nothing bought, the order NOT taken, adoption named", async (_title, domain, getRecord) => {
    const { error, inputs, calls } = await createWith(apiError(400, `already ordered: ${NAMED}`, { order_no: NAMED }), domain, () => getRecord(domain));
    expect(error).not.toBeInstanceOf(PartialFailureError);
    expect(error.message).toMatch(new RegExp(`CreateOrder was refused, nothing was bought: .*The refusal names order ${NAMED}, which is NOT taken into state`));
    expect(error.message).toContain(`set \`adoptOrderNo: "${NAMED}"\``);
    expect(error.message).not.toMatch(/MAY have been charged/);
    expect(await new PurchaseJournal(h.journalDir).read(inputs.journalKey)).toBeUndefined();
    expect(calls.filter((c) => c === "CreateOrder")).toHaveLength(1);
    expect(calls).not.toContain("ApplySign");
    expect(calls).not.toContain("CancelOrder");
  });

  it("a refusal naming an order that could be this very request, replayed (these names, never submitted): not taken, and the intent kept: MAY have been charged", async () => {
    const domain = "named-replayed.example.com";
    const { error, inputs, calls } = await createWith(apiError(400, `already ordered: ${NAMED}`, { order_no: NAMED }), domain, () => recordOf(NAMED, 0, domain));
    expect(error).not.toBeInstanceOf(PartialFailureError);
    expect(error.message).toMatch(/MAY have been charged/);
    expect(error.message).toContain(`order ${NAMED} named in that refusal covers these names and was never submitted`);
    const entry = await new PurchaseJournal(h.journalDir).read(inputs.journalKey);
    expect([entry?.intentAt !== undefined, entry?.orderNo]).toEqual([true, undefined]);
    expect(calls).not.toContain("ApplySign");
  });

  it("a failure that is not a refusal naming an order that cannot be read (an HTML page): MAY have been charged, the intent kept, nothing taken", async () => {
    const { error, inputs } = await createWith(apiError(500, "server error", { order_no: NAMED }), "named-unread.example.com", () => htmlPage(502, "Bad Gateway"));
    expect(error).not.toBeInstanceOf(PartialFailureError);
    expect(error.message).toMatch(/MAY have been charged/);
    expect(error.message).toContain(`order ${NAMED} named in that answer is not taken`);
    const entry = await new PurchaseJournal(h.journalDir).read(inputs.journalKey);
    expect(entry?.intentAt).toBeTruthy();
    expect(entry?.orderNo).toBeUndefined();
  });
});

describe("up never buys without a price from the catalogue", () => {
  it("no quoted price: create reads the catalogue, prices the order, then buys", async () => {
    const inputs = await h.plan({ productCode: "sandbox-dv-multi", domain: "unquoted.example.com", sanDomains: ["www.unquoted.example.com"] });
    const { quotedPrice: _none, ...unquoted } = inputs;
    const { outs } = await handlers.create(h.ctx, unquoted as OrderInputs);
    expect(outs!.quotedPrice).toBe("120.00");
    expect(h.lines.join("\n")).toMatch(/quoted 120.00 from the product list before buying/);
  });

  it("no quoted price and no readable catalogue: nothing is bought, and the message says why", async () => {
    const api = await ScriptedServer.start(byOperation({ GetUserData: () => userData("ak_nocatalogue") }));
    try {
      const ctx = contextFor("ak_x:secretsecret", [], { baseUrl: api.url });
      const { quotedPrice: _none, ...unquoted } = await h.plan({ productCode: "sandbox-dv-single", domain: "blind.example.com" });
      const error = await failureOf(handlers.create(ctx, unquoted as OrderInputs));
      expect(error.message).toMatch(/nothing was bought: no price was quoted at preview and the product list could not be read now either \(GetUserProduct http_error/);
      expect(api.operations).not.toContain("CreateOrder");
      expect(await new PurchaseJournal(h.journalDir).read(unquoted.journalKey)).toBeUndefined();
    } finally {
      await api.close();
    }
  });

  it("no quoted price and a product the catalogue lacks: nothing is bought", async () => {
    const { quotedPrice: _none, ...unquoted } = await h.plan({ productCode: "sandbox-dv-single", domain: "missing.example.com" });
    await h.mgmt("DELETE", "/requests");
    const error = await failureOf(handlers.create(h.ctx, { ...unquoted, productCode: "no-such-product" } as OrderInputs));
    expect(error.message).toMatch(/nothing was bought: "no-such-product" is not in this account's product list/);
    expect(await h.operations()).not.toContain("CreateOrder");
  });
});

describe("CERTRESELLER_NOW refuses money-moving calls off loopback", () => {
  let sandboxClient: PartnerClient;
  beforeAll(() => {
    sandboxClient = new PartnerClient({ baseUrl: h.sandbox.url, apiKey: h.sandbox.accounts[0]!.apiKey });
  });
  afterAll(async () => sandboxClient?.close());

  it("each of CreateOrder, CancelOrder, ApplySign, ChangeVertificationMethod is refused before sending, naming the variable", async () => {
    // Reads go to the sandbox; the settings say the base URL is a remote host.
    const ctx = contextFor(h.sandbox.accounts[0]!.apiKey, [], { now: "2027-11-01T00:00:00Z", baseUrl: "https://partner.example.com", api: sandboxClient });
    const api = ctx.api();
    const calls = [
      () => api.createOrder({ productCode: "sandbox-dv-single", domain: "clock.example.com" }),
      () => api.cancelOrder({ orderNo: "CERT1" }),
      () => api.applySign({ orderNo: "CERT1" }),
      () => api.changeVerificationMethod({ orderNo: "CERT1", method: "dns" }),
    ];
    await h.mgmt("DELETE", "/requests");
    for (const call of calls) {
      const error = await failureOf(call());
      expect(isPartnerApiError(error, "invalid_argument")).toBe(true);
      expect(error.message).toMatch(/CERTRESELLER_NOW is set .* partner\.example\.com is not loopback/);
    }
    expect(await h.operations()).toEqual([]);
    // Reads still work (a preview on a pretend date).
    expect((await api.getUserData()).apiKey.appId).toBeTruthy();
  });

  it("create says nothing was bought; the same override on a loopback sandbox buys", async () => {
    const remote = contextFor(h.sandbox.accounts[0]!.apiKey, [], { now: "2027-11-01T00:00:00Z", baseUrl: "https://partner.example.com", api: sandboxClient });
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "clock-buy.example.com" });
    await h.mgmt("DELETE", "/requests");
    const error = await failureOf(handlers.create(remote, inputs));
    expect(error.message).toMatch(/CreateOrder was refused, nothing was bought: .*CERTRESELLER_NOW/);
    expect(await h.operations()).not.toContain("CreateOrder");
    const local = contextFor(h.sandbox.accounts[0]!.apiKey, [], { now: "2027-11-01T00:00:00Z" });
    const { id } = await handlers.create(local, inputs);
    expect(id).toMatch(/^CERT/);
  });
});
