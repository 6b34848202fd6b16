/**
 * The provider entry point that serialized providers load by path:
 * `require("pulumi-certreseller/dist/provider/entry.js")`.
 *
 * STABLE ACROSS RELEASES: `read` and `delete` run the provider text stored in
 * state when the resource was created, so an old state calls this file with
 * the signatures below. Add, never rename or remove: `configure(self, config)`,
 * `invoke(self, handlerModule, method, args)` and
 * `attach(self, handlerModule, config)`, and the handler module
 * paths the classes name (e.g. `resources/order/handlers.js`).
 */
import * as path from "node:path";
import { readSettings, type ConfigSource, type ProviderSettings } from "./config.js";
import { createContext } from "./context.js";
import { engineSink, flushEngineLog } from "./engine-log.js";
import type { HandlerModule, ProviderMethod } from "./handlers.js";

// Settings live here, keyed by the deserialized provider object, rather than
// on the object itself: nothing holding the key can then be serialized again.
const settingsByProvider = new WeakMap<object, ProviderSettings>();

const ATTACHED_METHODS = ["check", "diff", "create", "read", "update", "delete"] as const;

/**
 * Called from `configure` of the provider texts that carry only `configure`
 * (see lazy-provider.ts; the handler module is a data property of the
 * object) or `configure` and `create` (the previous release): gives the
 * deserialized provider object its methods, then configures it. Methods
 * first, so a configuration error cannot leave the host's cached object
 * without them.
 */
export function attach(self: Record<string, unknown>, handlerModule: string, config: ConfigSource | undefined): void {
  for (const method of ATTACHED_METHODS) {
    self[method] = (...args: unknown[]) => invoke(self, handlerModule, method, args);
  }
  configure(self, config);
}

/** Called from the provider's `configure` hook with the stack config (all provider texts). */
export function configure(self: object, config: ConfigSource | undefined): void {
  settingsByProvider.set(self, readSettings(config));
}

const HANDLER_PATH = /^[a-z0-9_-]+(\/[a-z0-9_-]+)*\.js$/;

function loadHandlerModule(handlerModule: string): HandlerModule {
  if (!HANDLER_PATH.test(handlerModule)) {
    throw new Error(`certreseller: invalid handler module path ${JSON.stringify(handlerModule)}`);
  }
  const loaded = require(path.join(__dirname, "..", handlerModule)) as Partial<HandlerModule>;
  if (!loaded.handlers || typeof loaded.resourceType !== "string") {
    throw new Error(
      `certreseller: ${handlerModule} is not a handler module (this state was written by a release whose provider files no longer exist; upgrade pulumi-certreseller)`,
    );
  }
  return loaded as HandlerModule;
}

/**
 * Runs one provider method. Methods a handler module leaves out behave as
 * the dynamic-provider host would, except `update`, which keeps the new
 * inputs as outputs instead of dropping every output.
 */
export async function invoke(self: object, handlerModule: string, method: ProviderMethod, args: unknown[]): Promise<unknown> {
  const { resourceType, handlers } = loadHandlerModule(handlerModule);
  // Outside the engine (a unit test calling the provider object) configure
  // may not have run: the environment still applies.
  const settings = settingsByProvider.get(self) ?? readSettings(undefined);
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
    default:
      throw new Error(`certreseller: unknown provider method ${String(method)}`);
  }
}
