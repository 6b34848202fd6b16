import { describe, expect, it } from "vitest";
import { PurchaseJournal } from "../../../src/journal/index.js";
import { handlers } from "../../../src/resources/order/handlers.js";
import { count, useHarness } from "./harness.js";

const h = useHarness({}, { faults: true, requests: true });

async function ordersFor(domain: string): Promise<unknown[]> {
  const all = (await h.mgmt("GET", "/orders")) as { domains: string[] }[];
  return all.filter((o) => o.domains[0] === domain);
}

describe("the 'MAY have been charged' stop names the purchase the journal recorded, not the current inputs", () => {
  it("after the domain changed: names the intent's names, product, time and account, and says the inputs differ", async () => {
    await h.mgmt("PUT", "/faults", { CreateOrder: { commitThenFail: "500", times: 1 } });
    const old = await h.plan({ productCode: "sandbox-dv-single", domain: "old.lost.example.com" });
    const first = (await handlers.create(h.ctx, old).catch((e: unknown) => e)) as Error;
    expect(first.message).toMatch(/MAY have been charged/);
    expect(await ordersFor("old.lost.example.com")).toHaveLength(1);
    const intent = (await new PurchaseJournal(h.journalDir).read(old.journalKey))!;
    expect(intent.accountId).toMatch(/\S/);

    // The user edits the program: same resource, another domain and product.
    const renamed = await h.plan({ productCode: "sandbox-dv-multi", domain: "new.lost.example.com" });
    await h.mgmt("DELETE", "/requests");
    const second = (await handlers.create(h.ctx, { ...renamed, journalKey: old.journalKey }).catch((e: unknown) => e)) as Error;
    expect(second.message).toContain(`a CreateOrder for old.lost.example.com (sandbox-dv-single) was sent at ${intent.intentAt} by the account with app id ${intent.accountId}`);
    expect(second.message).toContain("Check your reseller account (app id");
    expect(second.message).toContain("for an order of old.lost.example.com (sandbox-dv-single)");
    expect(second.message).toMatch(/this Order's purchase inputs changed since that CreateOrder \(changed: [^)]*domain[^)]*productCode|productCode[^)]*domain/);
    expect(second.message).not.toMatch(/order of new\.lost\.example\.com/);
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
    expect(await ordersFor("new.lost.example.com")).toHaveLength(0);
  });

  it("with the same inputs: no claim that they differ", async () => {
    await h.mgmt("PUT", "/faults", { CreateOrder: { commitThenFail: "500", times: 1 } });
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "same.lost.example.com" });
    await handlers.create(h.ctx, inputs).catch(() => undefined);
    const second = (await handlers.create(h.ctx, inputs).catch((e: unknown) => e)) as Error;
    expect(second.message).toContain("a CreateOrder for same.lost.example.com (sandbox-dv-single) was sent at");
    expect(second.message).not.toMatch(/inputs changed/);
  });

  it("an intent written before the account was recorded still stops, without naming an account", async () => {
    const inputs = await h.plan({ productCode: "sandbox-dv-single", domain: "legacy.lost.example.com" });
    const journal = new PurchaseJournal(h.journalDir);
    await journal.recordIntent({ key: inputs.journalKey, domain: "legacy-old.lost.example.com", productCode: "sandbox-dv-single", names: ["legacy-old.lost.example.com"] });
    const error = (await handlers.create(h.ctx, inputs).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain("a CreateOrder for legacy-old.lost.example.com (sandbox-dv-single) was sent at");
    expect(error.message).not.toMatch(/app id/);
    expect(error.message).toMatch(/this Order's purchase inputs changed since that CreateOrder \(now: legacy\.lost\.example\.com \(sandbox-dv-single\)\)/);
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
  });
});
