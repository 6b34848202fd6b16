// The plugin's Create called as the engine calls it (a real loopback gRPC
// connection), cancelled while the Order's create waits in its account read
// before CreateOrder: that call buys nothing. Whether the whole process stops
// buying is the engine check's answer: a live engine keeps it buying, an
// unreachable one stops it. The sandbox holds the read (its fault knobs).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startSandbox, type RunningSandbox } from "certreseller-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManagementClient } from "../../../tests/support/sandbox-management.js";
// The built package, as the plugin's bin runs it.
import { grpc, proto } from "pulumi-certreseller/dist/plugin/protocol.js";
import { CertresellerProvider } from "pulumi-certreseller/dist/plugin/server.js";
import { openJournal } from "pulumi-certreseller/dist/journal/index.js";

const Struct = proto.struct.Struct;
const ORDER = "certreseller:index:Order";
const urnOf = (name: string) => `urn:pulumi:dev::plugin-test::${ORDER}::${name}`;
const HOLD_MS = 1_500;

describe("a cancelled Create through the plugin", () => {
  let sandbox: RunningSandbox;
  let management: ManagementClient;
  let journalDir: string;
  const closers: (() => void)[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      validation: "auto",
      issueAfterSeconds: 0,
      accounts: ["checks", "one", "two"].map((username) => ({ username, balance: "5000.00" })),
    });
    management = new ManagementClient(sandbox.managementUrl);
    journalDir = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-cancel-journal-"));
  });

  afterAll(async () => {
    for (const close of closers.splice(0)) close();
    await sandbox?.stop();
    fs.rmSync(journalDir, { recursive: true, force: true });
  });

  /** A provider served on loopback under `account`, and its client. */
  async function served(account: number, engineUnreachable: () => Promise<boolean>) {
    const server = new grpc.Server();
    server.addService(proto.providerService.ResourceProviderService, new CertresellerProvider({ engineUnreachable }).service() as never);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    const client = new proto.providerService.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as any;
    closers.push(() => {
      client.close();
      server.forceShutdown();
    });
    const call = <T = any>(method: string, request: unknown): Promise<T> =>
      new Promise((resolve, reject) => client[method](request, (error: unknown, response: T) => (error ? reject(error) : resolve(response))));
    const configure = new proto.provider.ConfigureRequest();
    configure.setArgs(Struct.fromJavaScript({ apiKey: sandbox.accounts[account]!.apiKey, baseUrl: sandbox.url, journalDir, organization: "plugin-test" } as never));
    await call("configure", configure);
    return { client, call };
  }

  /**
   * An Order's checked inputs, from a provider of another account: the
   * provider under test has then read neither the catalogue nor the account,
   * so its create reads both before CreateOrder.
   */
  async function checkedInputs(name: string, domain: string): Promise<Record<string, unknown>> {
    const { call } = await served(0, async () => false);
    const request = new proto.provider.CheckRequest();
    request.setUrn(urnOf(name));
    request.setType(ORDER);
    request.setOlds(Struct.fromJavaScript({}));
    request.setNews(Struct.fromJavaScript({ productCode: "sandbox-dv-single", domain }));
    const checked = await call("check", request);
    expect(checked.getFailuresList()).toEqual([]);
    return checked.getInputs().toJavaScript();
  }

  function createRequest(name: string, inputs: Record<string, unknown>) {
    const request = new proto.provider.CreateRequest();
    request.setUrn(urnOf(name));
    request.setType(ORDER);
    request.setProperties(Struct.fromJavaScript(inputs as never));
    return request;
  }

  /** Create, cancelled by the client once the sandbox holds the create's account read; resolves when the plugin has finished it. */
  async function cancelledCreate(provider: Awaited<ReturnType<typeof served>>, name: string, inputs: Record<string, unknown>) {
    await management.setFaults({ GetUserData: { latencyMs: HOLD_MS, times: 1 } });
    const answer = new Promise<any>((resolve) => {
      const pending = provider.client.create(createRequest(name, inputs), (error: unknown) => resolve(error));
      void (async () => {
        while ((await management.faults()).GetUserData !== undefined) await new Promise((r) => setTimeout(r, 20));
        pending.cancel();
      })();
    });
    expect((await answer)?.code, "the client saw its call cancelled").toBe(grpc.status.CANCELLED);
    // Cancel waits for the operations in flight: the held read answered and the create went on to CreateOrder.
    await provider.call("cancel", new proto.empty.Empty());
  }

  const createOrders = async () => (await management.requests()).filter((r) => r.operation === "CreateOrder");

  it("a cancelled call sends no CreateOrder and journals nothing; a live engine keeps the process buying", async () => {
    const inputs = await checkedInputs("first", "first.cancel.example.com");
    let checks = 0;
    const provider = await served(1, async () => {
      checks++;
      return false;
    });
    await cancelledCreate(provider, "first", inputs);
    expect(await createOrders()).toHaveLength(0);
    expect(await openJournal({ journalDir }).list()).toEqual([]);
    expect(checks, "the cancellation asked whether the engine is still there").toBe(1);

    const again = await provider.call("create", createRequest("first", inputs));
    expect(again.getId()).toMatch(/\S/);
    expect(await createOrders()).toHaveLength(1);
  });

  it("when the engine no longer accepts connections, nothing more starts in the process", async () => {
    const inputs = await checkedInputs("second", "second.cancel.example.com");
    const provider = await served(2, async () => true);
    const before = (await createOrders()).length;
    await cancelledCreate(provider, "second", inputs);
    expect(await createOrders()).toHaveLength(before);

    const refused = await provider.call("create", createRequest("second", inputs)).catch((error: Error) => error);
    expect((refused as Error).message).toMatch(/no longer accepts connections.*this create was not started/);
    expect(await createOrders()).toHaveLength(before);
  });
});
