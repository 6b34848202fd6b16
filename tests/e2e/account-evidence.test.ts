// What proves an order gone or refunded, through the engine (docs/evidence.md):
// - another deployment of the service that issues the same app id (a staging
//   copy) is another account: its 404 never drops or releases an order;
// - cert status 5 ("revoked/refunded") is not a refund: destroy asks for one;
// - an adopted order is released past the refund window, bounded by the
//   time the service first showed it;
// - under another account's key the Validation and the Certificate say what
//   the Order says (both app ids, the way back) and nothing is dropped.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { startSandbox } from "certreseller-sandbox";
import { PartnerClient } from "pulumi-certreseller";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManagementClient } from "../support/sandbox-management.js";
import { FAST_SANDBOX, type TestSandbox } from "./harness/sandbox.js";
import { closeSandboxWorld, createWorld, failureOf, openStack, recorder, startSandboxWorld, type E2eWorld } from "./harness/stack.js";
import { certificateProgram, ordersProgram } from "./programs.js";

const PRODUCT = "sandbox-dv-single";

async function appIdAt(baseUrl: string, apiKey: string): Promise<string> {
  const client = new PartnerClient({ baseUrl, apiKey });
  try {
    return (await client.getUserData()).apiKey.appId!;
  } finally {
    await client.close();
  }
}

/** Resource types in the stack's state, by short type name (`Order`, `Validation`, ...). */
async function typesInState(stack: Stack): Promise<string[]> {
  const deployment = (await stack.exportStack()).deployment as { resources?: { type: string }[] };
  return (deployment.resources ?? []).map((r) => r.type.split(":").pop()!).filter((t) => !t.startsWith("pulumi") && t !== "Stack");
}

/**
 * Two sandboxes started from copies of one data directory: the same accounts,
 * keys and app ids, as a staging copy of a deployment has; orders bought at
 * one after the copy exist only there.
 */
async function startTwins(): Promise<{ a: TestSandbox; b: TestSandbox; cleanup(): void }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-twins-"));
  const seed = await startSandbox({ port: 0, dataDir: path.join(root, "seed") });
  await seed.stop();
  const start = async (name: string): Promise<TestSandbox> => {
    fs.cpSync(path.join(root, "seed"), path.join(root, name), { recursive: true });
    const s = await startSandbox({ port: 0, host: "127.0.0.1", ...FAST_SANDBOX, dataDir: path.join(root, name) });
    return {
      url: s.url,
      managementUrl: s.managementUrl,
      apiKey: s.accounts[0]!.apiKey,
      username: s.accounts[0]!.username,
      caCertificatePem: s.caCertificatePem,
      management: new ManagementClient(s.managementUrl),
      stop: () => s.stop(),
    };
  };
  return { a: await start("a"), b: await start("b"), cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

describe("another deployment of the service that issues the same app id (engine)", () => {
  let twins: Awaited<ReturnType<typeof startTwins>>;
  let world: E2eWorld;

  beforeAll(async () => {
    twins = await startTwins();
    world = createWorld(twins.a);
  });
  afterAll(async () => {
    await twins?.a.stop();
    await twins?.b.stop();
    twins?.cleanup();
    world?.dispose();
  });

  it("baseUrl switched to the copy (recorded by an up): refresh and destroy keep the order and say why; back at the original, destroy refunds", async () => {
    const { a, b } = twins;
    expect(b.apiKey).toBe(a.apiKey);
    expect(await appIdAt(b.url, b.apiKey)).toBe(await appIdAt(a.url, a.apiKey));
    const domain = "twin.e2e.example.com";
    const stack = await openStack(world, "twin-endpoint", ordersProgram({ site: { productCode: PRODUCT, domain, verificationMethod: "dns" } }));
    const orderNo = String((await stack.up()).outputs.siteOrderNo?.value);

    await stack.setConfig("certreseller:baseUrl", { value: b.url });
    await stack.up(); // no resource changes; the engine records the copy's URL

    const message = await failureOf(stack.refresh());
    expect(message).toContain(orderNo);
    expect(message).toContain(`${a.url}/`);
    expect(message).toContain(`${b.url}/`);
    expect(message).toMatch(/another deployment of the service .* does not hold this deployment's orders/);
    expect(message).toMatch(/Nothing was removed from state/);
    expect(message).toContain(`pulumi config set certreseller:baseUrl ${a.url}/`);
    expect(await typesInState(stack)).toContain("Order");

    await a.management.clearRequests();
    await b.management.clearRequests();
    const destroyMessage = await failureOf(stack.destroy());
    expect(destroyMessage).toMatch(/Nothing was cancelled or released/);
    expect((await a.management.operationCounts()).CancelOrder ?? 0).toBe(0);
    expect((await b.management.operationCounts()).CancelOrder ?? 0).toBe(0);
    expect(await typesInState(stack)).toContain("Order");
    expect((await a.management.order(orderNo)).refund).toBeNull();

    await stack.setConfig("certreseller:baseUrl", { value: a.url });
    await stack.up();
    await stack.destroy();
    expect((await a.management.order(orderNo)).orderStatus).toBe(4);
  });
});

describe("cert status 5 and other accounts (engine)", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  const stacks: Stack[] = [];

  beforeAll(async () => void ({ sandbox, world } = await startSandboxWorld()));
  // A stack left under another account's key goes back to the sandbox's own before its destroy.
  afterAll(() =>
    closeSandboxWorld({ sandbox, world }, stacks, async (stack) => {
      await stack.setConfig("certreseller:apiKey", { value: sandbox.apiKey, secret: true }).catch(() => undefined);
      await stack.up().catch(() => undefined);
      await stack.destroy();
    }),
  );

  it("destroy of an order revoked outside Pulumi, inside the refund window, sends CancelOrder and keeps the order when the service refuses", async () => {
    const domain = "revoked.e2e.example.com";
    const stack = await openStack(world, "revoked", ordersProgram({ site: { productCode: PRODUCT, domain, verificationMethod: "dns" } }));
    const orderNo = String((await stack.up()).outputs.siteOrderNo?.value);
    await sandbox.management.forceState(orderNo, "issue");
    await sandbox.management.forceState(orderNo, "revoke");

    await sandbox.management.clearRequests();
    const message = await failureOf(stack.destroy());
    expect((await sandbox.management.operationCounts()).CancelOrder ?? 0).toBe(1);
    expect(message).toContain(orderNo);
    expect(message).toMatch(/revoked \(cert status 5\) and the order status shows no refund or cancellation: ask the reseller's support/);
    expect(message).toMatch(/kept in state/);
    expect(await typesInState(stack)).toContain("Order");
    expect((await sandbox.management.order(orderNo)).refund).toBeNull();
  });

  it("another account's key (recorded by an up): refresh fails, and the Order, the Validation and the Certificate each name both app ids; nothing is dropped", async () => {
    const domain = "three.e2e.example.com";
    const stack = await openStack(
      world,
      "three-resources",
      certificateProgram({ order: { productCode: PRODUCT, domain, verificationMethod: "dns" }, managementUrl: sandbox.managementUrl }),
    );
    stacks.push(stack);
    const orderNo = String((await stack.up()).outputs.orderNo?.value);
    const before = (await typesInState(stack)).sort();
    expect(before).toEqual(expect.arrayContaining(["Order", "Validation", "Certificate"]));
    const mine = await appIdAt(sandbox.url, sandbox.apiKey);
    const other = await sandbox.management.createAccount({ username: "third-account", balance: 1000 });
    const theirs = await appIdAt(sandbox.url, other.apiKey);

    await stack.setConfig("certreseller:apiKey", { value: other.apiKey, secret: true });
    await stack.up(); // no resource changes; the engine records the other key

    const t = recorder();
    const message = await failureOf(stack.refresh({ onOutput: t.onOutput, onError: t.onError }));
    const said = `${message}\n${t.output}`;
    for (const resource of ["Order", "Validation", "Certificate"]) {
      const line = said.split("\n").find((l) => l.includes(`certreseller ${resource}`) && l.includes(`order ${orderNo} was bought`));
      expect(line, `the ${resource}'s message`).toBeDefined();
      expect(line).toContain(mine);
      expect(line).toContain(theirs);
    }
    expect(said).toMatch(/pulumi config set --secret certreseller:apiKey/);
    expect(said).not.toMatch(/(is removed|removing it) from state/);
    expect(said).not.toMatch(/GetCertificateStatus: not found/);
    expect(said).not.toContain(other.apiKey.split(":")[1]!);
    expect((await typesInState(stack)).sort()).toEqual(before);
  });
});

describe("an adopted order past the refund window (engine; moves the sandbox's clock)", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;

  beforeAll(async () => void ({ sandbox, world } = await startSandboxWorld()));
  afterAll(() => closeSandboxWorld({ sandbox, world }));

  it("7 days + 1 hour later destroy fails naming the payment bound; 8 days + 1 hour later it is released with a warning", async () => {
    const domain = "adopted-late.e2e.example.com";
    const client = new PartnerClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
    const bought = await client.createOrder({ productCode: PRODUCT, domain }).finally(() => client.close());
    const stack = await openStack(world, "adopted-late", ordersProgram({ site: { productCode: PRODUCT, domain, verificationMethod: "dns", adoptOrderNo: bought.orderNo } }));
    await stack.up();

    await sandbox.management.advanceClock(7 * 86_400 + 3_600);
    const early = await failureOf(stack.destroy());
    expect(early).toMatch(/paid no later than .*not provably past the 7-day refund window/);
    expect(early).not.toMatch(/payment time unknown/);
    expect(await typesInState(stack)).toContain("Order");

    await sandbox.management.advanceClock(86_400);
    const t = recorder();
    await stack.destroy({ onOutput: t.onOutput });
    expect(t.output).toMatch(new RegExp(`order ${bought.orderNo} was NOT cancelled and is released from Pulumi`));
    expect(await typesInState(stack)).not.toContain("Order");
    expect((await sandbox.management.order(bought.orderNo)).refund).toBeNull();
  });
});
