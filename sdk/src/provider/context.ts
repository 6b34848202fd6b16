import type { PartnerApi } from "../client/types.js";
import { clientFor } from "./client-cache.js";
import type { ProviderSettings } from "./config.js";
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
  const apiKey = settings.apiKey;
  // The secret half alone is also a valid key, so scrub it on its own too.
  const secrets = apiKey ? [apiKey, apiKey.includes(":") ? apiKey.slice(apiKey.indexOf(":") + 1) : undefined] : [];
  return {
    type,
    settings,
    api: () => args.api ?? clientFor(settings),
    log: (name) => createLog({ type, name, secrets, sink: args.sink }),
    now: args.now ?? clock(settings.now),
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
