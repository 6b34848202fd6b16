// The plugin's watch on its engine, against a real gRPC server on loopback
// standing in for the engine: an engine that answers (even without the
// health service) is alive; one that went away is gone after the set number
// of silent checks; a provider whose engine is gone starts no operation.
import { afterEach, describe, expect, it } from "vitest";
import { engineAnswers, watchEngine } from "../../src/plugin/engine-watch.js";
import { grpc } from "../../src/plugin/protocol.js";
import { CertresellerProvider } from "../../src/plugin/server.js";
import { proto } from "../../src/plugin/protocol.js";

async function fakeEngine(): Promise<{ address: string; server: InstanceType<typeof grpc.Server> }> {
  const server = new grpc.Server();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return { address: `127.0.0.1:${port}`, server };
}

describe("the plugin watches its engine", () => {
  const stops: (() => void)[] = [];
  afterEach(() => stops.splice(0).forEach((stop) => stop()));

  it("an engine that answers (UNIMPLEMENTED too) is alive; a stopped one is gone after the silent checks", async () => {
    const engine = await fakeEngine();
    const client = new grpc.Client(engine.address, grpc.credentials.createInsecure());
    expect(await engineAnswers(client)).toBe(true);
    let gone = 0;
    stops.push(watchEngine(engine.address, () => gone++, { intervalMs: 50, failures: 3 }));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(gone).toBe(0);
    engine.server.forceShutdown();
    expect(await engineAnswers(client)).toBe(false);
    client.close();
    const started = Date.now();
    while (gone === 0 && Date.now() - started < 10_000) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(gone).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(gone, "onGone is called once").toBe(1);
  });

  it("once the engine is gone, no create starts", async () => {
    const provider = new CertresellerProvider();
    await provider.engineGone(0);
    const request = new proto.provider.CreateRequest();
    request.setUrn("urn:pulumi:dev::p::certreseller:index:Order::o");
    request.setType("certreseller:index:Order");
    request.setProperties(proto.struct.Struct.fromJavaScript({ domain: "a.example.com", productCode: "p" }));
    const service = provider.service() as Record<string, (call: { request: unknown }, callback: (error: any) => void) => void>;
    const error = await new Promise<any>((resolve) => service.create!({ request }, (e) => resolve(e)));
    expect(error?.message).toMatch(/engine that started this provider plugin is gone.*create was not started/);
  });
});
