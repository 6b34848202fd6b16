import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, makeConsumerDir, runNodeIn } from "../../support/consumer.js";
import { startHarness, type Harness } from "./harness.js";

let h: Harness;
let consumer: string;
let providerText: string;

beforeAll(async () => {
  ensureBuilt();
  h = await startHarness();
  consumer = makeConsumerDir();
  // The key sits in the program's environment, as it would for a user.
  process.env.CERTRESELLER_API_KEY = h.sandbox.accounts[0]!.apiKey;
  let captured: string | undefined;
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        captured = args.inputs.__provider;
        return { id: "x", state: args.inputs };
      },
      call: () => ({}),
    },
    "proj",
    "dev",
    true,
  );
  const { Order } = await import("../../../src/resources/order.js");
  const order = new Order("text", { productCode: "sandbox-dv-single", domain: "text.example.com" });
  await new Promise((resolve) => order.urn.apply(resolve));
  providerText = captured!;
});
afterAll(async () => {
  delete process.env.CERTRESELLER_API_KEY;
  fs.rmSync(consumer, { recursive: true, force: true });
  await h?.stop();
});

describe("the Order provider as stored in state", () => {
  it("is under 4 KB and holds no credential", () => {
    expect(providerText.length).toBeLessThan(4096);
    const key = h.sandbox.accounts[0]!.apiKey;
    expect(providerText).not.toContain(key);
    expect(providerText).not.toContain(key.split(":").pop()!);
  });

  it("runs check → create → delete from a project where only pulumi-certreseller is installed", async () => {
    fs.writeFileSync(path.join(consumer, "provider.js"), providerText);
    const script = `
      const text = require("fs").readFileSync("./provider.js", "utf8");
      const provider = require("./provider.js").handler();
      (async () => {
        // What the engine's host does: configure with the stack config (none here: env fallback).
        await provider.configure({ config: { get: () => undefined } });
        const checked = await provider.check({}, { journalKey: "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/certreseller:Order::text", productCode: "sandbox-dv-single", domain: "Text.Example.com", __provider: text });
        const created = await provider.create({ ...checked.inputs, __provider: text });
        await provider.delete(created.id, { ...created.outs, __provider: text });
        console.log(JSON.stringify({ failures: checked.failures, quotedPrice: checked.inputs.quotedPrice, id: created.id, outs: created.outs }));
      })().catch((e) => { console.error(e.stack); process.exit(1); });`;
    const out = await runNodeIn(consumer, script, {
      CERTRESELLER_API_KEY: h.sandbox.accounts[0]!.apiKey,
      CERTRESELLER_BASE_URL: h.sandbox.url,
      CERTRESELLER_JOURNAL_DIR: h.journalDir,
    });
    const lastLine = out.trim().split("\n").pop()!;
    const result = JSON.parse(lastLine);
    expect(result.failures).toEqual([]);
    expect(result.quotedPrice).toBe("100.00");
    expect(result.id).toMatch(/^CERT/);
    expect(result.outs.domain).toBe("text.example.com");
    // Secrets: neither outputs nor anything the provider printed carry the key.
    const key = h.sandbox.accounts[0]!.apiKey;
    expect(out).not.toContain(key.split(":").pop()!);
    expect(out).toMatch(new RegExp(`certreseller Order "text": order ${result.id} cancelled; refunded 100.00`));
    const order = await h.mgmt("GET", `/orders/${result.id}`);
    expect(order.orderStatus).toBe(4);
  });
});
