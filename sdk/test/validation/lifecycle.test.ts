import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext, type ProviderContext } from "../../src/provider/index.js";
import type { ValidationInputs, ValidationOutputs } from "../../src/resources/validation/inputs.js";
import { handlers } from "../../src/resources/validation/handlers.js";
import { pickRecord, toDnsRecord, toFileRecord } from "../../src/resources/validation/records.js";
import { startHarness, type Harness } from "../order/harness.js";

let h: Harness;
let ctx: ProviderContext;
const lines: string[] = [];

beforeAll(async () => {
  h = await startHarness({ validation: "published", methodCooldownSeconds: 0 });
  ctx = createContext({
    type: "Validation",
    settings: { apiKey: h.sandbox.accounts[0]!.apiKey, baseUrl: h.sandbox.url, journalDir: h.journalDir },
    sink: (level, line) => lines.push(`${level}: ${line}`),
  });
});
afterAll(async () => {
  await h?.stop();
});

async function plan(raw: Partial<ValidationInputs>): Promise<ValidationInputs> {
  const r = await handlers.check!(ctx, {} as ValidationInputs, raw as ValidationInputs);
  expect(r.failures ?? []).toEqual([]);
  return r.inputs as ValidationInputs;
}

async function create(inputs: ValidationInputs): Promise<ValidationOutputs> {
  return (await handlers.create(ctx, inputs)).outs!;
}

describe("Validation against the sandbox", () => {
  it("dns: one TXT record per name, a wildcard at its base name with its own token", async () => {
    const domains = ["flex.example.com", "www.flex.example.com", "*.flex.example.com"];
    const order = await h.buy({ productCode: "sandbox-dv-flex", domain: domains[0], sanDomains: [domains[1]], wildcardDomains: [domains[2]], verificationMethod: "dns" });
    const outs = await create(await plan({ orderNo: order.outs.orderNo, domains, method: "dns" }));
    expect(outs.method).toBe("dns");
    expect(outs.records).toHaveLength(3);
    const main = toDnsRecord(pickRecord(outs.records, "flex.example.com"), "flex.example.com");
    const wild = toDnsRecord(pickRecord(outs.records, "*.flex.example.com"), "*.flex.example.com");
    expect(main).toMatchObject({ name: "_dnsauth", fqdn: "_dnsauth.flex.example.com", type: "TXT" });
    expect(wild.fqdn).toBe("_dnsauth.flex.example.com");
    expect(wild.value).not.toBe(main.value);
    expect(outs.requestId).toMatch(/^SIG-/);
  });

  it("cname, file and email records are shaped for their publishers", async () => {
    const cname = await h.buy({ productCode: "sandbox-dv-single", domain: "c.example.com", verificationMethod: "cname" });
    const c = toDnsRecord(pickRecord((await create(await plan({ orderNo: cname.outs.orderNo, domains: ["c.example.com"] }))).records, "c.example.com"), "c.example.com");
    expect(c.type).toBe("CNAME");
    expect(c.fqdn).toMatch(/^_[0-9a-z]+\.c\.example\.com$/);
    expect(c.value).toMatch(/\.dcv\.sandbox\.test$/);

    const file = await h.buy({ productCode: "sandbox-dv-single", domain: "f.example.com", verificationMethod: "file" });
    const fOuts = await create(await plan({ orderNo: file.outs.orderNo, domains: ["f.example.com"] }));
    const f = toFileRecord(pickRecord(fOuts.records, "f.example.com"), "f.example.com");
    expect(f.url).toMatch(/^http:\/\/f\.example\.com\/\.well-known\/pki-validation\/[0-9A-Z]+\.txt$/);
    expect(f.path).toBe(new URL(f.url).pathname);
    expect(f.content).toContain(file.outs.orderNo);

    const email = await h.buy({ productCode: "sandbox-dv-single", domain: "e.example.com", verificationMethod: "email", emailSuffix: "hostmaster" });
    const eOuts = await create(await plan({ orderNo: email.outs.orderNo, domains: ["e.example.com"] }));
    expect(eOuts.records[0]).toMatchObject({ method: "email", email: "hostmaster@e.example.com", fqdn: "", value: "" });
    expect(() => toDnsRecord(eOuts.records[0]!, "e.example.com")).toThrow(/validated by method "email", not DNS/);
  });

  it("a method switch flows through: diff sees the Order's new method, update reads the new tokens", async () => {
    const order = await h.buy({ productCode: "sandbox-dv-single", domain: "switch.example.com", verificationMethod: "dns" });
    const orderNo = order.outs.orderNo;
    const inputs = await plan({ orderNo, domains: ["switch.example.com"], method: "dns", requestId: order.outs.requestId });
    const before = await create(inputs);
    expect((await handlers.diff!(ctx, orderNo, before, inputs)).changes).toBe(false);

    await ctx.api().changeVerificationMethod({ orderNo, method: "cname" });
    const news = await plan({ ...inputs, method: "cname" });
    expect(await handlers.diff!(ctx, orderNo, before, news)).toMatchObject({ changes: true, replaces: [] });
    // At preview the Order's new request id is unknown: still an update, not a replacement.
    expect(await handlers.diff!(ctx, orderNo, before, { ...news, requestId: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" })).toMatchObject({ changes: true, replaces: [] });
    const after = (await handlers.update!(ctx, orderNo, before, news)).outs!;
    expect(after.method).toBe("cname");
    expect(after.records[0]!.recordType).toBe("CNAME");
    expect(after.records[0]!.value).not.toBe(before.records[0]!.value);
    expect(lines.some((l) => /validation method dns → cname/.test(l))).toBe(true);
  });

  it("refuses records that do not match what the program declares", async () => {
    const order = await h.buy({ productCode: "sandbox-dv-single", domain: "m.example.com", verificationMethod: "dns" });
    await expect(create(await plan({ orderNo: order.outs.orderNo, domains: ["m.example.com", "other.example.com"] }))).rejects.toThrow(/no validation record for other\.example\.com/);
    await expect(create(await plan({ orderNo: order.outs.orderNo, domains: ["m.example.com"], method: "file" }))).rejects.toThrow(/validated by method "dns" at the service, but the program expects "file"/);
  });

  it("read re-reads the records; a different order number replaces", async () => {
    const order = await h.buy({ productCode: "sandbox-dv-single", domain: "r.example.com", verificationMethod: "dns" });
    const outs = await create(await plan({ orderNo: order.outs.orderNo, domains: ["r.example.com"] }));
    const r = await handlers.read!(ctx, order.outs.orderNo, outs);
    expect(r.props).toEqual(outs);
    expect((await handlers.diff!(ctx, order.outs.orderNo, outs, { orderNo: "CERT0", domains: ["r.example.com"] })).replaces).toEqual(["orderNo"]);
  });

  it("check names each bad input and tolerates unknowns", async () => {
    const bad = await handlers.check!(ctx, {} as ValidationInputs, { orderNo: "", domains: ["a.example.com", "A.example.com"], method: "carrier-pigeon" } as ValidationInputs);
    expect(bad.failures!.map((f) => f.property)).toEqual(["orderNo", "domains[1]", "method"]);
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    expect((await handlers.check!(ctx, {} as ValidationInputs, { orderNo: unknown, domains: unknown as any, method: unknown })).failures).toEqual([]);
  });
});
