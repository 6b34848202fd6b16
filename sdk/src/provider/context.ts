import { AsyncLocalStorage } from "node:async_hooks";
import { PartnerApiError } from "../client/errors.js";
import { isLoopback } from "../client/partner-client.js";
import type { PartnerApi, PartnerOperation } from "../client/types.js";
import { clientFor } from "./client-cache.js";
import { baseUrlHost, type ProviderSettings } from "./config.js";
import { createLog, type LogSink, type ProviderLog } from "./log.js";

/**
 * Everything a resource handler gets besides its arguments: the settings from
 * `configure`, a lazily built API client, a logger and the clock. Handlers
 * never read `process.env` or stack config themselves, which keeps them
 * testable with a context built in the test.
 */
export interface ProviderContext {
  readonly type: string;
  readonly settings: ProviderSettings;
  /** The shared client; throws a MissingSettingError naming config key and env var when unset. */
  api(): PartnerApi;
  /**
   * A logger whose lines name `type` and the resource. Pass the resource's
   * URN when known: its lines then also show in previews (see engine-log.ts);
   * a plain name works too, for lines that matter only during `up`.
   */
  log(resource?: string): ProviderLog;
  now(): Date;
  /**
   * Aborted when the call this context serves is cancelled (in the provider
   * plugin: the engine's gRPC call, cancelled or dropped with the engine's
   * connection). From then on its CreateOrder is refused before sending;
   * every other call still runs, so an order already bought is journaled
   * and submitted. Absent where no one can cancel (the dynamic provider).
   */
  readonly signal?: AbortSignal;
}

/** The signal of the call being served, for the contexts built inside it (see {@link runForCall}). */
const callSignals = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs `work` as the serving of one call: every context built inside it
 * (the handler entry builds its own) carries `signal`, without the entry's
 * stable signatures changing.
 *
 * @example
 * runForCall(cancellation.signal, () => invoke(self, handlerModule, "create", [inputs]));
 */
export function runForCall<T>(signal: AbortSignal, work: () => T): T {
  return callSignals.run(signal, work);
}

/**
 * Builds a {@link ProviderContext}.
 *
 * @example
 * ```ts
 * const ctx = createContext({ type: "Order", settings: { apiKey, baseUrl, journalDir } });
 * await orderHandlers.create(ctx, inputs);
 * ```
 */
export function createContext(args: {
  type: string;
  settings: ProviderSettings;
  api?: PartnerApi;
  sink?: LogSink;
  now?: () => Date;
}): ProviderContext {
  const { type, settings } = args;
  const signal = callSignals.getStore();
  const apiKey = settings.apiKey;
  // The secret half alone is also a valid key, so scrub it on its own too.
  const secrets = apiKey ? [apiKey, apiKey.includes(":") ? apiKey.slice(apiKey.indexOf(":") + 1) : undefined] : [];
  return {
    type,
    settings,
    api: () => guardStoppedPurchases(guardClockOverride(args.api ?? clientFor(settings), settings)),
    log: (name) => createLog({ type, name, secrets, sink: args.sink }),
    now: args.now ?? clock(settings.now),
    ...(signal ? { signal } : {}),
  };
}

function clock(override: string | undefined): () => Date {
  if (override === undefined) return () => new Date();
  const fixed = Date.parse(override);
  if (Number.isNaN(fixed)) {
    throw new Error(`certreseller: CERTRESELLER_NOW=${JSON.stringify(override)} is not an ISO 8601 date or time (e.g. 2027-11-01T00:00:00Z)`);
  }
  // Runs on from the given time rather than standing still, so durations still measure.
  const offset = fixed - Date.now();
  return () => new Date(Date.now() + offset);
}

/** Why this process sends no more CreateOrder (see {@link stopPurchases}); undefined while it may. */
let purchasesStopped: string | undefined;

/**
 * From now on no CreateOrder leaves this process: the provider plugin calls
 * it when the engine that started it is gone, since nothing could then
 * record the purchase in state. Work in flight finishes (an order already
 * bought is still submitted and journaled); a purchase not yet sent is
 * refused as the client refuses before sending (`invalid_argument`, nothing
 * bought), which `create` reports as such.
 */
export function stopPurchases(reason: string): void {
  purchasesStopped = reason;
}

/** Why `signal`'s call may not buy; undefined while it may. */
function callRefusal(signal: AbortSignal | undefined): string | undefined {
  if (!signal?.aborted) return undefined;
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : typeof reason === "string" ? reason : "the call this purchase was made for was cancelled";
}

const stoppable = new WeakMap<PartnerApi, PartnerApi>();

/**
 * `api` whose createOrder is refused, at the moment it would be sent, once
 * {@link stopPurchases} was called or the call it is sent for (the one
 * {@link runForCall} runs it under) was cancelled: the last gate before the
 * money, whatever the handler read or waited for before it. Nothing else is
 * refused: an order bought before the cancellation is still journaled and
 * submitted. One wrapper per client, whichever call asks: the catalogue and
 * account caches are keyed by it, once per process.
 */
function guardStoppedPurchases(api: PartnerApi): PartnerApi {
  let wrapper = stoppable.get(api);
  if (!wrapper) {
    wrapper = new Proxy(api, {
      get(target, property, receiver) {
        if (property === "createOrder") {
          return (...callArgs: unknown[]) => {
            const refusal = purchasesStopped ?? callRefusal(callSignals.getStore());
            return refusal === undefined
              ? (target.createOrder as (...a: unknown[]) => unknown).apply(target, callArgs)
              : Promise.reject(
                  new PartnerApiError(`CreateOrder: refused before sending: ${refusal}`, {
                    kind: "invalid_argument",
                    operation: "CreateOrder",
                    mayHaveReachedServer: false,
                  }),
                );
          };
        }
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    stoppable.set(api, wrapper);
  }
  return wrapper;
}

/** The calls that move money or change an order, by client method. */
const MONEY_MOVING: Readonly<Record<string, PartnerOperation>> = {
  createOrder: "CreateOrder",
  cancelOrder: "CancelOrder",
  applySign: "ApplySign",
  changeVerificationMethod: "ChangeVertificationMethod",
};

const guarded = new WeakMap<PartnerApi, PartnerApi>();

/**
 * With `CERTRESELLER_NOW` set, the calls that move money or change an order
 * are refused unless the base URL's host is loopback (a sandbox on this
 * machine): a clock override is for rehearsing a renewal in a preview or
 * following a sandbox's advanced clock, and an `up` against the real service
 * must not buy, cancel or submit on a pretend date. The refusal is the
 * client's own `invalid_argument` (nothing sent), so callers report
 * "nothing was bought / cancelled".
 *
 * @example
 * guardClockOverride(api, { ...settings, now: "2027-11-01T00:00:00Z" }).createOrder(req) // rejects unless the host is loopback
 */
export function guardClockOverride(api: PartnerApi, settings: ProviderSettings): PartnerApi {
  if (settings.now === undefined) return api;
  const host = baseUrlHost(settings);
  if (host !== undefined && isLoopback(host)) return api;
  let wrapper = guarded.get(api);
  if (!wrapper) {
    const where = host === undefined ? "the base URL is not a URL" : `the base URL's host ${host} is not loopback`;
    wrapper = new Proxy(api, {
      get(target, property, receiver) {
        const operation = typeof property === "string" ? MONEY_MOVING[property] : undefined;
        if (operation) {
          return () =>
            Promise.reject(
              new PartnerApiError(
                `${operation}: refused before sending: CERTRESELLER_NOW is set (the provider's clock reads ${settings.now}) and ${where}. ` +
                  "The clock override is for previews and for a sandbox on this machine; unset CERTRESELLER_NOW to buy, cancel or submit orders.",
                { kind: "invalid_argument", operation, mayHaveReachedServer: false },
              ),
            );
        }
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    guarded.set(api, wrapper);
  }
  return wrapper;
}
