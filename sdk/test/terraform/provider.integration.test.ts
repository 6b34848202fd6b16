// The Terraform provider half driven directly (createProvider(), no terraform
// binary): plan as the preview, apply against the sandbox, the journal key
// across provider processes, a failure after CreateOrder kept in state and
// resumed, import and destroy. Each `createProvider()` stands for one of the
// processes Terraform starts (plan, then apply in a fresh one).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startSandbox, type RunningSandbox } from "certreseller-sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ManagementClient } from "../../../tests/support/sandbox-management.js";
// The built package, as the provider's bin runs it: the entry loads the handler modules by their built paths.
import { UNKNOWN, type TerraformProvider, type TfObject, type TfValue } from "pulumi-certreseller/dist/terraform/contract.js";
import { createProvider } from "pulumi-certreseller/dist/terraform/provider.js";
import { terraformSchema } from "pulumi-certreseller/dist/terraform/schema.js";

const schema = terraformSchema();

/** A configuration as the wire half decodes one: every attribute of the block, null where HCL leaves it out. */
function objectOf(block: { attributes: Record<string, unknown> }, values: Record<string, TfValue>): TfObject {
  return Object.fromEntries(Object.keys(block.attributes).map((name) => [name, values[name] ?? null]));
}
const resourceConfig = (typeName: string, values: Record<string, TfValue>) => objectOf(schema.resources[typeName]!, values);

const decode = (bytes: Uint8Array | undefined) => (bytes ? JSON.parse(new TextDecoder().decode(bytes)) : {});

describe("Terraform provider against the sandbox", () => {
  let sandbox: RunningSandbox;
  let management: ManagementClient;
  let journalDir: string;
  let workDir: string;
  let apiKey: string;

  /** One provider process, configured from HCL, in the module's directory. */
  async function provider(settings: Record<string, TfValue> = {}): Promise<TerraformProvider> {
    const p = createProvider({ env: { HOME: os.homedir() }, cwd: workDir });
    const diagnostics = await p.configure(objectOf(schema.provider, { api_key: apiKey, base_url: sandbox.url, journal_dir: journalDir, ...settings }), "1.13.0");
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    return p;
  }

  async function plan(p: TerraformProvider, typeName: string, config: TfObject, prior: TfObject | null = null, priorPrivate?: Uint8Array) {
    return p.planResourceChange({ typeName, priorState: prior, proposedNewState: config, config, ...(priorPrivate ? { priorPrivate } : {}) });
  }

  /** The journal's entries (not its resumed marks) that name `orderNo`. */
  const journalEntriesNaming = (orderNo: string) =>
    fs.readdirSync(journalDir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".json") && fs.readFileSync(path.join(journalDir, f), "utf8").includes(orderNo));

  const createOrders = async () => (await management.operationCounts()).CreateOrder ?? 0;
  const errors = (diagnostics: readonly { severity: string }[] | undefined) => (diagnostics ?? []).filter((d) => d.severity === "error");

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, validation: "auto", issueAfterSeconds: 0, statusCooldownSeconds: 0, methodCooldownSeconds: 0 });
    management = new ManagementClient(sandbox.managementUrl);
    apiKey = sandbox.accounts[0]!.apiKey;
    journalDir = fs.mkdtempSync(path.join(os.tmpdir(), "tf-journal-"));
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), "tf-module-"));
  });

  afterAll(async () => {
    await sandbox?.stop();
    fs.rmSync(journalDir, { recursive: true, force: true });
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    await management.clearFaults();
    await management.clearRequests();
  });

  it("plans a create with the price known, the same in a second provider process (the re-plan inside apply)", async () => {
    const config = resourceConfig("certreseller_order", { product_code: "sandbox-dv-single", domain: "plan.example.com" });
    const first = await plan(await provider(), "certreseller_order", config);
    expect(errors(first.diagnostics)).toEqual([]);
    expect(first.plannedState).toMatchObject({ quoted_price: expect.stringMatching(/^\d+\.\d\d$/), months: 12, key_spec: "rsa-2048", order_no: UNKNOWN, id: UNKNOWN });
    // The money line is a warning: Terraform shows it with the plan.
    expect(first.diagnostics!.map((d) => d.summary).join("\n")).toMatch(/will buy sandbox-dv-single/);
    const again = await plan(await provider(), "certreseller_order", config);
    expect(again.plannedState).toEqual(first.plannedState);
    expect(await createOrders()).toBe(0);
  });

  it("refuses bad input at plan, naming the attribute, with nothing bought", async () => {
    const p = await provider();
    const bad = await plan(p, "certreseller_order", resourceConfig("certreseller_order", { product_code: "sandbox-dv-single", domain: "not a domain" }));
    expect(bad.plannedState).toBeNull();
    expect(errors(bad.diagnostics).map((d) => (d as { attribute?: unknown }).attribute)).toContainEqual(["domain"]);
    const unknownProduct = await plan(p, "certreseller_order", resourceConfig("certreseller_order", { product_code: "sandbox-dv-singel", domain: "typo.example.com" }));
    expect(errors(unknownProduct.diagnostics)[0]!.summary).toMatch(/product_code: "sandbox-dv-singel" is not in this account's product list; nearest: sandbox-dv-single/);
    expect((await validate(p, { product_code: "x", domain: "ok.example.com", months: 0 }))[0]).toMatchObject({ severity: "error", attribute: ["months"] });
    expect(await createOrders()).toBe(0);
    expect(await management.orders()).toEqual([]);
  });

  async function validate(p: TerraformProvider, values: Record<string, TfValue>) {
    return p.validateResourceConfig("certreseller_order", resourceConfig("certreseller_order", values));
  }

  it("refuses a malformed provider setting, naming its attribute", async () => {
    const p = createProvider({ cwd: workDir });
    const refused = await p.configure(objectOf(schema.provider, { api_key: apiKey, base_url: "ftp://nowhere", allow_insecure_http: null }), "1.13.0");
    expect(refused).toContainEqual(expect.objectContaining({ severity: "error", attribute: ["base_url"], summary: expect.stringMatching(/base_url.*must be an http\(s\) URL/) }));
    expect(JSON.stringify(refused)).not.toContain(apiKey);
  });

  it("refuses a configuration error at plan (no key) with the preview's message", async () => {
    const p = await provider({ api_key: null });
    const planned = await plan(p, "certreseller_order", resourceConfig("certreseller_order", { product_code: "sandbox-dv-single", domain: "nokey.example.com" }));
    expect(errors(planned.diagnostics).map((d) => d.summary).join("\n")).toMatch(/could not read the product list: .*`api_key` in the provider block or the environment variable CERTRESELLER_API_KEY.*Nothing is bought/);
    expect(errors(planned.diagnostics).map((d) => d.summary).join("\n")).not.toMatch(/pulumi/);
  });

  it("refuses a refused key and a base URL that does not answer as the API at plan, before anything is bought", async () => {
    const config = resourceConfig("certreseller_order", { product_code: "sandbox-dv-single", domain: "config.example.com" });
    const refusedKey = await plan(await provider({ api_key: "ak_nobody:0000000000000000" }), "certreseller_order", config);
    expect(errors(refusedKey.diagnostics).map((d) => d.summary).join("\n")).toMatch(/could not read the product list: the service refused the API key .*set the provider's `api_key` \(or CERTRESELLER_API_KEY\).*Nothing is bought/);
    expect(JSON.stringify(refusedKey)).not.toContain("0000000000000000");
    const notTheApi = await plan(await provider({ base_url: `${sandbox.managementUrl}/no-such-api` }), "certreseller_order", config);
    expect(errors(notTheApi.diagnostics).map((d) => d.summary).join("\n")).toMatch(/could not read the product list: .*base_url|could not read the product list: .*Nothing is bought/);
    expect(await createOrders()).toBe(0);
  });

  it("refuses two planned creates under one journal key, and takes them with distinct journal_ref", async () => {
    const p = await provider();
    const config = resourceConfig("certreseller_order", { product_code: "sandbox-dv-single", domain: "twice.example.com" });
    expect(errors((await plan(p, "certreseller_order", config)).diagnostics)).toEqual([]);
    const second = await plan(p, "certreseller_order", config);
    expect(errors(second.diagnostics)[0]).toMatchObject({ summary: expect.stringMatching(/two instances planned in this run buy sandbox-dv-single for twice.example.com/), attribute: ["journal_ref"] });
    expect(errors(second.diagnostics)[0]!.detail).toMatch(/journal_ref = each.key/);
    const q = await provider();
    for (const ref of ["a", "b"]) expect(errors((await plan(q, "certreseller_order", { ...config, journal_ref: ref })).diagnostics)).toEqual([]);
  });

  it("buys once, with the journal key the same in every provider process (and another with journal_ref), then destroys with a refund", async () => {
    const config = resourceConfig("certreseller_order", { product_code: "sandbox-dv-single", domain: "buy.example.com" });
    const planned = await plan(await provider(), "certreseller_order", config);
    const applier = await provider();
    const final = await plan(applier, "certreseller_order", config); // the re-plan inside apply
    expect(final.plannedState).toEqual(planned.plannedState);
    const created = await applier.applyResourceChange({ typeName: "certreseller_order", priorState: null, plannedState: final.plannedState, config, plannedPrivate: final.plannedPrivate });
    expect(errors(created.diagnostics)).toEqual([]);
    expect(await createOrders()).toBe(1);
    const state = created.newState!;
    expect(state).toMatchObject({ id: state.order_no, order_no: expect.stringMatching(/\w+/), quoted_price: planned.plannedState!.quoted_price, domain: "buy.example.com", months: 12 });
    const key = decode(created.private).hidden.journalKey;
    expect(key).toBe("urn:pulumi:default::terraform::certreseller:index:Order::sandbox-dv-single:buy.example.com");
    expect(decode(created.private).hidden.journalScope).toBe("org=terraform");

    // A refresh then a no-change plan: the same state, nothing bought; the refresh tidied the journal entry (the state holds the order).
    expect(journalEntriesNaming(String(state.order_no))).toHaveLength(1);
    const refreshed = await (await provider()).readResource("certreseller_order", state, created.private);
    expect(errors(refreshed.diagnostics)).toEqual([]);
    expect(journalEntriesNaming(String(state.order_no))).toEqual([]);
    const noChange = await plan(await provider(), "certreseller_order", config, refreshed.newState, refreshed.private);
    expect(noChange.requiresReplace ?? []).toEqual([]);
    expect(noChange.plannedState).toEqual(refreshed.newState);

    // An input whose change rule is none: the new value in state, nothing sent that changes the order.
    const renewing = { ...config, renew_before_days: 30 };
    const nonePlan = await plan(await provider(), "certreseller_order", renewing, refreshed.newState, refreshed.private);
    expect(nonePlan.requiresReplace ?? []).toEqual([]);
    expect(nonePlan.plannedState).toEqual({ ...refreshed.newState, renew_before_days: 30 });
    await management.clearRequests();
    const noneApplied = await (await provider()).applyResourceChange({ typeName: "certreseller_order", priorState: refreshed.newState, plannedState: nonePlan.plannedState, config: renewing, plannedPrivate: nonePlan.plannedPrivate });
    expect(errors(noneApplied.diagnostics)).toEqual([]);
    expect(noneApplied.newState).toEqual(nonePlan.plannedState);
    const sent = await management.operationCounts();
    for (const operation of ["CreateOrder", "ApplySign", "ChangeVertificationMethod", "CancelOrder"]) expect(sent[operation] ?? 0, operation).toBe(0);

    // A purchase input changed: replace.
    const moved = await plan(await provider(), "certreseller_order", { ...config, months: 24 }, refreshed.newState, refreshed.private);
    expect(moved.requiresReplace).toContainEqual(["months"]);

    const destroyed = await (await provider()).applyResourceChange({ typeName: "certreseller_order", priorState: refreshed.newState, plannedState: null, config: null, plannedPrivate: refreshed.private });
    expect(errors(destroyed.diagnostics)).toEqual([]);
    expect(destroyed.newState).toBeNull();
    expect((await management.order(String(state.order_no))).refund).toBeTruthy();

    const withRef = await (await provider()).planResourceChange({ typeName: "certreseller_order", priorState: null, proposedNewState: { ...config, journal_ref: "site" }, config: { ...config, journal_ref: "site" } });
    expect(errors(withRef.diagnostics)).toEqual([]);
  });

  it("a failure after CreateOrder keeps the order in state with a warning (never an error: Terraform would taint it), and the next apply resumes it", async () => {
    const config = resourceConfig("certreseller_order", { product_code: "sandbox-dv-single", domain: "partial.example.com", journal_ref: "partial" });
    await management.setFaults({ ApplySign: { errorRate: 1, errorCode: 500, times: 1 } } as never);
    const p = await provider();
    const planned = await plan(p, "certreseller_order", config);
    const created = await p.applyResourceChange({ typeName: "certreseller_order", priorState: null, plannedState: planned.plannedState, config, plannedPrivate: planned.plannedPrivate });
    expect(errors(created.diagnostics)).toEqual([]);
    expect(created.newState).toMatchObject({ order_no: expect.any(String), id: expect.any(String) });
    expect(created.diagnostics!.map((d) => d.summary).join("\n")).toMatch(/bought and kept in state.*does NOT buy again/);
    expect(decode(created.private).pending).toMatch(/ApplySign/);
    expect(decode(created.private).hidden.journalKey).toMatch(/::ref=partial$/);
    expect(await createOrders()).toBe(1);

    // The next apply: its plan shows an update (not a replacement), which resumes with ApplySign.
    const next = await provider();
    const replan = await plan(next, "certreseller_order", config, created.newState, created.private);
    expect(errors(replan.diagnostics)).toEqual([]);
    expect(replan.requiresReplace ?? []).toEqual([]);
    expect(replan.plannedState).toMatchObject({ order_no: created.newState!.order_no, cert_status: UNKNOWN });
    const resumed = await next.applyResourceChange({ typeName: "certreseller_order", priorState: created.newState, plannedState: replan.plannedState, config, plannedPrivate: replan.plannedPrivate });
    expect(errors(resumed.diagnostics)).toEqual([]);
    expect(resumed.newState).toMatchObject({ order_no: created.newState!.order_no, request_id: expect.any(String) });
    expect(decode(resumed.private).pending).toBeUndefined();
    const counts = await management.operationCounts();
    expect(counts.CreateOrder).toBe(1);
    expect(counts.ApplySign).toBe(2);
  });

  it("a killed apply: the next apply, in another process, finds the purchase under the same key and resumes it (nothing bought twice)", async () => {
    const config = resourceConfig("certreseller_order", { product_code: "sandbox-dv-multi", domain: "killed.example.com", san_domains: ["www.killed.example.com"] });
    const killed = await provider();
    const planned = await plan(killed, "certreseller_order", config);
    expect(errors(planned.diagnostics)).toEqual([]);
    // The create ran (CreateOrder answered, the order number journaled) but Terraform never recorded its answer.
    const lost = await killed.applyResourceChange({ typeName: "certreseller_order", priorState: null, plannedState: planned.plannedState, config, plannedPrivate: planned.plannedPrivate });
    const orderNo = lost.newState!.order_no;
    const next = await provider();
    const replan = await plan(next, "certreseller_order", config);
    expect(errors(replan.diagnostics)).toEqual([]);
    expect(replan.diagnostics!.map((d) => d.summary).join("\n")).toMatch(new RegExp(`will resume order ${String(orderNo)}`));
    // The saved plan's one mark of a resume (what `certreseller-preview-money --terraform` reads as no charge): the order number, known.
    expect(replan.plannedState).toMatchObject({ order_no: orderNo, id: UNKNOWN });
    const resumed = await next.applyResourceChange({ typeName: "certreseller_order", priorState: null, plannedState: replan.plannedState, config, plannedPrivate: replan.plannedPrivate });
    expect(errors(resumed.diagnostics)).toEqual([]);
    expect(resumed.newState).toMatchObject({ order_no: orderNo, resumed_at: expect.any(String) });
    expect(await createOrders()).toBe(1);
  });

  it("plans a Validation and a Certificate whose order is planned in the same run (its outputs unknown)", async () => {
    const p = await provider();
    const validation = resourceConfig("certreseller_validation", { order_no: UNKNOWN, domains: ["later.example.com"], method: UNKNOWN, request_id: UNKNOWN });
    const vPlan = await plan(p, "certreseller_validation", validation);
    expect(errors(vPlan.diagnostics)).toEqual([]);
    expect(vPlan.plannedState).toMatchObject({ order_no: UNKNOWN, records: UNKNOWN });
    const certificate = resourceConfig("certreseller_certificate", { order_no: UNKNOWN, request_id: UNKNOWN });
    const cPlan = await plan(p, "certreseller_certificate", certificate);
    expect(errors(cPlan.diagnostics)).toEqual([]);
    expect(cPlan.plannedState).toMatchObject({ certificate_pem: UNKNOWN, private_key_pem: UNKNOWN });
  });

  it("imports an order by its number and a certificate, moving no money", async () => {
    const p = await provider();
    const config = resourceConfig("certreseller_order", { product_code: "sandbox-dv-single", domain: "import.example.com" });
    const planned = await plan(p, "certreseller_order", config);
    const created = await p.applyResourceChange({ typeName: "certreseller_order", priorState: null, plannedState: planned.plannedState, config, plannedPrivate: planned.plannedPrivate });
    const orderNo = String(created.newState!.order_no);
    await management.clearRequests();

    const q = await provider();
    const imported = await q.importResourceState("certreseller_order", orderNo);
    expect(errors(imported.diagnostics)).toEqual([]);
    expect(imported.imported[0]!.state).toMatchObject({ id: orderNo, order_no: orderNo, adopted: true, domain: "import.example.com", product_code: "sandbox-dv-single" });
    const certificate = await q.importResourceState("certreseller_certificate", orderNo);
    expect(errors(certificate.diagnostics)).toEqual([]);
    expect(certificate.imported[0]!.state).toMatchObject({ order_no: orderNo, certificate_pem: expect.stringMatching(/BEGIN CERTIFICATE/) });
    const counts = await management.operationCounts();
    expect(counts.CreateOrder ?? 0).toBe(0);
    expect(counts.CancelOrder ?? 0).toBe(0);
  });

  it("serves the Validation and Certificate after an Order (order_no from the Order), and the data sources", async () => {
    const p = await provider();
    const orderConfig = resourceConfig("certreseller_order", { product_code: "sandbox-dv-single", domain: "chain.example.com" });
    const planned = await plan(p, "certreseller_order", orderConfig);
    const order = (await p.applyResourceChange({ typeName: "certreseller_order", priorState: null, plannedState: planned.plannedState, config: orderConfig, plannedPrivate: planned.plannedPrivate })).newState!;

    const validationConfig = resourceConfig("certreseller_validation", { order_no: order.order_no, domains: ["chain.example.com"], method: order.verification_method, request_id: order.request_id });
    const vPlan = await plan(p, "certreseller_validation", validationConfig);
    expect(errors(vPlan.diagnostics)).toEqual([]);
    const validation = await p.applyResourceChange({ typeName: "certreseller_validation", priorState: null, plannedState: vPlan.plannedState, config: validationConfig, plannedPrivate: vPlan.plannedPrivate });
    expect(errors(validation.diagnostics)).toEqual([]);
    expect((validation.newState!.records as TfObject[])[0]).toMatchObject({ ordered_name: "chain.example.com", record_type: expect.any(String) });

    const certConfig = resourceConfig("certreseller_certificate", { order_no: order.order_no, request_id: order.request_id, output_formats: ["fullChainPem", "pkcs12"] });
    const cPlan = await plan(p, "certreseller_certificate", certConfig);
    expect(errors(cPlan.diagnostics)).toEqual([]);
    const certificate = await p.applyResourceChange({ typeName: "certreseller_certificate", priorState: null, plannedState: cPlan.plannedState, config: certConfig, plannedPrivate: cPlan.plannedPrivate });
    expect(errors(certificate.diagnostics)).toEqual([]);
    expect(certificate.newState).toMatchObject({ full_chain_pem: expect.stringMatching(/BEGIN CERTIFICATE/), pfx_base64: expect.any(String), pfx_password: expect.any(String), private_key_pem: expect.stringMatching(/PRIVATE KEY/) });
    // The forms not asked for are not kept (nothing secret stored that no call needs), and the private part (plaintext in state) holds no secret.
    expect(certificate.newState!.combined_pem).toBeNull();
    for (const answer of [validation, certificate]) {
      const hidden = Object.keys(decode(answer.private).hidden ?? {});
      expect(hidden.filter((name) => /secret|password|private|pfx|pem$/i.test(name) && name !== "csrPem"), JSON.stringify(hidden)).toEqual([]);
    }

    const account = await p.readDataSource("certreseller_account", objectOf(schema.dataSources.certreseller_account!, {}));
    expect(account.state).toMatchObject({ api_key: { app_id: apiKey.split(":")[0] } });
    const products = await p.readDataSource("certreseller_products", objectOf(schema.dataSources.certreseller_products!, { product_code: "sandbox-dv-single" }));
    expect((products.state!.products as TfObject[]).map((x) => x.product_code)).toEqual(["sandbox-dv-single"]);
  });
});
