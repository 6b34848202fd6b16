import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lazyProvider } from "../../src/provider/index.js";
import { ensureBuilt, makeConsumerDir, runNodeIn } from "./consumer.js";

const KEY = "ak_serializationtestkey0001:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

async function serialize(provider: pulumi.dynamic.ResourceProvider): Promise<string> {
  // What pulumi.dynamic.Resource does with the provider object.
  const fn = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
  return fn.text;
}

describe("lazyProvider serialization", () => {
  let consumer: string;
  beforeAll(() => {
    ensureBuilt();
    consumer = makeConsumerDir();
  });
  afterAll(() => fs.rmSync(consumer, { recursive: true, force: true }));

  it("is small and holds no credential even when the key is in the environment", async () => {
    const previous = process.env.CERTRESELLER_API_KEY;
    process.env.CERTRESELLER_API_KEY = KEY;
    try {
      const text = await serialize(lazyProvider("resources/order/handlers.js"));
      expect(text.length).toBeLessThan(4096);
      expect(text).not.toContain(KEY.split(":")[1]);
      expect(text).not.toContain("ak_serializationtestkey0001");
      expect(text).toContain('"pulumi-certreseller/dist/provider/entry.js"');
    } finally {
      if (previous === undefined) delete process.env.CERTRESELLER_API_KEY;
      else process.env.CERTRESELLER_API_KEY = previous;
    }
  });

  it("loads and configures from a project where only pulumi-certreseller is installed", async () => {
    const text = await serialize(lazyProvider("resources/order/handlers.js"));
    fs.writeFileSync(path.join(consumer, "provider.js"), text);
    const out = await runNodeIn(
      consumer,
      `const provider = require("./provider.js").handler();
       provider.configure({ config: { get: () => undefined } })
         .then(() => provider.invoke ? "unexpected" : console.log("configured:" + Object.keys(provider).join(",")))
         .catch((e) => { console.error(e); process.exit(1); });`,
    );
    expect(out.trim()).toBe("configured:configure,check,diff,create,read,update,delete");
  });

  it("refuses a handler path outside dist", async () => {
    const text = await serialize(lazyProvider("../../etc/passwd.js"));
    fs.writeFileSync(path.join(consumer, "bad-provider.js"), text);
    const out = await runNodeIn(
      consumer,
      `const provider = require("./bad-provider.js").handler();
       provider.check({}, {}).then(() => console.log("loaded"), (e) => console.log(e.message));`,
    );
    expect(out).toMatch(/invalid handler module path/);
  });
});
