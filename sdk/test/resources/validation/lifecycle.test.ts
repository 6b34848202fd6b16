import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isPartnerApiError } from "../../../src/client/errors.js";
import { UNKNOWN, type ProviderContext } from "../../../src/provider/index.js";
import { handlers } from "../../../src/resources/validation/handlers.js";
import type { ValidationInputs } from "../../../src/resources/validation/inputs.js";
import type { ValidationState } from "../../../src/resources/validation/state.js";
import { expandRecords, pickRecord, toDnsRecord, toFileRecord, type DomainValidationRecord } from "../../../src/resources/validation/records.js";
import { byOperation, ScriptedServer } from "../../support/partner-api/index.js";
import { startBench, type SandboxBench } from "../../support/orders.js";

let b: SandboxBench;
let ctx: ProviderContext;

beforeAll(async () => {
  b = await startBench("Validation", { validation: "published", methodCooldownSeconds: 0 });
  ctx = b.ctx;
});
afterAll(async () => {
  await b?.stop();
});
beforeEach(() => {
  b.lines.length = 0;
});

async function plan(raw: Partial<ValidationInputs>): Promise<ValidationInputs> {
  const r = await handlers.check!(ctx, {} as ValidationInputs, raw as ValidationInputs);
  expect(r.failures ?? []).toEqual([]);
  return r.inputs as ValidationInputs;
}

/** The outputs as the program sees them: the class expands the stored records. */
type Seen = Omit<ValidationState, "records"> & { records: DomainValidationRecord[]; stored: ValidationState["records"] };
const seen = (outs: ValidationState): Seen => ({ ...outs, records: expandRecords(outs.records, outs.method), stored: outs.records });

async function create(inputs: ValidationInputs, on = ctx): Promise<Seen> {
  return seen((await handlers.create(on, inputs)).outs!);
}

describe("Validation against the sandbox", () => {
  it("dns: one TXT record per name, a wildcard at its base name with its own token", async () => {
    const domains = ["flex.example.com", "www.flex.example.com", "*.flex.example.com"];
    const order = await b.buy({ productCode: "sandbox-dv-flex", domain: domains[0]!, sanDomains: [domains[1]!], wildcardDomains: [domains[2]!], verificationMethod: "dns" });
    const outs = await create(await plan({ orderNo: order.orderNo, domains, method: order.verificationMethod, requestId: order.requestId }));
    expect(outs).toMatchObject({ method: "dns", emailSuffix: "", requestId: order.requestId });
    expect(outs.records.map((r) => r.orderedName)).toEqual(domains);
    const main = toDnsRecord(pickRecord(outs.records, "flex.example.com"), "flex.example.com");
    const wild = toDnsRecord(pickRecord(outs.records, "*.flex.example.com"), "*.flex.example.com");
    expect(main).toMatchObject({ name: "_dnsauth", fqdn: "_dnsauth.flex.example.com", type: "TXT" });
    expect(wild.fqdn).toBe("_dnsauth.flex.example.com");
    expect(wild.value).not.toBe(main.value);
    // GetRecord's instruction text comes along.
    expect(pickRecord(outs.records, "www.flex.example.com").hint).toContain("_dnsauth.www.flex.example.com");
  });

  it("publishing recordFor(d) for every declared name publishes exactly what the CA checks", async () => {
    const domains = ["pub.example.com", "*.pub.example.com"];
    const order = await b.buy({ productCode: "sandbox-dv-flex", domain: domains[0]!, wildcardDomains: [domains[1]!], verificationMethod: "dns" });
    const outs = await create(await plan({ orderNo: order.orderNo, domains }));
    for (const d of domains) {
      const r = toDnsRecord(pickRecord(outs.records, d), d);
      await b.mgmt("POST", "/dns-records", { fqdn: r.fqdn, type: r.type, value: r.value });
    }
    const status = await ctx.api().getCertificateStatus({ orderNo: order.orderNo });
    expect(status.domainStatuses.map((s) => s.verified)).toEqual([true, true]);
  });

  it("cname, file and e-mail records are shaped for their publishers", async () => {
    const cname = await b.buy({ productCode: "sandbox-dv-single", domain: "c.example.com", verificationMethod: "cname" });
    const c = toDnsRecord(pickRecord((await create(await plan({ orderNo: cname.orderNo, domains: ["c.example.com"], method: "cname" }))).records, "c.example.com"), "c.example.com");
    expect(c.type).toBe("CNAME");
    expect(c.fqdn).toMatch(/^_[0-9a-z]+\.c\.example\.com$/);
    expect(c.value).toMatch(/\.dcv\.sandbox\.test$/);

    const file = await b.buy({ productCode: "sandbox-dv-single", domain: "f.example.com", verificationMethod: "file" });
    const fOuts = await create(await plan({ orderNo: file.orderNo, domains: ["f.example.com"] }));
    const f = toFileRecord(pickRecord(fOuts.records, "f.example.com"), "f.example.com");
    expect(f.url).toMatch(/^http:\/\/f\.example\.com\/\.well-known\/pki-validation\/[0-9A-Z]+\.txt$/);
    expect(f.path).toBe(new URL(f.url).pathname);
    expect(f.content).toContain(file.orderNo);

    const email = await b.buy({ productCode: "sandbox-dv-single", domain: "e.example.com", verificationMethod: "email-hostmaster" });
    const eOuts = await create(await plan({ orderNo: email.orderNo, domains: ["e.example.com"], method: email.verificationMethod }));
    expect(eOuts).toMatchObject({ method: "email-hostmaster", emailSuffix: "hostmaster" });
    expect(eOuts.records[0]).toMatchObject({ method: "email-hostmaster", email: "hostmaster@e.example.com", fqdn: "", value: "", url: "" });
    expect(() => toDnsRecord(eOuts.records[0]!, "e.example.com")).toThrow(/validated by method "email-hostmaster", not DNS/);
  });

  it("an IPv6 order without a method (the product's default, file): the URL brackets the address, and publishing it validates", async () => {
    const order = await b.buy({ productCode: "sandbox-dv-ipv6", domain: "2606:4700:4700::1111" });
    expect(order.verificationMethod).toBe("file");
    const outs = await create(await plan({ orderNo: order.orderNo, domains: ["2606:4700:4700::1111"], method: order.verificationMethod }));
    const f = toFileRecord(pickRecord(outs.records, "2606:4700:4700::1111"), "2606:4700:4700::1111");
    expect(f.url).toMatch(/^http:\/\/\[2606:4700:4700::1111\]\/\.well-known\/pki-validation\/[0-9A-Z]+\.txt$/);
    expect(f.path).toMatch(/^\/\.well-known\/pki-validation\/[0-9A-Z]+\.txt$/);
    await b.mgmt("POST", "/files", { url: f.url, content: f.content });
    const status = await ctx.api().getCertificateStatus({ orderNo: order.orderNo });
    expect(status.domainStatuses).toEqual([expect.objectContaining({ domain: "2606:4700:4700::1111", verified: true })]);
  });

  it("the program's bare email (what ApplySign may answer) agrees with an email-* method", async () => {
    const order = await b.buy({ productCode: "sandbox-dv-single", domain: "bare.example.com", verificationMethod: "email-webmaster" });
    const outs = await create(await plan({ orderNo: order.orderNo, domains: ["bare.example.com"], method: "email" }));
    expect(outs.method).toBe("email-webmaster");
    expect((await handlers.diff!(ctx, order.orderNo, outs, { orderNo: order.orderNo, domains: ["bare.example.com"], method: "email" })).changes).toBe(false);
  });

  it("a method switch flows through: the Order's new method and request id re-read the new tokens", async () => {
    const order = await b.buy({ productCode: "sandbox-dv-single", domain: "switch.example.com", verificationMethod: "dns" });
    const inputs = await plan({ orderNo: order.orderNo, domains: ["switch.example.com"], method: "dns", requestId: order.requestId });
    const before = await create(inputs);
    expect((await handlers.diff!(ctx, order.orderNo, before, inputs)).changes).toBe(false);

    const changed = await ctx.api().changeVerificationMethod({ orderNo: order.orderNo, method: "cname" });
    // The method change answers a request id too (the sandbox keeps the submission's).
    expect(changed.requestId).toMatch(/^SIG-/);
    const news = await plan({ ...inputs, method: "cname", requestId: changed.requestId });
    expect(await handlers.diff!(ctx, order.orderNo, before, news)).toMatchObject({ changes: true, replaces: [] });
    // At preview the Order's new request id is unknown: still an update, not a replacement.
    expect(await handlers.diff!(ctx, order.orderNo, before, { ...news, requestId: UNKNOWN })).toMatchObject({ changes: true, replaces: [] });
    const after = seen((await handlers.update!(ctx, order.orderNo, before, news)).outs!);
    expect(after).toMatchObject({ method: "cname", requestId: changed.requestId });
    expect(after.records[0]!.recordType).toBe("CNAME");
    expect(after.records[0]!.value).not.toBe(before.records[0]!.value);
    expect(b.lines.some((l) => /validation method dns → cname/.test(l))).toBe(true);
  });

  it("a new request id alone (same method, e.g. bare email answered again) re-reads", async () => {
    const order = await b.buy({ productCode: "sandbox-dv-single", domain: "rid.example.com", verificationMethod: "dns" });
    const outs = await create(await plan({ orderNo: order.orderNo, domains: ["rid.example.com"], method: "dns", requestId: order.requestId }));
    const diff = await handlers.diff!(ctx, order.orderNo, outs, { orderNo: order.orderNo, domains: ["rid.example.com"], method: "dns", requestId: "SIG-1-NEW" });
    expect(diff).toMatchObject({ changes: true, replaces: [] });
  });

  it("refuses records that do not match what the program declares, and an order not submitted", async () => {
    const order = await b.buy({ productCode: "sandbox-dv-single", domain: "m.example.com", verificationMethod: "dns" });
    // The preview already refuses a name the order does not cover (the order is known: GetRecord)...
    const checked = await handlers.check!(ctx, {} as ValidationInputs, { orderNo: order.orderNo, domains: ["m.example.com", "other.example.com"] } as ValidationInputs);
    expect(checked.failures).toEqual([
      { property: "domains", reason: expect.stringMatching(new RegExp(`^other\\.example\\.com is not among order ${order.orderNo}'s names \\(m\\.example\\.com\\)`)) },
    ]);
    // ...and create still refuses it, should the check have been skipped (the order unknown at preview).
    await expect(create({ orderNo: order.orderNo, domains: ["m.example.com", "other.example.com"] } as ValidationInputs)).rejects.toThrow(
      /no validation record for other\.example\.com \(declared in domains\); the order covers m\.example\.com/,
    );
    await expect(create(await plan({ orderNo: order.orderNo, domains: ["m.example.com"], method: "file" }))).rejects.toThrow(
      /validated by method "dns" at the service, but the program expects "file"/,
    );
    const unsubmitted = await ctx.api().createOrder({ productCode: "sandbox-dv-single", domain: "later.example.com", verificationMethod: "dns" });
    await expect(create(await plan({ orderNo: unsubmitted.orderNo, domains: ["later.example.com"] }))).rejects.toThrow(/not been submitted for issuance \(ApplySign; cert_status 0\)/);
  });

  it("warns about records for ordered names the program left out", async () => {
    const order = await b.buy({ productCode: "sandbox-dv-multi", domain: "part.example.com", sanDomains: ["www.part.example.com"], verificationMethod: "dns" });
    await create(await plan({ orderNo: order.orderNo, domains: ["part.example.com"] }));
    expect(b.lines.some((l) => l.startsWith("warn:") && /1 validation record\(s\) for names not in domains \(www\.part\.example\.com\)/.test(l))).toBe(true);
  });

  it("check names each bad input, explains https, and tolerates unknowns and an empty method", async () => {
    const bad = await handlers.check!(ctx, {} as ValidationInputs, { orderNo: "", domains: ["a.example.com", "A.example.com"], method: "carrier-pigeon" } as ValidationInputs);
    expect(bad.failures!.map((f) => f.property)).toEqual(["orderNo", "domains[1]", "method"]);
    expect(bad.failures![2]!.reason).toMatch(/one of dns, cname, file, email-admin, email-postmaster, email-webmaster, email-hostmaster, dcv/);
    const https = await handlers.check!(ctx, {} as ValidationInputs, { orderNo: "CERT1", domains: ["a.test"], method: "https" });
    expect(https.failures![0]!.reason).toMatch(/there is no https method/);
    expect((await handlers.check!(ctx, {} as ValidationInputs, { orderNo: UNKNOWN, domains: UNKNOWN as any, method: UNKNOWN })).failures).toEqual([]);
    const empty = await handlers.check!(ctx, {} as ValidationInputs, { orderNo: "CERT1", domains: ["a.test"], method: "" });
    expect(empty.failures).toEqual([]);
    expect(empty.inputs).not.toHaveProperty("method");
  });
});

describe("Validation refresh: gone only on the API's own 404", () => {
  let outs: ValidationState;
  let orderNo: string;
  let proxy: ScriptedServer;

  beforeAll(async () => {
    const order = await b.buy({ productCode: "sandbox-dv-single", domain: "r.example.com", verificationMethod: "dns" });
    orderNo = order.orderNo;
    outs = (await handlers.create(ctx, await plan({ orderNo, domains: ["r.example.com"], method: "dns", requestId: order.requestId }))).outs!;
    // What a reverse proxy in front of a moved or misconfigured API answers.
    proxy = await ScriptedServer.start(byOperation({}));
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it("read re-reads the records and keeps the Order's request id; a different order number replaces", async () => {
    const r = await handlers.read!(ctx, orderNo, outs);
    expect(r.props).toEqual(outs);
    expect(r.props!.requestId).toMatch(/^SIG-/);
    expect((await handlers.diff!(ctx, orderNo, outs, { orderNo: "CERT0", domains: ["r.example.com"] })).replaces).toEqual(["orderNo"]);
  });

  it("an HTML 404 page from a proxy fails the refresh and keeps the Validation", async () => {
    const err = (await handlers.read!(b.ctxWith({ baseUrl: proxy.url }), orderNo, outs).then(() => undefined, (e: unknown) => e)) as Error;
    expect(err.message).toMatch(/kept in state as it was/);
    expect(isPartnerApiError(err.cause)).toBe(true);
    expect((err.cause as { kind: string }).kind).not.toBe("not_found");
    expect(b.lines.filter((l) => /removed from state/.test(l))).toEqual([]);
  });

  it("an unreachable API fails the refresh", async () => {
    const err = (await handlers.read!(b.ctxWith({ baseUrl: "http://127.0.0.1:9" }), orderNo, outs).then(() => undefined, (e: unknown) => e)) as Error;
    expect(isPartnerApiError(err.cause, "network")).toBe(true);
  });

  it("a 404 in the API's envelope removes it, with a warning", async () => {
    const r = await handlers.read!(ctx, "CERT19700101000000000", { ...outs, orderNo: "CERT19700101000000000" });
    expect(r).toEqual({ id: "", props: {} });
    expect(b.lines.some((l) => l.startsWith("warn:") && /CERT19700101000000000 no longer exists for the account that bought it .*the API answered 404.*removed from state/.test(l))).toBe(true);
  });
});
