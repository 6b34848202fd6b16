import type { RuntimeConfig } from "../../service/context.js";
import { HttpError, reply, type ManagementDeps, type Reply, type Route } from "./route.js";

const CONFIG_KEYS: Array<keyof RuntimeConfig> = [
  "validation", "issueAfterSeconds", "statusCooldownSeconds", "methodCooldownSeconds", "refundWindowDays", "mirrorStatus", "upstreamCancelFails",
  "renewalWindowDays",
];

/** Validates a partial runtime configuration; throws naming the bad key. */
export function parseConfigPatch(body: Record<string, unknown>, realAvailable: boolean): Partial<RuntimeConfig> {
  const out: Partial<RuntimeConfig> = {};
  for (const [k, v] of Object.entries(body)) {
    if (!(CONFIG_KEYS as string[]).includes(k)) throw new HttpError(400, `${k} is not a runtime setting; settings: ${CONFIG_KEYS.join(", ")}`);
    if (k === "validation") {
      if (v !== "auto" && v !== "published" && v !== "real") throw new HttpError(400, "validation must be auto, published or real");
      if (v === "real" && !realAvailable) throw new HttpError(400, "validation real needs the real validator, which this sandbox was started without");
      out.validation = v;
    } else if (k === "mirrorStatus" || k === "upstreamCancelFails") {
      if (typeof v !== "boolean") throw new HttpError(400, `${k} must be a boolean`);
      out[k] = v;
    } else {
      if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw new HttpError(400, `${k} must be a non-negative number`);
      (out as Record<string, unknown>)[k] = v;
    }
  }
  return out;
}

/** Health, the clock, faults, the request log, runtime config and the CA. */
export async function runtimeRoutes({ ctx, faults, log, ca }: ManagementDeps, r: Route): Promise<Reply | undefined> {
  const { store, clock } = ctx;
  if (r.is("GET", "health")) return reply({ ok: true });

  if (r.is("GET", "clock")) return reply({ now: clock.now().toISOString(), offsetSeconds: clock.offsetMs / 1000 });
  if (r.is("POST", "clock", "advance")) {
    const { seconds } = await r.body();
    if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) throw new HttpError(400, "seconds must be a non-negative number");
    const now = clock.advance(seconds);
    store.clockOffsetMs = clock.offsetMs;
    store.markMeta();
    return reply({ now: now.toISOString(), offsetSeconds: clock.offsetMs / 1000 });
  }

  if (r.is("GET", "faults")) return reply(faults.get());
  if (r.is("PUT", "faults")) {
    faults.merge(await r.body());
    return reply(faults.get());
  }
  if (r.is("DELETE", "faults")) {
    faults.clear();
    return reply({});
  }

  if (r.is("GET", "requests")) return reply(log.list());
  if (r.is("DELETE", "requests")) {
    log.clear();
    return reply([]);
  }

  if (r.is("GET", "config")) return reply(ctx.config);
  if (r.is("PUT", "config")) {
    Object.assign(ctx.config, parseConfigPatch(await r.body(), ctx.realValidator !== undefined));
    return reply(ctx.config);
  }

  if (r.is("GET", "ca", "root.pem")) return { pem: ca.rootPem };
  if (r.is("GET", "ca", "chain.pem")) return { pem: `${ca.intermediatePem.trim()}\n${ca.rootPem.trim()}\n` };
  return undefined;
}
