import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HANDLER_MODULES } from "../../src/provider/entry.js";
import { builtProviderText, serializeProvider as serialize } from "./built-text.js";
import { ensureBuilt, makeConsumerDir, runNodeIn } from "../support/consumer.js";

const KEY = "ak_serializationtestkey0001:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

const RELEASED = JSON.parse(fs.readFileSync(path.join(__dirname, "fixtures/released-provider-texts.json"), "utf8"));
/** The text the release before this one stored (`{ h, configure/create/update/delete }`, run through `setup`), for `name`. */
function previousText(name: string): string {
  const text: string = RELEASED.namedTexts["13bd57c { h, configure/create/update/delete } calling pulumi-certreseller/provider"];
  return text.split(JSON.stringify(RELEASED.handlerName)).join(JSON.stringify(name));
}
/** An earlier release's text naming the handler by module path (`attach`). */
const F955FCA_TEXT: string = RELEASED.texts["f955fca configure calling attach with the path as data"];

/** The handler names the resource classes store in state: every `providerText("...")` in the sources. */
function handlerNamesInSources(): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".ts")) {
        for (const match of fs.readFileSync(full, "utf8").matchAll(/providerText\("([^"]+)"\)/g)) found.add(match[1]!);
      }
    }
  };
  walk(path.resolve(__dirname, "../../src"));
  return [...found].sort();
}

describe("provider text", () => {
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
      const text = await builtProviderText("order");
      // Stored twice per resource in a checkpoint rewritten after every step (bench/engine).
      expect(text.length).toBeLessThan(100);
      expect(text).not.toContain(KEY.split(":")[1]);
      expect(text).not.toContain("ak_serializationtestkey0001");
      expect(text).toBe('exports.handler = () => require("pulumi-certreseller/provider").provider("order");');
    } finally {
      if (previous === undefined) delete process.env.CERTRESELLER_API_KEY;
      else process.env.CERTRESELLER_API_KEY = previous;
    }
  });

  it("loads and configures from a project where only pulumi-certreseller is installed", async () => {
    fs.writeFileSync(path.join(consumer, "provider.js"), await builtProviderText("order"));
    fs.writeFileSync(path.join(consumer, "validation-provider.js"), await builtProviderText("validation"));
    const out = await runNodeIn(
      consumer,
      `const provider = require("./provider.js").handler();
       const validation = require("./validation-provider.js").handler();
       (async () => {
         await provider.configure({ config: { get: () => undefined } });
         await validation.configure({ config: { get: () => undefined } });
         const r = await validation.check({}, { orderNo: "", domains: [] });
         console.log("methods:" + Object.keys(provider).filter((m) => typeof provider[m] === "function").sort().join(",") + " failures:" + r.failures.map((f) => f.property).join(","));
       })().catch((e) => { console.error(e); process.exit(1); });`,
    );
    expect(out.trim()).toMatch(/^methods:check,configure,create,delete,diff,read,update failures:orderNo/);
  });

  // The host deserializes the text and calls handler() in every RPC until it
  // holds a provider object: without the package, handler() throws with the
  // reason, so every call fails — none is skipped (a skipped delete would
  // "succeed" and drop a paid order from state).
  it("in a project without pulumi-certreseller, handler() throws with the reason, every time", async () => {
    const text = await builtProviderText("order");
    const bare = fs.mkdtempSync(path.join(path.dirname(consumer), "certreseller-bare-"));
    try {
      fs.writeFileSync(path.join(bare, "provider.js"), text);
      const out = await runNodeIn(
        bare,
        `const loaded = require("./provider.js");
         const outcome = (f) => { try { f(); return "ok"; } catch (e) { return /Cannot find module 'pulumi-certreseller\\/provider'/.test(e.message) ? "missing" : e.message; } };
         console.log([outcome(() => loaded.handler()), outcome(() => loaded.handler())].join(" "));`,
      );
      expect(out.trim()).toBe("missing missing");
    } finally {
      fs.rmSync(bare, { recursive: true, force: true });
    }
  });

  // State written by the release before this one holds `{ h, configure,
  // create, update, delete }`, one function under four names that calls
  // `setup`: read and delete still run it.
  it("the previous release's text loads and configures from a project where only pulumi-certreseller is installed", async () => {
    fs.writeFileSync(path.join(consumer, "previous-provider.js"), previousText("order"));
    const out = await runNodeIn(
      consumer,
      `const provider = require("./previous-provider.js").handler();
       const f = provider.configure;
       provider.configure({ config: { get: () => undefined } })
         .then(() => console.log("configured:" + Object.keys(provider).join(",") + " replaced:" + ["create", "update", "delete"].filter((m) => provider[m] !== f).join(",")))
         .catch((e) => { console.error(e); process.exit(1); });`,
    );
    expect(out.trim()).toBe("configured:h,configure,create,update,delete,check,diff,read replaced:create,update,delete");
  });

  // The host skips a `delete` or `update` the object lacks: with the
  // previous release's text and no package, configure and those fail with
  // the reason, and so does create. The host passes inputs and state
  // through where check, diff and read are absent — the first call already failed.
  it("with the previous release's text, in a project without pulumi-certreseller, configure, create, update and delete fail with the reason", async () => {
    const bare = fs.mkdtempSync(path.join(path.dirname(consumer), "certreseller-bare-"));
    try {
      fs.writeFileSync(path.join(bare, "provider.js"), previousText("order"));
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
      expect(out.trim()).toBe("missing check:absent diff:absent create:missing read:absent update:missing delete:missing");
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

  it("every handler name a resource class names is in HANDLER_MODULES, and its module loads from the consumer project", async () => {
    const names = handlerNamesInSources();
    expect(names).toEqual(["certificate", "order", "rfc2136-record", "stack-journal", "testing/dns-record", "testing/file-record", "validation"]);
    expect(Object.keys(HANDLER_MODULES).sort()).toEqual(names);
    for (const name of names) {
      const text = await builtProviderText(name as keyof typeof HANDLER_MODULES);
      expect(text.length, name).toBeLessThan(100);
      fs.writeFileSync(path.join(consumer, `named-provider-${names.indexOf(name)}.js`), text);
    }
    const paths = Object.values(HANDLER_MODULES);
    const out = await runNodeIn(
      consumer,
      `for (const p of ${JSON.stringify(paths)}) {
         const m = require("pulumi-certreseller/dist/" + p);
         console.log(p + " " + typeof m.resourceType + " " + typeof m.handlers.create);
       }
       for (const [i, name] of ${JSON.stringify(names)}.entries()) {
         console.log(name + " " + typeof require("./named-provider-" + i + ".js").handler().create);
       }`,
    );
    expect(out.trim().split("\n")).toEqual([...paths.map((p) => `${p} string function`), ...names.map((n) => `${n} function`)]);
  });

  // With the package installed, the previous release's shared function is
  // reached as a method only if configure never completed: it must not
  // report a delete done.
  it("with the previous release's text, create, update and delete reached before configure completed refuse and do nothing", async () => {
    const text = previousText("order");
    fs.writeFileSync(path.join(consumer, "early-provider.js"), text);
    const out = await runNodeIn(
      consumer,
      `const text = require("fs").readFileSync("./early-provider.js", "utf8");
       const provider = require("./early-provider.js").handler();
       const outcome = (p) => p.then(() => "ok", (e) => (/configure did not complete/.test(e.message) ? "refused" : e.message));
       (async () => {
         console.log([
           "create:" + await outcome(provider.create({ domain: "x.example.com", __provider: text })),
           "update:" + await outcome(provider.update("CERT1", { __provider: text }, { __provider: text })),
           "delete:" + await outcome(provider.delete("CERT1", { __provider: text })),
         ].join(" "));
       })();`,
    );
    expect(out.trim()).toBe("create:refused update:refused delete:refused");
  });

  // A malformed setting fails configure after the methods are attached: the
  // host keeps that object, and its methods must not run on the environment
  // alone (another key, another URL) — they fail with the same reason.
  it("after configure failed on a malformed setting, every method fails with that reason", async () => {
    const texts = { current: await builtProviderText("order"), previous: previousText("order"), f955fca: F955FCA_TEXT };
    for (const [which, text] of Object.entries<string>(texts)) {
      fs.writeFileSync(path.join(consumer, `malformed-${which}.js`), text);
      const out = await runNodeIn(
        consumer,
        `const provider = require("./malformed-${which}.js").handler();
         const config = { get: (key) => (key === "certreseller:allowInsecureHttp" ? "perhaps" : undefined) };
         const outcome = (p) => Promise.resolve().then(p).then(() => "ok", (e) => (/allowInsecureHttp .* must be true or false/.test(e.message) ? "malformed" : e.message));
         (async () => {
           const lines = ["configure:" + await outcome(() => provider.configure({ config }))];
           for (const m of ["check", "diff", "create", "read", "update", "delete"]) lines.push(m + ":" + await outcome(() => provider[m]("CERT1", {}, {})));
           console.log(lines.join(" "));
         })();`,
        { CERTRESELLER_API_KEY: KEY, CERTRESELLER_BASE_URL: "http://127.0.0.1:9" },
      );
      expect(out.trim(), which).toBe("configure:malformed check:malformed diff:malformed create:malformed read:malformed update:malformed delete:malformed");
    }
  });

  it("refuses a handler path outside dist in an earlier release's text, and a handler name it does not know", async () => {
    fs.writeFileSync(path.join(consumer, "bad-provider.js"), F955FCA_TEXT.replace('"resources/order/handlers.js"', '"../../etc/passwd.js"'));
    const out = await runNodeIn(
      consumer,
      `const provider = require("./bad-provider.js").handler();
       provider.configure({ config: { get: () => undefined } })
         .then(() => provider.check({}, {}))
         .then(() => console.log("loaded"), (e) => console.log(e.message));`,
    );
    expect(out).toMatch(/invalid handler module path/);

    for (const name of ["../../etc/passwd.js", "constructor", "resources/order/handlers.js"]) {
      // This release's text: handler() throws, so the host fails every call.
      fs.writeFileSync(path.join(consumer, "unknown-provider.js"), await builtProviderText(name as never));
      const current = await runNodeIn(
        consumer,
        `try { require("./unknown-provider.js").handler(); console.log("loaded"); }
         catch (e) { console.log(/names the handler .* does not have .*upgrade pulumi-certreseller/.test(e.message) ? "unknown" : e.message); }`,
      );
      expect(current.trim(), name).toBe("unknown");

      // The previous release's text: configure and every method refuse.
      fs.writeFileSync(path.join(consumer, "unknown-previous-provider.js"), previousText(name));
      const previous = await runNodeIn(
        consumer,
        `const provider = require("./unknown-previous-provider.js").handler();
         const outcome = (p) => Promise.resolve().then(p).then(() => "ok", (e) => (/names the handler .* does not have .*upgrade pulumi-certreseller/.test(e.message) ? "unknown" : e.message));
         (async () => {
           const lines = ["configure:" + await outcome(() => provider.configure({ config: { get: () => undefined } }))];
           for (const m of ["check", "diff", "create", "read", "update", "delete"]) lines.push(m + ":" + await outcome(() => provider[m]("CERT1", {}, {})));
           console.log(lines.join(" "));
         })();`,
      );
      expect(previous.trim(), name).toBe("configure:unknown check:unknown diff:unknown create:unknown read:unknown update:unknown delete:unknown");
    }
  });
});
