// `pulumi import` of an Order builds its inputs from GetRecord and runs them
// through the Order's own check, as the plugin does. The service may report
// plain `email` for any `email-…` method, a value the input refuses: the
// import must not declare it, or the import fails on an input nobody wrote.
// The sandbox always reports the full code, so the plain answer is scripted.
import { describe, expect, it } from "vitest";
import { handlers } from "../../../src/resources/order/handlers.js";
import { importOrder } from "../../../src/resources/order/import.js";
import type { OrderInputs } from "../../../src/resources/order/inputs.js";
import type { PartnerApi } from "../../../src/client/types.js";
import type { ProviderContext } from "../../../src/provider/index.js";
import { importedMethod, reportedMethod } from "../../../src/resources/order/reported-method.js";
import { count, useHarness } from "./harness.js";

const h = useHarness({ validation: "auto", issueAfterSeconds: 0, statusCooldownSeconds: 0 }, { requests: true });

/** The check the plugin hands an import: the Order's check, its failures thrown. */
async function check(declared: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await handlers.check!(h.ctx, {} as OrderInputs, { journalKey: "proj/dev/imported", ...declared } as unknown as OrderInputs);
  const failures = result.failures ?? [];
  if (failures.length > 0) throw new Error(failures.map((f) => `${f.property}: ${f.reason}`).join("; "));
  return result.inputs as unknown as Record<string, unknown>;
}

/** An order bought and issued straight through the API, outside any program. */
async function boughtElsewhere(domain: string, verificationMethod: "dns" | "email-admin"): Promise<string> {
  const api = h.ctx.api();
  const { orderNo } = await api.createOrder({ productCode: "sandbox-dv-single", domain, months: 12, verificationMethod });
  await api.applySign({ orderNo });
  await h.mgmt("DELETE", "/requests");
  return orderNo;
}

/** The harness's context, its GetRecord answering plain `email` for an e-mail method. */
function plainEmailContext(): ProviderContext {
  const api = (): PartnerApi => {
    const real = h.ctx.api();
    return new Proxy(real, {
      get(target, key) {
        if (key === "getRecord") {
          return async (...args: Parameters<PartnerApi["getRecord"]>) => {
            const record = await target.getRecord(...args);
            return record.verificationMethod?.startsWith("email-") ? { ...record, verificationMethod: "email" } : record;
          };
        }
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  };
  return { ...h.ctx, api };
}

describe("importedMethod", () => {
  it("keeps a method code and leaves plain `email` (no mailbox named) unset", () => {
    expect(importedMethod("dns")).toBe("dns");
    expect(importedMethod("email-hostmaster")).toBe("email-hostmaster");
    expect(importedMethod("email")).toBeUndefined();
    expect(importedMethod(undefined)).toBeUndefined();
    // The state still says what the service reported.
    expect(reportedMethod("email", importedMethod("email"))).toBe("email");
  });
});

describe("importOrder", () => {
  it("imports an e-mail-validated order: no verificationMethod input, the reported method in state, nothing bought", async () => {
    const orderNo = await boughtElsewhere("import-email.example.com", "email-admin");
    const imported = await importOrder(plainEmailContext(), orderNo, check);
    expect(imported.id).toBe(orderNo);
    expect(imported.inputs).not.toHaveProperty("verificationMethod");
    expect(imported.inputs).toMatchObject({ productCode: "sandbox-dv-single", domain: "import-email.example.com", adoptOrderNo: orderNo });
    expect(imported.outputs).toMatchObject({ orderNo, adopted: true, verificationMethod: "email" });
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
  });

  it("imports a DNS-validated order with its method as an input", async () => {
    const orderNo = await boughtElsewhere("import-dns.example.com", "dns");
    const imported = await importOrder(h.ctx, orderNo, check);
    expect(imported.inputs).toMatchObject({ verificationMethod: "dns", adoptOrderNo: orderNo });
  });
});
