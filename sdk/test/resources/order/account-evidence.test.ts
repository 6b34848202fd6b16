// What proves an order gone or refunded, beyond the app id (wrong-evidence.test.ts):
// the service endpoint the account answered at, cert status 5 ("revoked/refunded"),
// an adopted order's payment bound, and the Validation and Certificate holding
// the Order's standard under another account.
import { describe, expect, it } from "vitest";
import { createContext, type ProviderContext } from "../../../src/provider/index.js";
import { createCertificateHandlers } from "../../../src/resources/certificate/handlers.js";
import type { CertificateInputs } from "../../../src/resources/certificate/inputs.js";
import type { CertificateState } from "../../../src/resources/certificate/state.js";
import { serviceEndpoint } from "../../../src/resources/order/account.js";
import { handlers } from "../../../src/resources/order/handlers.js";
import type { OrderState } from "../../../src/resources/order/state.js";
import { systemClock } from "../../../src/resources/shared/clock.js";
import { StatusReadGate } from "../../../src/resources/shared/status-gate.js";
import { handlers as validationHandlers } from "../../../src/resources/validation/handlers.js";
import type { ValidationInputs } from "../../../src/resources/validation/inputs.js";
import type { ValidationState } from "../../../src/resources/validation/state.js";
import { apiError, byOperation, ScriptedServer, userData } from "../../support/partner-api/index.js";
import { count, failureOf, useHarness } from "./harness.js";

const h = useHarness({}, { requests: true });

function contextOf(type: string, settings: { apiKey: string; baseUrl: string }, lines: string[] = []): ProviderContext {
  return createContext({ type, settings: { ...settings, journalDir: h.journalDir }, sink: (level, line) => lines.push(`${level}: ${line}`) });
}

const appIdOf = async (ctx: ProviderContext) => (await ctx.api().getUserData()).apiKey.appId!;

describe("serviceEndpoint: one spelling of a base URL", () => {
  it("lower-cases scheme and host, drops the default port, query and fragment, keeps the path with one trailing slash", () => {
    expect(serviceEndpoint("HTTPS://Partner.Example.com:443/api?x=1#y")).toBe("https://partner.example.com/api/");
    expect(serviceEndpoint("https://partner.example.com/api//")).toBe("https://partner.example.com/api/");
    expect(serviceEndpoint("http://127.0.0.1:8080")).toBe("http://127.0.0.1:8080/");
    expect(serviceEndpoint("not a url")).toBeUndefined();
  });
});

describe("another deployment of the service that issues the same app id", () => {
  // The order was bought at the sandbox; the base URL now points at a copy whose key has the same app id and that never held the order.
  async function againstCopy<T>(run: (ctx: ProviderContext, lines: string[], calls: () => string[]) => Promise<T>): Promise<T> {
    const appId = await appIdOf(h.ctx);
    const copy = await ScriptedServer.start(
      byOperation({
        GetUserData: () => userData(appId),
        GetRecord: () => apiError(404, "order does not exist", {}),
        GetCertificateStatus: () => apiError(404, "order does not exist", {}),
        CancelOrder: () => apiError(404, "order does not exist", {}),
      }),
    );
    const lines: string[] = [];
    try {
      return await run(contextOf("Order", { apiKey: h.sandbox.accounts[0]!.apiKey, baseUrl: copy.url }, lines), lines, () => copy.operations);
    } finally {
      await copy.close();
    }
  }

  it("create records the endpoint with the app id", async () => {
    const { outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "endpoint.example.com" });
    expect(outs.accountEndpoint).toBe(serviceEndpoint(h.sandbox.url));
    expect(outs.accountId).toBe(await appIdOf(h.ctx));
  });

  it("refresh there fails naming both endpoints and the setting to restore; the order stays", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "copy-read.example.com" });
    await againstCopy(async (ctx, _lines, calls) => {
      const error = await failureOf(handlers.read!(ctx, id, outs));
      expect(calls()).toContain("GetRecord");
      expect(error.message).toContain(serviceEndpoint(h.sandbox.url));
      expect(error.message).toContain(serviceEndpoint(ctx.settings.baseUrl));
      expect(error.message).toMatch(/Nothing was removed from state/);
      expect(error.message).toContain(`pulumi config set certreseller:baseUrl ${serviceEndpoint(h.sandbox.url)}`);
    });
  });

  it("destroy there neither cancels nor releases", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "copy-delete.example.com" });
    await againstCopy(async (ctx, _lines, calls) => {
      const error = await failureOf(handlers.delete!(ctx, id, outs));
      expect(error.message).toMatch(/Nothing was cancelled or released/);
      expect(calls()).not.toContain("CancelOrder");
    });
    expect((await h.mgmt("GET", `/orders/${id}`)).refund).toBeNull();
  });

  it("a state of an earlier release (app id, no endpoint): refresh keeps the order and says why, destroy neither cancels nor releases", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "copy-old.example.com" });
    const { accountEndpoint: _dropped, ...older } = outs;
    await againstCopy(async (ctx, lines, calls) => {
      const kept = await handlers.read!(ctx, id, older as OrderState);
      expect(kept.id).toBe(id);
      expect(lines.join("\n")).toMatch(/records the app id .* but not the service endpoint.*KEPT in state/);
      const error = await failureOf(handlers.delete!(ctx, id, older as OrderState));
      expect(error.message).toMatch(/neither cancelled nor released.*not the service endpoint/);
      expect(error.message).toMatch(/pulumi state delete/);
      expect(calls()).not.toContain("CancelOrder");
    });
    // The deployment that holds it shows it: the endpoint is recorded from then on.
    const upgraded = await handlers.read!(h.ctx, id, older as OrderState);
    expect(upgraded.props?.accountEndpoint).toBe(serviceEndpoint(h.sandbox.url));
  });
});

describe("cert status 5 ('revoked/refunded') is not a refund", () => {
  it("destroy of an order revoked outside Pulumi inside the window asks for the refund (CancelOrder) and keeps it when refused", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "revoked.example.com" });
    await h.mgmt("POST", `/orders/${id}/issue`);
    await h.mgmt("POST", `/orders/${id}/revoke`);
    await h.mgmt("DELETE", "/requests");
    const error = await failureOf(handlers.delete!(h.ctx, id, outs));
    expect(count(await h.operations(), "CancelOrder")).toBe(1);
    expect(error.message).toMatch(/refused to cancel order .*revoked \(cert status 5\) and the order status shows no refund or cancellation: ask the reseller's support/);
    expect(error.message).toMatch(/kept in state/);
    expect((await h.mgmt("GET", `/orders/${id}`)).refund).toBeNull();
  });

  it("an order refunded outside Pulumi (order status 4) is released without a second CancelOrder", async () => {
    const { id, outs } = await h.buy({ productCode: "sandbox-dv-single", domain: "refunded-outside.example.com" });
    await h.ctx.api().cancelOrder({ orderNo: id, reason: "by hand" });
    await h.mgmt("DELETE", "/requests");
    await handlers.delete!(h.ctx, id, outs);
    expect(count(await h.operations(), "CancelOrder")).toBe(0);
    expect(h.lines.join("\n")).toMatch(new RegExp(`order ${id} is already refunded \\(order status 4\\); nothing to cancel or refund`));
  });
});

describe("the Validation and the Certificate under another account say what the Order says", () => {
  const gate = new StatusReadGate(systemClock);
  const certificates = createCertificateHandlers({ clock: systemClock, gate });

  async function issuedOrder(domain: string) {
    const { id } = await h.buy({ productCode: "sandbox-dv-single", domain, verificationMethod: "dns" });
    const mine = contextOf("Validation", { apiKey: h.sandbox.accounts[0]!.apiKey, baseUrl: h.sandbox.url });
    const validation = (await validationHandlers.create(mine, { orderNo: id, domains: [domain], method: "dns" } as ValidationInputs)).outs!;
    await h.mgmt("POST", `/orders/${id}/issue`);
    const certificate = await certificates.create(contextOf("Certificate", { apiKey: h.sandbox.accounts[0]!.apiKey, baseUrl: h.sandbox.url }), { orderNo: id, timeoutMinutes: 1 } as CertificateInputs);
    return { id, validation, certificate: certificate.outs!, certId: certificate.id };
  }

  it("each fails naming both app ids and the way back; nothing is claimed removed", async () => {
    const { id, validation, certificate, certId } = await issuedOrder("both-ids.example.com");
    const mine = await appIdOf(h.ctx);
    const lines: string[] = [];
    const other = { apiKey: h.sandbox.accounts[1]!.apiKey, baseUrl: h.sandbox.url };
    const theirs = await appIdOf(contextOf("Order", other));
    expect(validation.accountId).toBe(mine);
    expect(certificate.accountId).toBe(mine);
    for (const error of [
      await failureOf(validationHandlers.read!(contextOf("Validation", other, lines), id, validation)),
      await failureOf(certificates.read!(contextOf("Certificate", other, lines), certId, certificate)),
    ]) {
      expect(error.message).toContain(mine);
      expect(error.message).toContain(theirs);
      expect(error.message).toContain(id);
      expect(error.message).toMatch(/pulumi config set --secret certreseller:apiKey/);
      expect(error.message).not.toContain(other.apiKey.split(":")[1]!);
    }
    expect(lines.join("\n")).not.toMatch(/removed from state/);
  });

  it("a state that recorded no account is kept with a warning that says so", async () => {
    const { id, validation, certificate, certId } = await issuedOrder("no-account.example.com");
    const { accountId: _a, accountEndpoint: _e, ...olderValidation } = validation;
    const { accountId: _c, accountEndpoint: _d, ...olderCertificate } = certificate;
    const lines: string[] = [];
    const other = { apiKey: h.sandbox.accounts[1]!.apiKey, baseUrl: h.sandbox.url };
    expect((await validationHandlers.read!(contextOf("Validation", other, lines), id, olderValidation as ValidationState)).id).toBe(id);
    expect((await certificates.read!(contextOf("Certificate", other, lines), certId, olderCertificate as CertificateState)).id).toBe(certId);
    expect(lines.join("\n")).toMatch(/KEPT in state/);
    expect(lines.join("\n")).toMatch(/stored certificate .* is kept in state/);
    expect(lines.join("\n")).not.toMatch(/removed from state/);
  });
});

// Last: these move the sandbox's clock for good.
describe("an adopted order past the refund window", () => {
  it("records when the service showed it (paid no later than that); destroy is refused inside the window's margin, released past it", async () => {
    const { id } = await h.buy({ productCode: "sandbox-dv-single", domain: "adopted-late.example.com" });
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "adopted-late.example.com", adoptOrderNo: id });
    const { outs } = await handlers.create(h.ctx, inputs);
    expect(outs!.paidAt).toBeUndefined();
    expect(Date.parse(outs!.paidNoLaterThan!)).toBeGreaterThan(Date.now() - 60_000);

    await h.mgmt("POST", "/clock/advance", { seconds: 7 * 86_400 + 3_600 });
    const early = await failureOf(handlers.delete!(h.ctx, id, outs!));
    expect(early.message).toMatch(/paid no later than .*not provably past the 7-day refund window/);

    await h.mgmt("POST", "/clock/advance", { seconds: 86_400 });
    await handlers.delete!(h.ctx, id, outs!);
    expect(h.lines.join("\n")).toMatch(new RegExp(`order ${id} was NOT cancelled and is released from Pulumi: .*paid no later than .*past the refund window`));
    expect((await h.mgmt("GET", `/orders/${id}`)).refund).toBeNull();
  });

  it("an adopted order of an earlier release (no payment bound) learns one on refresh", async () => {
    const { id } = await h.buy({ productCode: "sandbox-dv-single", domain: "adopted-old.example.com" });
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "adopted-old.example.com", adoptOrderNo: id });
    const { outs } = await handlers.create(h.ctx, inputs);
    const { paidNoLaterThan: _dropped, ...older } = outs!;
    const refreshed = await handlers.read!(h.ctx, id, older as OrderState);
    expect(refreshed.props?.paidNoLaterThan).toBeDefined();
  });
});

describe("scripted: a 404 at the recorded endpoint under the recorded app id is still 'gone'", () => {
  it("read drops it", async () => {
    const appId = "ak_sameaccountsameaccount1";
    const api = await ScriptedServer.start(byOperation({ GetUserData: () => userData(appId), GetRecord: () => apiError(404, "no such order", {}) }));
    try {
      const ctx = contextOf("Order", { apiKey: "ak_x:secretsecret", baseUrl: api.url });
      const state = { orderNo: "CERT1", journalKey: "urn:pulumi:dev::p::t::site", certStatus: 2, accountId: appId, accountEndpoint: serviceEndpoint(api.url) } as OrderState;
      expect((await handlers.read!(ctx, "CERT1", state)).id).toBeUndefined();
    } finally {
      await api.close();
    }
  });
});
