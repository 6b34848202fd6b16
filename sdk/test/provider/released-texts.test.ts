// `read` and `delete` of a resource run the provider text stored with it when
// it was created, against whatever entry.js is installed now. Every text an
// earlier release wrote (fixtures/released-provider-texts.json, byte for byte)
// and this release's text are loaded here the way the dynamic-provider host
// loads them — require-from-string with no filename, from the Pulumi
// project's directory, cached per text before `configure` is awaited, with
// the host's own Config class — and driven through a whole Order life against
// the sandbox: check, create, read, diff, update, delete (the refund proves
// delete ran).
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HANDLER_MODULES, type HandlerName } from "../../src/provider/entry.js";
import { builtProviderText } from "./built-text.js";
import { startHarness, type Harness } from "../resources/order/harness.js";
import { ensureBuilt, makeConsumerDir, runNodeIn } from "../support/consumer.js";

interface ReleasedTexts {
  /** The handler module path the texts of `texts` name. */
  handlerModule: string;
  handlerModules: string[];
  /** The handler name (a key of HANDLER_MODULES) the texts of `namedTexts` name. */
  handlerName: string;
  /** Texts naming the handler by module path, oldest first. */
  texts: Record<string, string>;
  /** Texts naming the handler by name, oldest first, all later than those of `texts`. */
  namedTexts: Record<string, string>;
}
const RELEASED: ReleasedTexts = JSON.parse(fs.readFileSync(path.join(__dirname, "fixtures/released-provider-texts.json"), "utf8"));
const THIS_RELEASE = 'this release: handler() returning require("pulumi-certreseller/provider").provider(name)';

/** The text each release stored for a resource whose handler module is `handlerModule`. */
async function textsFor(handlerModule: string): Promise<Record<string, string>> {
  const texts: Record<string, string> = {};
  for (const [release, text] of Object.entries(RELEASED.texts)) {
    expect(text).toContain(JSON.stringify(RELEASED.handlerModule));
    texts[release] = text.split(JSON.stringify(RELEASED.handlerModule)).join(JSON.stringify(handlerModule));
  }
  const name = (Object.keys(HANDLER_MODULES) as HandlerName[]).find((n) => HANDLER_MODULES[n] === handlerModule);
  expect(name, `a handler name for ${handlerModule}`).toBeDefined();
  for (const [release, text] of Object.entries(RELEASED.namedTexts)) {
    expect(text).toContain(JSON.stringify(RELEASED.handlerName));
    texts[release] = text.split(JSON.stringify(RELEASED.handlerName)).join(JSON.stringify(name));
  }
  texts[THIS_RELEASE] = await builtProviderText(name!);
  return texts;
}

/**
 * The host's side (node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js):
 * getProvider, and what each RPC does when the object lacks the method.
 */
const HOST = (requireFromString: string, hostConfig: string, rawConfig: Record<string, string>) => `
  const requireFromString = require(${JSON.stringify(requireFromString)});
  const { Config } = require(${JSON.stringify(hostConfig)});
  const cache = {};
  async function getProvider(text) {
    let provider = cache[text];
    if (!provider) {
      provider = requireFromString(text).handler();
      cache[text] = provider;
      if (provider.configure) await provider.configure({ config: new Config(${JSON.stringify(rawConfig)}, "proj") });
    }
    return provider;
  }
  const host = {
    async check(olds, news) {
      const p = await getProvider(news.__provider);
      const r = p.check ? await p.check(olds, news) : { inputs: news };
      return { inputs: { ...(r.inputs || news), __provider: news.__provider }, failures: r.failures || [] };
    },
    async diff(id, olds, news) {
      const p = await getProvider(news.__provider);
      return p.diff ? await p.diff(id, olds, news) : {};
    },
    async create(props) {
      const r = await (await getProvider(props.__provider)).create(props);
      return { id: r.id, outs: { ...r.outs, __provider: props.__provider } };
    },
    async read(id, props) {
      const p = await getProvider(props.__provider);
      if (!p.read) return { id, props };
      const r = await p.read(id, props);
      return { id: r.id, props: { ...r.props, __provider: props.__provider } };
    },
    async update(id, olds, news) {
      const p = await getProvider(news.__provider);
      const r = (p.update ? await p.update(id, olds, news) : {}) || {};
      return { outs: { ...r.outs, __provider: news.__provider } };
    },
    async delete(id, props) {
      const p = await getProvider(props.__provider);
      if (p.delete) await p.delete(id, props);
    },
  };
`;

let h: Harness;
let consumer: string;
let host: string;

beforeAll(async () => {
  ensureBuilt();
  h = await startHarness();
  consumer = makeConsumerDir();
  host = HOST(require.resolve("require-from-string"), require.resolve("@pulumi/pulumi/cmd/dynamic-provider/config.js"), {
    "certreseller:apiKey": h.sandbox.accounts[0]!.apiKey,
    "certreseller:baseUrl": h.sandbox.url,
    "certreseller:journalDir": h.journalDir,
  });
});
afterAll(async () => {
  if (consumer) fs.rmSync(consumer, { recursive: true, force: true });
  await h?.stop();
});

/** Runs `body` (which may await `host.<method>`) in a plain Node process in the consumer project; answers its JSON result. */
async function inHost(body: string): Promise<any> {
  // Nothing from the environment: the settings must come through configure.
  const out = await runNodeIn(consumer, `${host}\n(async () => { ${body} })().then((r) => console.log("RESULT " + JSON.stringify(r)), (e) => { console.error(e.stack); process.exit(1); });`);
  return JSON.parse(out.trim().split("\n").find((line) => line.startsWith("RESULT "))!.slice("RESULT ".length));
}

describe("provider texts of earlier releases run against this release's entry", () => {
  it("the fixtures hold four earlier texts, the last one the text before this release", () => {
    expect(Object.keys(RELEASED.texts)).toHaveLength(3);
    expect(Object.keys(RELEASED.namedTexts)).toHaveLength(1);
    expect(RELEASED.texts["f955fca configure calling attach with the path as data"]).toContain(
      'var __provider = {handlerModule: "resources/order/handlers.js", configure: __f1};',
    );
    expect(HANDLER_MODULES[RELEASED.handlerName as HandlerName]).toBe(RELEASED.handlerModule);
    expect(Object.values(RELEASED.namedTexts).at(-1)).toContain(
      'var __provider = {h: "order", configure: __f1, create: __f1, update: __f1, delete: __f1};',
    );
  });

  it("each text's Order goes check → create → read → diff → update → delete; the refund proves delete ran", async () => {
    const texts = await textsFor("resources/order/handlers.js");
    expect(Object.keys(texts)).toHaveLength(5);
    const results = await inHost(`
      const texts = ${JSON.stringify(texts)};
      const results = {};
      for (const [release, text] of Object.entries(texts)) {
        const news = { journalKey: "proj/dev/" + Object.keys(results).length, productCode: "sandbox-dv-single", domain: "released-" + Object.keys(results).length + ".example.com", __provider: text };
        const checked = await host.check({}, news);
        const created = await host.create(checked.inputs);
        const read = await host.read(created.id, created.outs);
        const diff = await host.diff(created.id, read.props, checked.inputs);
        const updated = await host.update(created.id, read.props, checked.inputs);
        await host.delete(created.id, updated.outs);
        results[release] = { failures: checked.failures, id: created.id, readId: read.id, readOrderNo: read.props.orderNo, changes: diff.changes, updatedOrderNo: updated.outs.orderNo };
      }
      return results;
    `);
    expect(Object.keys(results)).toEqual(Object.keys(texts));
    for (const [release, r] of Object.entries<any>(results)) {
      expect(r.failures, release).toEqual([]);
      expect(r.id, release).toMatch(/^CERT/);
      expect([r.readId, r.readOrderNo, r.updatedOrderNo, r.changes], release).toEqual([r.id, r.id, r.id, false]);
      const order = await h.mgmt("GET", `/orders/${r.id}`);
      expect(order.orderStatus, `${release}: the order is cancelled`).toBe(4);
    }
  });

  it("each text, for every handler module a resource ever stored, reaches that module's check", async () => {
    for (const handlerModule of RELEASED.handlerModules) {
      const texts = await textsFor(handlerModule);
      expect(Object.keys(texts), handlerModule).toHaveLength(5);
      const results = await inHost(`
        const results = {};
        for (const [release, text] of Object.entries(${JSON.stringify(texts)})) {
          const checked = await host.check({}, { __provider: text });
          results[release] = checked.failures.length;
        }
        return results;
      `);
      // Every handler refuses empty inputs: a failure list proves the handler itself answered.
      for (const [release, failures] of Object.entries(results)) expect(failures, `${release} ${handlerModule}`).toBeGreaterThan(0);
    }
  });
});
