// The plugin's gRPC service against the sandbox, called as the engine calls
// it (ResourceProviderClient over a real loopback connection): every RPC the
// plugin implements, with secrets crossing as Pulumi's sentinel values.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startSandbox, type RunningSandbox } from "certreseller-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManagementClient } from "../../../tests/support/sandbox-management.js";
// The built package, as the plugin's bin runs it: the entry loads the handler modules by their built paths.
import { grpc, proto } from "pulumi-certreseller/dist/plugin/protocol.js";
import { CertresellerProvider, pluginVersion } from "pulumi-certreseller/dist/plugin/server.js";
import { SECRET_SIG, SIG_KEY } from "pulumi-certreseller/dist/plugin/wire.js";

const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });
const Struct = proto.struct.Struct;
const urnOf = (type: string, name: string) => `urn:pulumi:dev::plugin-test::${type}::${name}`;

describe("plugin gRPC service", () => {
  let sandbox: RunningSandbox;
  let server: InstanceType<typeof grpc.Server>;
  let client: any;
  let journalDir: string;

  /** One unary call; resolves with the response, rejects with the gRPC error. */
  function call<T = any>(method: string, request: unknown): Promise<T> {
    return new Promise((resolve, reject) => client[method](request, (error: unknown, response: T) => (error ? reject(error) : resolve(response))));
  }

  function resourceRequest<R>(Message: new () => R, fields: Record<string, unknown>): R {
    const request = new Message() as any;
    for (const [key, value] of Object.entries(fields)) {
      const setter = `set${key[0]!.toUpperCase()}${key.slice(1)}`;
      request[setter](value !== null && typeof value === "object" && !Array.isArray(value) ? Struct.fromJavaScript(value) : value);
    }
    return request as R;
  }

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, validation: "auto", issueAfterSeconds: 0, statusCooldownSeconds: 0, methodCooldownSeconds: 0 });
    journalDir = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-journal-"));
    server = new grpc.Server();
    server.addService(proto.providerService.ResourceProviderService, new CertresellerProvider().service() as never);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    client = new proto.providerService.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  });

  afterAll(async () => {
    client?.close();
    server?.forceShutdown();
    await sandbox?.stop();
    fs.rmSync(journalDir, { recursive: true, force: true });
  });

  it("GetPluginInfo and GetSchema report the package and its version", async () => {
    expect((await call("getPluginInfo", new proto.empty.Empty())).getVersion()).toBe(pluginVersion());
    const request = new proto.provider.GetSchemaRequest();
    const schema = JSON.parse((await call("getSchema", request)).getSchema());
    expect(schema.name).toBe("certreseller");
    expect(schema.version).toBe(pluginVersion());
    expect(Object.keys(schema.resources)).toContain("certreseller:index:Order");
  });

  it("CheckConfig names a bad setting; DiffConfig never replaces the provider", async () => {
    const checked = await call("checkConfig", resourceRequest(proto.provider.CheckRequest, { urn: urnOf("pulumi:providers:certreseller", "p"), olds: {}, news: { apiKey: "ak_1:s", allowInsecureHttp: "perhaps" } }));
    expect(checked.getFailuresList().map((f: any) => f.getProperty())).toEqual(["allowInsecureHttp"]);
    // The key comes back a secret even when it arrived plain.
    expect(checked.getInputs().toJavaScript().apiKey).toEqual(secret("ak_1:s"));
    const diff = await call("diffConfig", resourceRequest(proto.provider.DiffRequest, { urn: "u", olds: { apiKey: "a" }, news: { apiKey: "b" } }));
    expect(diff.getChanges()).toBe(proto.provider.DiffResponse.DiffChanges.DIFF_SOME);
    expect(diff.getReplacesList()).toEqual([]);
  });

  it("Configure takes an explicit provider's arguments (a secret key), then Check, Create, Read (import), Invoke and Delete run under that account", async () => {
    const account = sandbox.accounts[1]!;
    const configure = new proto.provider.ConfigureRequest();
    configure.setArgs(Struct.fromJavaScript({ apiKey: secret(account.apiKey), baseUrl: sandbox.url, journalDir, organization: "plugin-test" } as never));
    const configured = await call("configure", configure);
    expect(configured.getAcceptsecrets()).toBe(true);

    const orderUrn = urnOf("certreseller:index:Order", "site");
    const bad = await call("check", resourceRequest(proto.provider.CheckRequest, { urn: orderUrn, type: "certreseller:index:Order", olds: {}, news: { productCode: "sandbox-dv-single", domain: "not a domain" } }));
    expect(bad.getFailuresList().map((f: any) => f.getProperty())).toContain("domain");

    const checked = await call("check", resourceRequest(proto.provider.CheckRequest, { urn: orderUrn, type: "certreseller:index:Order", olds: {}, news: { productCode: "sandbox-dv-single", domain: "plugin.example.com" } }));
    expect(checked.getFailuresList()).toEqual([]);
    const inputs = checked.getInputs().toJavaScript();
    expect(inputs).toMatchObject({ journalKey: orderUrn, keySpec: "rsa-2048", months: 12, quotedPrice: expect.any(String) });

    const created = await call("create", resourceRequest(proto.provider.CreateRequest, { urn: orderUrn, type: "certreseller:index:Order", properties: inputs }));
    const orderNo = created.getId();
    const order = created.getProperties().toJavaScript();
    expect(order).toMatchObject({ orderNo, accountId: account.apiKey.split(":")[0], price: expect.objectContaining({ discount: expect.any(String) }) });

    const certUrn = urnOf("certreseller:index:Certificate", "site");
    const certInputs = (await call("check", resourceRequest(proto.provider.CheckRequest, { urn: certUrn, type: "certreseller:index:Certificate", olds: {}, news: { orderNo, pfxPassword: secret("pfx-pass"), outputFormats: ["fullChainPem", "privateKeyPkcs8Pem", "combinedPem", "pkcs12"] } })))
      .getInputs()
      .toJavaScript();
    expect(certInputs.pfxPassword).toEqual(secret("pfx-pass"));
    const certificate = (await call("create", resourceRequest(proto.provider.CreateRequest, { urn: certUrn, type: "certreseller:index:Certificate", properties: certInputs }))).getProperties().toJavaScript();
    for (const key of ["privateKeyPem", "privateKeyPkcs8Pem", "combinedPem", "pfxBase64", "pfxPassword"]) expect(certificate[key], key).toMatchObject({ [SIG_KEY]: SECRET_SIG });
    expect(certificate.pfxPassword.value).toBe("pfx-pass");
    expect(certificate.fullChainPem).toMatch(/BEGIN CERTIFICATE[\s\S]+BEGIN CERTIFICATE/);
    expect(certificate.serialNumber).toMatch(/^[0-9A-F]+$/);
    // Every output the schema says is always set is there: what the TypeScript class computes in the program, the plugin computes.
    const schema = JSON.parse((await call("getSchema", new proto.provider.GetSchemaRequest())).getSchema());
    for (const [token, properties] of [["certreseller:index:Certificate", certificate], ["certreseller:index:Order", order]] as const) {
      expect(schema.resources[token].required.filter((name: string) => !(name in properties)), token).toEqual([]);
    }

    const imported = await call("read", resourceRequest(proto.provider.ReadRequest, { id: orderNo, urn: urnOf("certreseller:index:Order", "again"), type: "certreseller:index:Order" }));
    expect(imported.getInputs().toJavaScript()).toEqual({ productCode: "sandbox-dv-single", domain: "plugin.example.com", verificationMethod: "dns", adoptOrderNo: orderNo });
    expect(imported.getProperties().toJavaScript()).toMatchObject({ orderNo, adopted: true });

    const invoked = await call("invoke", resourceRequest(proto.provider.InvokeRequest, { tok: "certreseller:index:getAccount", args: {} }));
    expect(invoked.getReturn().toJavaScript().apiKey.appId).toBe(account.apiKey.split(":")[0]);
    const products = await call("invoke", resourceRequest(proto.provider.InvokeRequest, { tok: "certreseller:index:getProducts", args: { productCode: "sandbox-dv-single" } }));
    expect(products.getReturn().toJavaScript().products.map((p: { productCode: string }) => p.productCode)).toEqual(["sandbox-dv-single"]);

    await call("delete", resourceRequest(proto.provider.DeleteRequest, { id: orderNo, urn: orderUrn, type: "certreseller:index:Order", properties: order }));
    expect((await new ManagementClient(sandbox.managementUrl).order(orderNo)).refund).toMatchObject({ mode: "direct" });
  });

  it("a Certificate reports the heavy derived forms only when outputFormats lists them; a state holding every form (an earlier release) shows no diff", async () => {
    const configure = new proto.provider.ConfigureRequest();
    configure.setArgs(Struct.fromJavaScript({ apiKey: secret(sandbox.accounts[0]!.apiKey), baseUrl: sandbox.url, journalDir, organization: "plugin-test" } as never));
    await call("configure", configure);
    const orderUrn = urnOf("certreseller:index:Order", "formats");
    const orderInputs = (await call("check", resourceRequest(proto.provider.CheckRequest, { urn: orderUrn, type: "certreseller:index:Order", olds: {}, news: { productCode: "sandbox-dv-single", domain: "formats.example.com" } }))).getInputs().toJavaScript();
    const orderNo = (await call("create", resourceRequest(proto.provider.CreateRequest, { urn: orderUrn, type: "certreseller:index:Order", properties: orderInputs }))).getId();
    const certUrn = urnOf("certreseller:index:Certificate", "formats");
    const check = async (news: Record<string, unknown>) => call("check", resourceRequest(proto.provider.CheckRequest, { urn: certUrn, type: "certreseller:index:Certificate", olds: {}, news }));

    const bad = await check({ orderNo, outputFormats: ["pem", "pkcs12"] });
    expect(bad.getFailuresList().map((f: any) => [f.getProperty(), f.getReason()])).toEqual([
      ["outputFormats", 'outputFormats must be a list of "fullChainPem", "privateKeyPkcs8Pem", "combinedPem", "pkcs12"; got ["pem","pkcs12"]'],
    ]);
    // A presentation input without a parse rule is held to its declared type, as the shared check holds the others; a secret is not quoted.
    const badPassword = await check({ orderNo, pfxPassword: 12345678 });
    expect(badPassword.getFailuresList().map((f: any) => [f.getProperty(), f.getReason()])).toEqual([["pfxPassword", "pfxPassword must be a string, not a number"]]);
    // Sent in plain (a program that did not mark it), it is stored as a secret input all the same, as the schema says.
    expect((await check({ orderNo, pfxPassword: "plain-pass" })).getInputs().toJavaScript().pfxPassword).toEqual(secret("plain-pass"));

    // Unset: the full chain and the cheap facts, nothing key-bearing derived.
    const plainInputs = (await check({ orderNo })).getInputs().toJavaScript();
    const created = await call("create", resourceRequest(proto.provider.CreateRequest, { urn: certUrn, type: "certreseller:index:Certificate", properties: plainInputs }));
    const plain = created.getProperties().toJavaScript();
    expect(plain.fullChainPem).toMatch(/BEGIN CERTIFICATE[\s\S]+BEGIN CERTIFICATE/);
    expect(plain.serialNumber).toMatch(/^[0-9A-F]+$/);
    for (const key of ["privateKeyPkcs8Pem", "combinedPem", "pfxBase64", "pfxPassword"]) expect(plain, key).not.toHaveProperty(key);

    // Asking for every form (listed twice, out of order: kept once, in the declared order) is an update that reports them.
    const allInputs = (await check({ orderNo, outputFormats: ["pkcs12", "combinedPem", "privateKeyPkcs8Pem", "pkcs12"] })).getInputs().toJavaScript();
    expect(allInputs.outputFormats).toEqual(["privateKeyPkcs8Pem", "combinedPem", "pkcs12"]);
    const id = created.getId();
    const asked = await call("diff", resourceRequest(proto.provider.DiffRequest, { id, urn: certUrn, type: "certreseller:index:Certificate", olds: plain, oldInputs: plainInputs, news: allInputs }));
    expect([asked.getChanges(), asked.getReplacesList(), asked.getDiffsList()]).toEqual([proto.provider.DiffResponse.DiffChanges.DIFF_SOME, [], ["outputFormats"]]);
    const updated = (await call("update", resourceRequest(proto.provider.UpdateRequest, { id, urn: certUrn, type: "certreseller:index:Certificate", olds: plain, news: allInputs }))).getProperties().toJavaScript();
    for (const key of ["privateKeyPkcs8Pem", "combinedPem", "pfxBase64", "pfxPassword"]) expect(updated[key], key).toMatchObject({ [SIG_KEY]: SECRET_SIG });
    expect(updated).not.toHaveProperty("fullChainPem");

    // The earlier release's state: every form stored, no outputFormats among the inputs. The same program shows no change.
    const olderState = { ...updated, fullChainPem: plain.fullChainPem };
    const quiet = await call("diff", resourceRequest(proto.provider.DiffRequest, { id, urn: certUrn, type: "certreseller:index:Certificate", olds: olderState, oldInputs: plainInputs, news: plainInputs }));
    expect(quiet.getChanges()).toBe(proto.provider.DiffResponse.DiffChanges.DIFF_NONE);
    // Its next answer (a refresh) drops what was not asked for.
    const refreshed = (await call("read", resourceRequest(proto.provider.ReadRequest, { id, urn: certUrn, type: "certreseller:index:Certificate", properties: olderState, inputs: plainInputs }))).getProperties().toJavaScript();
    expect(Object.keys(refreshed).filter((k) => ["fullChainPem", "privateKeyPkcs8Pem", "combinedPem", "pfxBase64", "pfxPassword"].includes(k))).toEqual(["fullChainPem"]);
  });

  it("an unknown type fails naming the types served", async () => {
    await expect(call("check", resourceRequest(proto.provider.CheckRequest, { urn: urnOf("certreseller:index:Nope", "x"), type: "certreseller:index:Nope", olds: {}, news: {} }))).rejects.toThrow(
      /certreseller:index:Order/,
    );
  });
});
