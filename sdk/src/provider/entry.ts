/**
 * The provider entry point that serialized providers load by path. The
 * current text calls `require("pulumi-certreseller/provider").provider(name)`
 * (the package's root `provider.js`: {@link setup}, with {@link provider} as
 * a property); the previous text calls
 * `require("pulumi-certreseller/provider")(this, req)`, and the texts of
 * earlier releases call `require("pulumi-certreseller/dist/provider/entry.js")`
 * directly.
 *
 * STABLE ACROSS RELEASES: `read` and `delete` run the provider text stored in
 * state when the resource was created, so an old state calls this file with
 * the signatures below. Add, never rename or remove: `provider(name)` and
 * `setup(self, req)` (as `pulumi-certreseller/provider`), `configure(self, config)`,
 * `invoke(self, handlerModule, method, args)` and
 * `attach(self, handlerModule, config)`, the handler names of
 * {@link HANDLER_MODULES} and the handler module paths earlier texts name
 * (e.g. `resources/order/handlers.js`). The package has no `exports` map; one
 * would have to list `./provider` and every one of these deep paths.
 * sdk/test/provider/released-texts.test.ts runs the text of every earlier
 * release against this file.
 */
// First: an older Node.js is refused with a message saying which runs and which is needed, before undici loads.
import "../node-version.js";
import * as fs from "node:fs";
import * as path from "node:path";
import { readSettings, type ConfigSource, type ProviderSettings } from "./config.js";
import { createContext } from "./context.js";
import { engineSink, flushEngineLog } from "./engine-log.js";
import { ImportError, type HandlerModule, type ProviderMethod } from "./handlers.js";

// Settings live here, keyed by the deserialized provider object, rather than
// on the object itself: nothing holding the key can then be serialized again.
const settingsByProvider = new WeakMap<object, ProviderSettings>();
// Why `configure` failed for an object (a malformed setting). The host keeps
// the object after a failed configure and calls its methods later: they
// fail with this instead of running on the environment alone.
const configureErrors = new WeakMap<object, unknown>();

const ATTACHED_METHODS = ["check", "diff", "create", "read", "update", "delete"] as const;

/**
 * The handler modules by the names the provider texts store (the current
 * text's `provider("order")`, program/provider-text.ts; the previous text's
 * `{ h: "order", ... }`). STORED IN STATE: add names, never rename or remove one.
 */
export const HANDLER_MODULES = {
  order: "resources/order/handlers.js",
  validation: "resources/validation/handlers.js",
  certificate: "resources/certificate/handlers.js",
  "testing/dns-record": "testing/handlers/dns-record.js",
  "testing/file-record": "testing/handlers/file-record.js",
  "rfc2136-record": "resources/rfc2136-record/handlers.js",
  "stack-journal": "resources/stack-journal/handlers.js",
} as const;

/** A handler name earlier texts store; see {@link HANDLER_MODULES}. */
export type HandlerName = keyof typeof HANDLER_MODULES;

/**
 * A name a resource class passes to `providerText`: one of
 * {@link HANDLER_MODULES}, or the name of a folder under `resources/` that
 * holds `handlers.js` (a resource added since: the registry names it, no
 * line here).
 */
export type ResourceHandlerName = HandlerName | (string & {});

const FOLDER_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * The handler module path of a handler name, relative to this package's
 * `dist/` (or `src/`); undefined for a name this release does not have.
 *
 * @example
 * handlerModule("order") === "resources/order/handlers.js"
 */
export function handlerModule(name: string): string | undefined {
  if (Object.hasOwn(HANDLER_MODULES, name)) return HANDLER_MODULES[name as keyof typeof HANDLER_MODULES];
  if (!FOLDER_NAME.test(name)) return undefined;
  const folder = path.join(__dirname, "..", "resources", name);
  return fs.existsSync(path.join(folder, "handlers.js")) || fs.existsSync(path.join(folder, "handlers.ts")) ? `resources/${name}/handlers.js` : undefined;
}

/**
 * `require("pulumi-certreseller/provider")`: called by the provider text of
 * the previous release, `{ h, configure: f, create: f, update: f,
 * delete: f }` whose one function `f` is
 * `async function (req) { require("pulumi-certreseller/provider")(this, req); }`.
 *
 * As `configure` — the host calls it once per text and process, with
 * `{ config }`, before any other method — it gives the object its six
 * methods for the handler named by `h` and configures it, replacing `f`.
 * Synchronous on purpose: the host hands the object it cached to concurrent
 * calls while `configure` is still being awaited.
 *
 * Reached as `create`, `update` or `delete` (an id string, or inputs with
 * `__provider`, instead of `{ config }`), `f` survived because this
 * process's `configure` failed before getting here — the package could not
 * be loaded then — or was never called, so it refuses: a `delete` that did
 * nothing would drop a paid order from state uncancelled.
 */
export function setup(self: Record<string, unknown>, req: unknown): void {
  if (!isConfigureRequest(req)) {
    throw new Error(
      "certreseller: the provider's configure did not complete in this process (see the first error): nothing was done",
    );
  }
  const name = self.h;
  if (!isHandlerName(name)) {
    const error = unknownHandler(name);
    for (const method of ATTACHED_METHODS) self[method] = () => Promise.reject(error);
    throw error;
  }
  attach(self, handlerModule(name)!, req.config);
}

/**
 * `require("pulumi-certreseller/provider").provider(name)`: what the current
 * provider text's `handler` returns (program/provider-text.ts), a new provider object
 * for the handler named `name`, with all six methods and `configure`.
 *
 * The host calls `configure` once per text and process with `{ config }`,
 * before any other method, and keeps the object even when it throws: its
 * methods then fail with that error (see {@link configure}). If this package
 * cannot be loaded, or does not know `name` (a state written by a later
 * release), `handler()` throws, so every call fails with the reason: nothing
 * can be skipped, since the host never holds a provider object at all.
 */
export function provider(name: string): Record<string, unknown> {
  if (!isHandlerName(name)) throw unknownHandler(name);
  const self: Record<string, unknown> = {};
  attachMethods(self, handlerModule(name)!);
  // Synchronous body: the host hands the cached object to concurrent calls while this is awaited.
  self.configure = async (req: { config?: ConfigSource } | undefined) => configure(self, req?.config);
  return self;
}

function isHandlerName(name: unknown): name is ResourceHandlerName {
  return typeof name === "string" && handlerModule(name) !== undefined;
}

/** A handler name in state that this release does not know (the state was written by a later one). */
function unknownHandler(name: unknown): Error {
  return new Error(
    `certreseller: this state names the handler ${JSON.stringify(name)}, which this version of pulumi-certreseller does not have (written by a later release? upgrade pulumi-certreseller)`,
  );
}

/**
 * The host's `configure` request is `{ config }`; `create` receives the
 * inputs, which always carry `__provider`, `update` and `delete` an id.
 */
function isConfigureRequest(req: unknown): req is { config?: ConfigSource } {
  return typeof req === "object" && req !== null && "config" in req && !("__provider" in req);
}

/**
 * Called from `configure` of the provider texts of earlier releases, which
 * carried the handler module path (as data on the object, or captured by
 * `configure` and `create`), and from {@link setup}: gives the deserialized
 * provider object its methods, then configures it. Methods first, so a
 * configuration error cannot leave the host's cached object without them.
 */
export function attach(self: Record<string, unknown>, handlerModule: string, config: ConfigSource | undefined): void {
  attachMethods(self, handlerModule);
  configure(self, config);
}

/** Gives `self` the six provider methods, each running the handler module's through {@link invoke}. */
function attachMethods(self: Record<string, unknown>, handlerModule: string): void {
  for (const method of ATTACHED_METHODS) {
    self[method] = (...args: unknown[]) => invoke(self, handlerModule, method, args);
  }
}

/** Called from the provider's `configure` hook with the stack config (all provider texts). */
export function configure(self: object, config: ConfigSource | undefined): void {
  try {
    settingsByProvider.set(self, readSettings(config));
    configureErrors.delete(self);
  } catch (error) {
    configureErrors.set(self, error);
    throw error;
  }
}

/**
 * The settings `configure` gave `self`, or why it failed. Outside the engine
 * (a unit test calling the provider object) configure may not have run: the
 * environment still applies.
 *
 * @example
 * configure(self, config); settingsOf(self).baseUrl
 */
export function settingsOf(self: object): ProviderSettings {
  if (configureErrors.has(self)) throw configureErrors.get(self);
  return settingsByProvider.get(self) ?? readSettings(undefined);
}

const HANDLER_PATH = /^[a-z0-9_-]+(\/[a-z0-9_-]+)*\.js$/;

/** Loaded handler modules by path: every Check and Diff runs through here (a preview of 100 certificates: 800 calls). */
const loadedHandlerModules = new Map<string, HandlerModule>();

function loadHandlerModule(handlerModule: string): HandlerModule {
  const loaded = loadedHandlerModules.get(handlerModule);
  if (loaded) return loaded;
  if (!HANDLER_PATH.test(handlerModule)) {
    throw new Error(`certreseller: invalid handler module path ${JSON.stringify(handlerModule)}`);
  }
  const found = require(path.join(__dirname, "..", handlerModule)) as Partial<HandlerModule>;
  if (!found.handlers || typeof found.resourceType !== "string") {
    throw new Error(
      `certreseller: ${handlerModule} is not a handler module (this state was written by a release whose provider files no longer exist; upgrade pulumi-certreseller)`,
    );
  }
  loadedHandlerModules.set(handlerModule, found as HandlerModule);
  return found as HandlerModule;
}

/**
 * Runs one provider method. Methods a handler module leaves out behave as
 * the dynamic-provider host would, except `update`, which keeps the new
 * inputs as outputs instead of dropping every output.
 */
export async function invoke(self: object, handlerModule: string, method: ProviderMethod, args: unknown[]): Promise<unknown> {
  const settings = settingsOf(self);
  const { resourceType, handlers } = loadHandlerModule(handlerModule);
  const ctx = createContext({ type: resourceType, settings, sink: engineSink() });
  try {
    return await dispatch(handlers, ctx, method, args);
  } finally {
    await flushEngineLog();
  }
}

function dispatch(handlers: HandlerModule["handlers"], ctx: ReturnType<typeof createContext>, method: ProviderMethod, args: unknown[]): Promise<unknown> | unknown {
  const [a, b, c] = args as [any, any, any];
  switch (method) {
    case "check":
      return handlers.check ? handlers.check(ctx, a, b) : { inputs: b };
    case "diff":
      return handlers.diff ? handlers.diff(ctx, a, b, c) : {};
    case "create":
      return handlers.create(ctx, a);
    case "read":
      return handlers.read ? handlers.read(ctx, a, b) : { id: a, props: b };
    case "update":
      return handlers.update ? handlers.update(ctx, a, b, c) : { outs: c };
    case "delete":
      return handlers.delete ? handlers.delete(ctx, a, b) : undefined;
    case "import":
      return handlers.import
        ? handlers.import(ctx, a, b)
        : Promise.reject(new ImportError(`${ctx.type} cannot be imported: declare it (it holds no purchase), or import the Order or Certificate it follows`));
    default:
      throw new Error(`certreseller: unknown provider method ${String(method)}`);
  }
}
