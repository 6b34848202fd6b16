/**
 * The plugin outlives nothing: the engine that started it (the CLI) passes
 * its own address, and a plugin whose engine is gone (a CI runner killing
 * the job's process group leaves the plugin, in a group of its own, running
 * under PID 1) must stop. Pulumi's own providers health-check that address
 * (`rpcutil.Healthcheck`, every 5 minutes); this one does every
 * {@link ENGINE_CHECK_INTERVAL_MS}, so the bound is short: an engine that
 * fails {@link ENGINE_CHECK_FAILURES} checks in a row is gone. The checks
 * decide when the process exits; purchases stop sooner, as soon as the
 * engine's calls are cancelled (server.ts, {@link engineUnreachable}).
 */
import { grpc } from "./protocol.js";

/** How often the engine is asked. */
export const ENGINE_CHECK_INTERVAL_MS = 5_000;
/** Failed checks in a row that mean the engine is gone (a busy engine may miss one). */
export const ENGINE_CHECK_FAILURES = 3;
/** How long one check may wait for the engine's answer. */
const CHECK_DEADLINE_MS = 2_000;

/** `grpc.health.v1.Health/Check` with an empty request (the engine's whole server): its answer is not read, only whether it came. */
const HEALTH_CHECK = "/grpc.health.v1.Health/Check";

/** The engine's health answer from `client`: undefined when it came, else the failure's status code. */
function askEngine(client: InstanceType<typeof grpc.Client>): Promise<number | undefined> {
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      HEALTH_CHECK,
      () => Buffer.alloc(0),
      (bytes: Buffer) => bytes,
      {},
      { deadline: Date.now() + CHECK_DEADLINE_MS },
      (error) => resolve(error ? error.code : undefined),
    );
  });
}

/**
 * Whether the engine at the other end of `client` answers: its health
 * answer, or UNIMPLEMENTED from an engine without the health service. Every
 * other failure (no connection, a dropped one, no answer in time) is silence;
 * one silent check alone never means gone.
 */
export async function engineAnswers(client: InstanceType<typeof grpc.Client>): Promise<boolean> {
  const code = await askEngine(client);
  return code === undefined || code === grpc.status.UNIMPLEMENTED;
}

/** The address {@link watchEngine} watches: the one this process's engine gave. */
let watched: string | undefined;

/**
 * Whether nothing listens at the engine's address any more: one check on a
 * new connection that fails as UNAVAILABLE (refused or dropped). Stricter
 * than silence: a busy engine may answer late (DEADLINE_EXCEEDED), but a
 * live one always accepts the connection. False when no engine is watched.
 * The provider asks this when one of its calls is cancelled (server.ts).
 *
 * @example
 * if (await engineUnreachable()) stopPurchases("the engine is gone");
 */
export async function engineUnreachable(address: string | undefined = watched): Promise<boolean> {
  if (address === undefined) return false;
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  try {
    return (await askEngine(client)) === grpc.status.UNAVAILABLE;
  } finally {
    client.close();
  }
}

/**
 * Checks the engine at `address` every `intervalMs`; after `failures`
 * silent checks in a row calls `onGone` once and stops. The timer does not
 * keep the process alive by itself.
 *
 * @example
 * const stop = watchEngine("127.0.0.1:45123", () => provider.engineGone());
 */
export function watchEngine(
  address: string,
  onGone: () => void,
  { intervalMs = ENGINE_CHECK_INTERVAL_MS, failures = ENGINE_CHECK_FAILURES }: { intervalMs?: number; failures?: number } = {},
): () => void {
  watched = address;
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  let silent = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    client.close();
  };
  const tick = async () => {
    if (stopped) return;
    silent = (await engineAnswers(client)) ? 0 : silent + 1;
    if (stopped) return;
    if (silent >= failures) {
      stop();
      onGone();
      return;
    }
    timer = setTimeout(() => void tick(), intervalMs);
    timer.unref();
  };
  timer = setTimeout(() => void tick(), intervalMs);
  timer.unref();
  return stop;
}
