// Rfc2136Record through the provider plugin's gRPC service (what a Pulumi
// YAML, Go, Python or C# program reaches as certreseller:index:Rfc2136Record),
// called as the engine calls it, against the scripted DNS server: the secret
// comes back wrapped as a secret from Check and in every answer, the
// defaults are filled in, and Create, Update and Delete send what the
// TypeScript resource sends.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grpc, proto } from "pulumi-certreseller/dist/plugin/protocol.js";
import { CertresellerProvider } from "pulumi-certreseller/dist/plugin/server.js";
import { SECRET_SIG, SIG_KEY } from "pulumi-certreseller/dist/plugin/wire.js";
import { parseTsigSecret } from "../../src/dns/tsig.js";
import { startFakeDnsServer, type FakeDnsServer } from "../support/fake-dns-server.js";

const TOKEN = "certreseller:index:Rfc2136Record";
const SECRET = Buffer.from("the plugin test's TSIG secret, 32").toString("base64");
const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });
const Struct = proto.struct.Struct;
const urn = `urn:pulumi:dev::plugin-test::${TOKEN}::dcv`;

describe("plugin: certreseller:index:Rfc2136Record", () => {
  let dns: FakeDnsServer;
  let server: InstanceType<typeof grpc.Server>;
  let client: any;

  function call<T = any>(method: string, fields: Record<string, unknown>, Message: new () => unknown): Promise<T> {
    const request = new Message() as any;
    for (const [key, value] of Object.entries(fields)) {
      request[`set${key[0]!.toUpperCase()}${key.slice(1)}`](value !== null && typeof value === "object" ? Struct.fromJavaScript(value as never) : value);
    }
    return new Promise((resolve, reject) => client[method](request, (error: unknown, response: T) => (error ? reject(error) : resolve(response))));
  }

  beforeAll(async () => {
    dns = await startFakeDnsServer({ name: "plugin-key.", algorithm: "hmac-sha256", secret: parseTsigSecret(SECRET)! });
    server = new grpc.Server();
    server.addService(proto.providerService.ResourceProviderService, new CertresellerProvider().service() as never);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    client = new proto.providerService.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    await call("configure", { args: {} }, proto.provider.ConfigureRequest);
  });

  afterAll(async () => {
    client?.close();
    server?.forceShutdown();
    await dns?.close();
  });

  it("is in the schema, with tsigSecret secret", async () => {
    const schema = JSON.parse((await call<any>("getSchema", {}, proto.provider.GetSchemaRequest)).getSchema());
    expect(schema.resources[TOKEN].inputProperties.tsigSecret.secret).toBe(true);
    expect(schema.resources[TOKEN].requiredInputs).toEqual(["server", "zone", "fqdn", "type", "value", "tsigKeyName", "tsigSecret"]);
  });

  it("Check names a bad input; Check, Create, Update and Delete publish, replace in one update and remove the record", async () => {
    const news = { server: dns.address, zone: "example.com", fqdn: "_dnsauth.www.example.com", type: "TXT", value: "token-1", tsigKeyName: "plugin-key.", tsigSecret: SECRET };
    const bad = await call<any>("check", { urn, type: TOKEN, olds: {}, news: { ...news, fqdn: "_dnsauth.example.org" } }, proto.provider.CheckRequest);
    expect(bad.getFailuresList().map((f: any) => f.getProperty())).toEqual(["fqdn"]);

    // A secret sent plain (a YAML program that forgot `secret: true`) comes back a secret all the same.
    const checked = (await call<any>("check", { urn, type: TOKEN, olds: {}, news }, proto.provider.CheckRequest)).getInputs().toJavaScript();
    expect(checked).toMatchObject({ ttl: 60, tsigAlgorithm: "hmac-sha256", tsigSecret: secret(SECRET) });

    const created = await call<any>("create", { urn, type: TOKEN, properties: checked }, proto.provider.CreateRequest);
    const outs = created.getProperties().toJavaScript();
    expect(outs.tsigSecret).toEqual(secret(SECRET));
    expect(outs.preExisting).toBe(false);
    expect(dns.received.at(-1)!.records).toEqual([{ name: "_dnsauth.www.example.com", type: "TXT", class: "IN", ttl: 60, data: "token-1" }]);

    const next = (await call<any>("check", { urn, type: TOKEN, olds: checked, news: { ...news, value: "token-2" } }, proto.provider.CheckRequest)).getInputs().toJavaScript();
    const diff = await call<any>("diff", { id: created.getId(), urn, type: TOKEN, olds: outs, news: next }, proto.provider.DiffRequest);
    expect(diff.getReplacesList()).toEqual([]);
    const updated = (await call<any>("update", { id: created.getId(), urn, type: TOKEN, olds: outs, news: next }, proto.provider.UpdateRequest)).getProperties().toJavaScript();
    expect(dns.received.at(-1)!.records.map((r) => `${r.class} ${r.data}`)).toEqual(["NONE token-1", "IN token-2"]);

    await call("delete", { id: created.getId(), urn, type: TOKEN, properties: updated }, proto.provider.DeleteRequest);
    expect(dns.received.at(-1)!.records.map((r) => `${r.class} ${r.data}`)).toEqual(["NONE token-2"]);
  });
});
