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
  afterAll(() => {
    if (consumer) fs.rmSync(consumer, { recursive: true, force: true });
  });

  it("is small and holds no credential even when the key is in the environment", async () => {
    const previous = process.env.CERTRESELLER_API_KEY;
    process.env.CERTRESELLER_API_KEY = KEY;
    try {
      const text = await serialize(lazyProvider("resources/order/handlers.js"));
      // Stored twice per resource in a checkpoint rewritten after every step (bench/engine).
      expect(text.length).toBeLessThan(850);
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
    expect(out.trim()).toBe("configured:handlerModule,configure,check,diff,create,read,update,delete");
  });

  // The host skips a method the object lacks (delete would "succeed" and drop
  // a paid order from state): without the package, each one reports why.
  it("in a project without pulumi-certreseller, configure and then every method fail with the reason", async () => {
    const text = await serialize(lazyProvider("resources/order/handlers.js"));
    const bare = fs.mkdtempSync(path.join(path.dirname(consumer), "certreseller-bare-"));
    try {
      fs.writeFileSync(path.join(bare, "provider.js"), text);
      const out = await runNodeIn(
        bare,
        `const provider = require("./provider.js").handler();
         const outcome = (p) => Promise.resolve().then(p).then(() => "ok", (e) => (/Cannot find module 'pulumi-certreseller/.test(e.message) ? "missing" : e.message));
         (async () => {
           const lines = [await outcome(() => provider.configure({ config: { get: () => undefined } }))];
           for (const m of ["check", "diff", "create", "read", "update", "delete"]) lines.push(m + ":" + (typeof provider[m] === "function" ? await outcome(() => provider[m]("id", {}, {})) : "absent"));
           console.log(lines.join(" "));
         })();`,
      );
      expect(out.trim()).toBe("missing check:missing diff:missing create:missing read:missing update:missing delete:missing");
    } finally {
      fs.rmSync(bare, { recursive: true, force: true });
    }
  });

  // State written by the releases before the one-method text holds seven
  // methods that call `configure` and `invoke`: read and delete still run it.
  it("a seven-method provider text of an earlier release still loads and dispatches", async () => {
    const legacy = (handlerModule: string): pulumi.dynamic.ResourceProvider => {
      const entry = "pulumi-certreseller/dist/provider/entry.js";
      return {
        async configure(req) {
          require(entry).configure(this, req.config);
        },
        async check(olds, news) {
          return require(entry).invoke(this, handlerModule, "check", [olds, news]);
        },
        async create(inputs) {
          return require(entry).invoke(this, handlerModule, "create", [inputs]);
        },
        async delete(id, props) {
          return require(entry).invoke(this, handlerModule, "delete", [id, props]);
        },
      };
    };
    fs.writeFileSync(path.join(consumer, "legacy-provider.js"), await serialize(legacy("resources/validation/handlers.js")));
    const out = await runNodeIn(
      consumer,
      `const provider = require("./legacy-provider.js").handler();
       provider.configure({ config: { get: () => undefined } })
         .then(() => provider.check({}, { orderNo: "", domains: [] }))
         .then((r) => console.log("failures:" + r.failures.map((f) => f.property).join(",")))
         .catch((e) => { console.error(e); process.exit(1); });`,
    );
    expect(out.trim()).toMatch(/^failures:orderNo/);
  });

  // State written between the seven-method and the one-method texts holds
  // `configure` (calling `attach`) and `create` (calling `invoke`).
  it("a two-method provider text of an earlier release still loads and dispatches", async () => {
    const legacy = (handlerModule: string): pulumi.dynamic.ResourceProvider => ({
      async configure(req) {
        require("pulumi-certreseller/dist/provider/entry.js").attach(this, handlerModule, req.config);
      },
      create(inputs) {
        return require("pulumi-certreseller/dist/provider/entry.js").invoke(this, handlerModule, "create", [inputs]);
      },
    });
    fs.writeFileSync(path.join(consumer, "two-method-provider.js"), await serialize(legacy("resources/validation/handlers.js")));
    const out = await runNodeIn(
      consumer,
      `const provider = require("./two-method-provider.js").handler();
       provider.configure({ config: { get: () => undefined } })
         .then(() => provider.check({}, { orderNo: "", domains: [] }))
         .then((r) => console.log("failures:" + r.failures.map((f) => f.property).join(",")))
         .catch((e) => { console.error(e); process.exit(1); });`,
    );
    expect(out.trim()).toMatch(/^failures:orderNo/);
  });

  it("every handler path a resource class names loads from the consumer project and is a handler module", async () => {
    const paths = handlerPathsInSources();
    expect(paths).toContain("resources/order/handlers.js");
    for (const handlerPath of paths) {
      const text = await serialize(lazyProvider(handlerPath));
      expect(text.length, handlerPath).toBeLessThan(850);
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
       provider.configure({ config: { get: () => undefined } })
         .then(() => provider.check({}, {}))
         .then(() => console.log("loaded"), (e) => console.log(e.message));`,
    );
    expect(out).toMatch(/invalid handler module path/);
  });
});
