/**
 * What the Order sends and how it reads the answers, against a scripted
 * Partner API that records the form bodies: the CreateOrder fields of spec
 * 4.3 (and nothing else), and answers that carry only what the
 * specification guarantees.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PurchaseJournal } from "../../../src/journal/index.js";
import { closeClients, createContext, type ProviderContext } from "../../../src/provider/index.js";
import { handlers } from "../../../src/resources/order/handlers.js";
import type { OrderInputs } from "../../../src/resources/order/inputs.js";
import { PROVIDER_TEXT } from "./harness.js";
import { apiError, byOperation, ok, productList, ScriptedServer, userData, wireProduct, type ScriptedAnswer } from "../../support/partner-api/index.js";

const forms: Record<string, URLSearchParams[]> = {};
const record = (operation: string, form: URLSearchParams) => (forms[operation] ??= []).push(form);
let api: ScriptedServer;
let ctx: ProviderContext;
let journalDir: string;
const lines: string[] = [];

beforeAll(async () => {
  api = await ScriptedServer.start(byOperation({
    // The Order records which account buys (GetUserData's app id) before CreateOrder.
    GetUserData: () => userData("ak_wiretest"),
    GetUserProduct: () => productList([{ ...wireProduct("wire-multi", "multiple-single"), verification_type_code: "ov" }]),
    // Only the order number: the answer the specification guarantees nothing else of.
    CreateOrder: ({ params }) => (record("CreateOrder", params), ok({ order_no: "CERT202611220000000001" })),
    ApplySign: ({ params }) => (record("ApplySign", params), ok({ order_no: params.get("order_no"), cert_status: 2, verification_method: "email", dns_records: [], http_records: [], email_records: [], request_id: "SIG-20261122000000-ABC" })),
    CancelOrder: ({ params }) => (record("CancelOrder", params), ok({ order_no: params.get("order_no") })),
    GetRecord: ({ params }) =>
      ok({ order_no: params.get("order_no"), cert_status: 2, verification_method: "email", main_domain: "example.com", sans_domains: [], wildcard_domains: [], all_domains: ["example.com"], all_domains_count: 1, dns_records: [], http_records: [], email_records: [], fetched_at: "2026-11-22T10:00:00+00:00" }),
  }));
  journalDir = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-wire-"));
  ctx = createContext({ type: "Order", settings: { apiKey: "ak_wiretest:secret", baseUrl: api.url, journalDir }, sink: (level, line) => lines.push(`${level}: ${line}`) });
});
afterAll(async () => {
  await closeClients();
  await api?.close();
  fs.rmSync(journalDir, { recursive: true, force: true });
});

const company = { companyName: "Acme GmbH", countryCode: "de", contactFirst: "Muster", contactLast: "Erika", email: "ops@acme.test", province: "Berlin", city: "Berlin", registrationNo: "HRB 1" };

describe("CreateOrder as the Order sends it", () => {
  let outs: Record<string, unknown>;
  let form: URLSearchParams;
  beforeAll(async () => {
    const checked = await handlers.check!(ctx, {} as OrderInputs, {
      journalKey: "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/certreseller:Order::wire",
      productCode: "wire-multi",
      domain: "example.com",
      sanDomains: ["www.example.com"],
      years: 1,
      verificationMethod: "email-admin",
      companyInfo: company,
    } as unknown as OrderInputs);
    expect(checked.failures).toEqual([]);
    const created = await handlers.create(ctx, { ...checked.inputs!, __provider: PROVIDER_TEXT });
    outs = created.outs as unknown as Record<string, unknown>;
    form = forms.CreateOrder![0]!;
  });

  it("sends the term as months and, as given, years", () => {
    expect(form.get("months")).toBe("12");
    expect(form.get("years")).toBe("1");
  });

  it("sends the method code, the names and company_info under the specification's member names", () => {
    expect(form.get("verification_method")).toBe("email-admin");
    expect(form.get("product_code")).toBe("wire-multi");
    expect(form.get("domain")).toBe("example.com");
    const fields = [...form.keys()];
    expect(fields.filter((k) => k.startsWith("san_domains"))).not.toHaveLength(0);
    const companyFields = fields.filter((k) => k.startsWith("company_info")).sort();
    expect(companyFields).toEqual(
      ["company_name", "country_code", "contact_first", "contact_last", "email", "province_pinyin", "city_pinyin", "registration_no"].map((m) => `company_info[${m}]`).sort(),
    );
    expect(form.get("company_info[country_code]")).toBe("DE");
  });

  it("sends no field the specification does not list for CreateOrder", () => {
    const listed = ["apikey", "product_code", "product_id", "domain", "company_id", "company_info", "san_domains", "wildcard_domains", "custom_csr", "months", "years", "signature_algorithm", "key_spec", "hash_algorithm", "verification_method", "payment_method", "coupon_type", "coupon_id", "coupon_code"];
    const names = [...new Set([...form.keys()].map((k) => k.replace(/\[.*$/, "")))];
    expect(names.filter((n) => !listed.includes(n))).toEqual([]);
  });

  it("an answer with only the order number is a success: the order is kept, its price is simply absent", () => {
    expect(outs.orderNo).toBe("CERT202611220000000001");
    expect(outs.price).toBeUndefined();
    expect(typeof outs.paidAt).toBe("string");
    expect(outs.requestId).toBe("SIG-20261122000000-ABC");
    expect(outs.certStatus).toBe(2);
    expect(lines.join("\n")).toMatch(/bought order CERT202611220000000001: amount not reported charged/);
  });

  it("ApplySign's plain `email` keeps the e-mail method the program chose", () => {
    expect(outs.verificationMethod).toBe("email-admin");
  });

  it("records the order in the journal before ApplySign", async () => {
    const entry = await new PurchaseJournal(journalDir).read("urn:pulumi:dev::proj::pulumi-nodejs:dynamic/certreseller:Order::wire");
    expect(entry?.orderNo).toBe("CERT202611220000000001");
  });

  it("read keeps the chosen e-mail method when GetRecord says `email`", async () => {
    const read = await handlers.read!(ctx, "CERT202611220000000001", outs as never);
    expect(read.props?.verificationMethod).toBe("email-admin");
  });

  it("delete sends a reason within the client's cap that names the resource, not its URN", async () => {
    const longParent = `urn:pulumi:a-very-long-stack-name-${"x".repeat(200)}::proj::${"parent$".repeat(20)}pulumi-nodejs:dynamic/certreseller:Order::site`;
    await handlers.delete!(ctx, "CERT202611220000000001", { ...(outs as object), journalKey: longParent } as never);
    const reason = forms.CancelOrder![0]!.get("reason")!;
    expect(reason).toBe('pulumi: Order "site" destroyed or replaced');
    expect(lines.join("\n")).toMatch(/order CERT202611220000000001 cancelled; refunded an amount not reported to the account/);
  });
});

describe("CreateOrder answers that are not a clean success", () => {
  let odd: ScriptedServer;
  let answer: () => ScriptedAnswer;
  let oddCtx: ProviderContext;
  beforeAll(async () => {
    odd = await ScriptedServer.start(
      byOperation({
        GetUserData: () => userData("ak_wiretest"),
        GetUserProduct: () => productList([wireProduct("wire-single", "single")]),
        CreateOrder: () => answer(),
      }),
    );
    oddCtx = createContext({ type: "Order", settings: { apiKey: "ak_wiretest:secret", baseUrl: odd.url, journalDir }, sink: () => {} });
  });
  afterAll(async () => odd?.close());
  const plan = async (name: string) => {
    const checked = await handlers.check!(oddCtx, {} as OrderInputs, { journalKey: `p/s/${name}`, productCode: "wire-single", domain: `${name}.example.com` } as unknown as OrderInputs);
    expect(checked.failures).toEqual([]);
    return { ...checked.inputs!, __provider: PROVIDER_TEXT };
  };

  // A known order number is kept (not "may have been charged"): the order is in the journal and resumed by the next up.
  it("a success envelope under an HTTP error status: the order it names is kept in the journal and resumed, never 'may have been charged'", async () => {
    answer = () => ({ status: 502, headers: { "content-type": "application/json" }, body: JSON.stringify({ code: 200, message: "ok", data: { order_no: "CERT202611220000000777" } }) });
    const inputs = await plan("bad-gateway");
    const error = (await handlers.create(oddCtx, inputs).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/CERT202611220000000777/);
    expect(error.message).toMatch(/the order exists.*next `pulumi up` resumes it/);
    expect(error.message).not.toMatch(/may have been charged/i);
    expect((await new PurchaseJournal(journalDir).read(inputs.journalKey))?.orderNo).toBe("CERT202611220000000777");
  });

  // Only the API's own envelope is evidence: a 429 page from something in front of it may have forwarded the request.
  it("an HTML 429 page (not the API's envelope) proves nothing: the journal keeps the intent and the user is told to check", async () => {
    answer = () => ({ status: 429, headers: { "content-type": "text/html" }, body: "<html>Too Many Requests</html>" });
    const inputs = await plan("limited");
    const error = (await handlers.create(oddCtx, inputs).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/Your account MAY have been charged/);
    expect(error.message).not.toMatch(/nothing was bought/);
    expect((await new PurchaseJournal(journalDir).read(inputs.journalKey))?.intentAt).toBeDefined();
  });

  it("the API's own 429 envelope is a refusal: nothing bought, no journal entry", async () => {
    answer = () => apiError(429, "too many requests", { retry_after: 5 });
    const inputs = await plan("limited-by-api");
    const error = (await handlers.create(oddCtx, inputs).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/CreateOrder was refused, nothing was bought: CreateOrder rate_limited/);
    expect(await new PurchaseJournal(journalDir).read(inputs.journalKey)).toBeUndefined();
  });

  it("the API's own refusal (envelope code 400) clears the journal entry and names the field", async () => {
    answer = () => apiError(400, "insufficient balance", { field: "payment_method" });
    const inputs = await plan("refused");
    const error = (await handlers.create(oddCtx, inputs).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/CreateOrder was refused, nothing was bought: CreateOrder invalid_request 400: .*insufficient balance \(field payment_method\)/);
    expect(await new PurchaseJournal(journalDir).read(inputs.journalKey)).toBeUndefined();
  });
});
