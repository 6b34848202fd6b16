/**
 * The CAA check on every path that calls CreateOrder: a replacement whose
 * inputs did not change (renewal at the end of the term, `--replace`,
 * `replaceOnChanges`, another provider) passes the preview without a
 * lookup, so `create` checks before it writes the intent. A journaled
 * purchase is still resumed whatever the records say now.
 */
import { describe, expect, it } from "vitest";
import { PurchaseJournal } from "../../../src/journal/index.js";
import { check } from "../../../src/resources/order/check.js";
import { create } from "../../../src/resources/order/create.js";
import type { OrderInputs } from "../../../src/resources/order/inputs.js";
import { caa, DEFAULT_SERVER, scriptedDns } from "../../support/scripted-dns.js";
import { count, useHarness } from "./harness.js";

const h = useHarness({}, { requests: true });

/** refused.example.com names only Let's Encrypt; open.example.com publishes no CAA; methods.example.com lets the sandbox CA validate by http-01 only. */
const dns = () =>
  scriptedDns({
    [DEFAULT_SERVER]: {
      "refused.example.com": { CAA: [caa("issue", "letsencrypt.org")] },
      "open.example.com": { A: ["192.0.2.1"] },
      "methods.example.com": { CAA: [caa("issue", "sandbox-ca.test; validationmethods=http-01")] },
    },
  });

const ordersFor = async (domain: string) => ((await h.mgmt("GET", "/orders")) as { domains: string[] }[]).filter((o) => o.domains[0] === domain);

describe("create checks CAA before buying", () => {
  it("a replacement with unchanged inputs: preview does not look up, create refuses before CreateOrder and leaves no journal entry", async () => {
    const scripted = dns();
    // The renewal's preview compares with the old inputs, which are the same.
    const raw = { journalKey: "proj/dev/renewed", productCode: "sandbox-dv-single", domain: "refused.example.com", caaCheck: true } as unknown as OrderInputs;
    const olds = (await check(h.ctx, {} as OrderInputs, raw, dns())).inputs!;
    const previewed = await check(h.ctx, olds, raw, scripted);
    expect(previewed.failures).toEqual([]);
    expect(scripted.queries).toEqual([]);

    const error = (await create(h.ctx, { ...previewed.inputs!, __provider: "x" } as OrderInputs, scripted).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('certreseller Order "renewed": nothing was bought: the CAA records of a name refuse the product\'s CA, checked before CreateOrder:');
    expect(error.message).toContain("  domain: refused.example.com: CAA at refused.example.com allows only letsencrypt.org (0 issue \"letsencrypt.org\")");
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
    expect(await ordersFor("refused.example.com")).toEqual([]);
    expect(await new PurchaseJournal(h.journalDir).read(previewed.inputs!.journalKey)).toBeUndefined();
  });

  it("judges RFC 8657's validationmethods against the Order's method", async () => {
    const base = { journalKey: "proj/dev/methods", productCode: "sandbox-dv-single", domain: "methods.example.com", caaCheck: true };
    const byDns = { ...base, verificationMethod: "dns" } as unknown as OrderInputs;
    const previewed = await check(h.ctx, (await check(h.ctx, {} as OrderInputs, byDns, dns())).inputs!, byDns, dns());
    const error = (await create(h.ctx, previewed.inputs!, dns()).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/allows only validation by http-01 \(RFC 8657\), and verificationMethod "dns" validates by dns-01/);
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
    // And the preview of a new Order says the same.
    const fresh = await check(h.ctx, {} as OrderInputs, byDns, dns());
    expect(fresh.failures?.map((f) => f.property)).toEqual(["domain"]);
    const byFile = { ...base, verificationMethod: "file" } as unknown as OrderInputs;
    expect((await check(h.ctx, {} as OrderInputs, byFile, dns())).failures).toEqual([]);
  });

  it("names that pass are bought, once", async () => {
    const raw = { journalKey: "proj/dev/open", productCode: "sandbox-dv-single", domain: "open.example.com", caaCheck: true } as unknown as OrderInputs;
    const previewed = await check(h.ctx, raw, raw, dns());
    const { id } = await create(h.ctx, previewed.inputs!, dns());
    expect(id).toMatch(/^CERT/);
    expect(count(await h.operations(), "CreateOrder")).toBe(1);
  });

  it("a journaled purchase is resumed even when CAA now refuses: the check sits on the buy path only", async () => {
    const raw = { journalKey: "proj/dev/resumed", productCode: "sandbox-dv-single", domain: "refused.example.com", caaCheck: true } as unknown as OrderInputs;
    const inputs = (await check(h.ctx, raw, raw, dns())).inputs!;
    const journal = new PurchaseJournal(h.journalDir);
    await journal.recordIntent({ key: inputs.journalKey, domain: inputs.domain, productCode: inputs.productCode, names: [inputs.domain] });
    const created = await h.ctx.api().createOrder({ productCode: inputs.productCode, domain: inputs.domain });
    await journal.recordOrder(inputs.journalKey, created.orderNo, JSON.parse(JSON.stringify(created)));
    await h.mgmt("DELETE", "/requests");
    const { id } = await create(h.ctx, inputs, dns());
    expect(id).toBe(created.orderNo);
    expect(count(await h.operations(), "CreateOrder")).toBe(0);
  });
});
