// A stack whose resources were created by an earlier release keeps the
// provider text that release wrote: the engine runs `read` (refresh) and
// `delete` (destroy) with the text stored in state, not the program's. Four
// certificate chains (Order, Validation, sandbox DNS record, Certificate)
// carry, each, the text of one earlier release byte for byte
// (sdk/test/provider/fixtures/released-provider-texts.json: its `texts`, then
// its `namedTexts`, the last one the text before this release) — put into the
// state by export/import, as if that release had created them — and with this
// release installed the stack still refreshes, updates nothing on up, and
// destroy cancels and refunds every order.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Deployment, Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "./harness/sandbox.js";
import { createWorld, openStack, recorder, type E2eWorld } from "./harness/stack.js";
import { certificateProgram } from "./programs.js";

const FIXTURES = path.resolve(__dirname, "../../sdk/test/provider/fixtures/released-provider-texts.json");
const RELEASED: {
  /** What the texts of `texts` name the handler by: a module path. */
  handlerModule: string;
  /** What the texts of `namedTexts` name the handler by: a name (sdk/src/provider/entry.ts HANDLER_MODULES). */
  handlerName: string;
  texts: Record<string, string>;
  namedTexts: Record<string, string>;
} = JSON.parse(fs.readFileSync(FIXTURES, "utf8"));
/** Oldest first: the texts naming a module path, then those naming a handler name. */
const RELEASES = [...Object.keys(RELEASED.texts), ...Object.keys(RELEASED.namedTexts)];

/** The handler module and the handler name each resource type's texts name. */
const HANDLER_BY_TYPE: Record<string, { module: string; name: string }> = {
  "pulumi-nodejs:dynamic/certreseller:Order": { module: "resources/order/handlers.js", name: "order" },
  "pulumi-nodejs:dynamic/certreseller:Validation": { module: "resources/validation/handlers.js", name: "validation" },
  "pulumi-nodejs:dynamic/certreseller:Certificate": { module: "resources/certificate/handlers.js", name: "certificate" },
  "pulumi-nodejs:dynamic/certreseller-testing:SandboxDnsRecord": { module: "testing/handlers/dns-record.js", name: "testing/dns-record" },
};

/** What this release's text (sdk/src/program/provider-text.ts) holds and no earlier one does. */
const THIS_RELEASE_MARK = 'require("pulumi-certreseller/provider").provider(';

interface StateResource {
  urn: string;
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** Chain `c<i>` (its resources are named `c<i>` and `c<i>-dcv-0`) carries the text of release i. */
function releasedText(resource: StateResource): string {
  const name = resource.urn.split("::").at(-1)!;
  const release = RELEASES[Number(/^c(\d+)(-|$)/.exec(name)![1])]!;
  const handler = HANDLER_BY_TYPE[resource.type]!;
  if (Object.hasOwn(RELEASED.texts, release)) {
    return RELEASED.texts[release]!.split(JSON.stringify(RELEASED.handlerModule)).join(JSON.stringify(handler.module));
  }
  return RELEASED.namedTexts[release]!.split(JSON.stringify(RELEASED.handlerName)).join(JSON.stringify(handler.name));
}

function dynamicResources(deployment: Deployment): StateResource[] {
  const resources = (deployment.deployment as { resources?: StateResource[] }).resources ?? [];
  // The StackJournal is this release's own resource (the package registers it when the program loads it), not an earlier release's.
  return resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/") && !r.type.endsWith(":StackJournal"));
}

describe("a stack created by an earlier release, with this release installed", () => {
  let sandbox: TestSandbox;
  let world: E2eWorld;
  let stack: Stack;
  let startingBalance: number;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    world = createWorld(sandbox);
    const chains = RELEASES.map((_, i) =>
      certificateProgram({
        name: `c${i}`,
        order: { productCode: "sandbox-dv-single", domain: `upgrade-${i}.e2e.example.com`, verificationMethod: "dns" },
        managementUrl: sandbox.managementUrl,
      }),
    );
    stack = await openStack(world, "provider-upgrade", async () => {
      const outputs: Record<string, unknown> = {};
      for (const [i, chain] of chains.entries()) outputs[`c${i}`] = await chain();
      return outputs;
    });
    startingBalance = Number((await sandbox.management.account(sandbox.username)).balance);
  });

  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await sandbox?.stop();
    world?.dispose();
  });

  it("holds each earlier release's text in its resources' inputs and outputs", async () => {
    expect(RELEASES).toHaveLength(4);
    expect((await stack.up()).summary.result).toBe("succeeded");
    expect(await sandbox.management.orders()).toHaveLength(RELEASES.length);

    const state = await stack.exportStack();
    const resources = dynamicResources(state);
    expect(resources.map((r) => r.type).sort()).toEqual(
      RELEASES.flatMap(() => Object.keys(HANDLER_BY_TYPE)).sort(),
    );
    for (const resource of resources) {
      const text = releasedText(resource);
      // The mark the destroy test looks for is this release's, and in no earlier text.
      expect(resource.inputs!.__provider, resource.urn).toContain(THIS_RELEASE_MARK);
      expect(text, resource.urn).not.toContain(THIS_RELEASE_MARK);
      resource.inputs!.__provider = text;
      resource.outputs!.__provider = text;
    }
    await stack.importStack(state);

    for (const resource of dynamicResources(await stack.exportStack())) {
      expect(resource.inputs?.__provider, resource.urn).toBe(releasedText(resource));
      expect(resource.outputs?.__provider, resource.urn).toBe(releasedText(resource));
    }
  });

  it("refresh reads every resource through the stored text and changes nothing", async () => {
    await sandbox.management.clearRequests();
    const t = recorder();
    const refresh = await stack.refresh({ onOutput: t.onOutput, onEvent: t.onEvent });
    expect(refresh.summary.result).toBe("succeeded");
    const changes = Object.entries(refresh.summary.resourceChanges ?? {}).filter(([op, n]) => op !== "same" && n);
    expect(changes).toEqual([]);
    // The reads reached the Partner API: a read the host skipped would ask it nothing.
    const counts = await sandbox.management.operationCounts();
    expect(counts.GetRecord ?? 0).toBeGreaterThanOrEqual(RELEASES.length);
    expect(counts.CreateOrder ?? 0).toBe(0);
    // The outputs keep the stored text, so destroy will run it too.
    for (const resource of dynamicResources(await stack.exportStack())) {
      expect(resource.outputs?.__provider, resource.urn).toBe(releasedText(resource));
    }
  });

  it("up with this release's program changes nothing and buys nothing", async () => {
    await sandbox.management.clearRequests();
    const up = await stack.up();
    expect(up.summary.result).toBe("succeeded");
    const changes = Object.entries(up.summary.resourceChanges ?? {}).filter(([op, n]) => op !== "same" && n);
    expect(changes).toEqual([]);
    const counts = await sandbox.management.operationCounts();
    expect(counts.CreateOrder ?? 0).toBe(0);
    expect(counts.ApplySign ?? 0).toBe(0);
  });

  it("destroy runs each resource's stored text: every order is cancelled and refunded", async () => {
    const texts = dynamicResources(await stack.exportStack()).map((r) => [r.urn, r.outputs?.__provider]);
    expect(texts.filter(([, text]) => String(text).includes(THIS_RELEASE_MARK)), "resources destroy would run with this release's text").toEqual([]);
    const destroy = await stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    const orders = await sandbox.management.orders();
    expect(orders).toHaveLength(RELEASES.length);
    for (const order of orders) expect(order.refund, order.orderNo).toMatchObject({ amount: "100.00" });
    expect(Number((await sandbox.management.account(sandbox.username)).balance)).toBeCloseTo(startingBalance, 2);
  });
});
