import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lazyProvider } from "../../src/provider/index.js";
import { ensureBuilt, makeConsumerDir, runNodeIn } from "./consumer.js";

const KEY = "ak_serializationtestkey0001:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

/** The handler paths the resource classes store in state: every `lazyProvider("...")` in the sources. */
function handlerPathsInSources(): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".ts")) {
        for (const match of fs.readFileSync(full, "utf8").matchAll(/lazyProvider\("([^"]+)"\)/g)) found.add(match[1]!);
      }
    }
  };
  walk(path.resolve(__dirname, "../../src"));
  return [...found].sort();
}

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

  it("every handler path a resource class names loads from the consumer project and is a handler module", async () => {
    const paths = handlerPathsInSources();
    expect(paths).toContain("resources/order/handlers.js");
    for (const handlerPath of paths) {
      const text = await serialize(lazyProvider(handlerPath));
      expect(text.length, handlerPath).toBeLessThan(4096);
    }
    const out = await runNodeIn(
      consumer,
      `for (const p of ${JSON.stringify(paths)}) {
         const m = require("pulumi-certreseller/dist/" + p);
         console.log(p + " " + typeof m.resourceType + " " + typeof m.handlers.create);
       }`,
    );
    expect(out.trim().split("\n")).toEqual(paths.map((p) => `${p} string function`));
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
