import * as pulumi from "@pulumi/pulumi";

/** grpc-js channel option: this channel keeps its own subchannels instead of the process-wide pool. */
export const LOCAL_SUBCHANNEL_POOL = "grpc.use_local_subchannel_pool";

interface RuntimeLike {
  grpcClientOptions?: Record<string, unknown>;
}

/**
 * Gives each of the Pulumi runtime's engine connections its own gRPC
 * subchannels.
 *
 * Why this exists: when a process runs several programs through the
 * Automation API (inline programs: a test suite, a deployment service),
 * @pulumi/pulumi (3.259-3.270) never closes a run's resource-monitor and
 * engine clients (`settings.disconnectSync` closes only the process-wide
 * ones, which inline runs do not use). Their subchannels stay in grpc-js's
 * process-wide pool, in reconnect back-off once that run's engine exits.
 * When a later engine listens on the same port, the new client is handed that
 * dead subchannel and its first call fails at once with
 * `14 UNAVAILABLE: No connection established. Last error: null`. The runtime
 * reads UNAVAILABLE as "the engine is shutting down" and stops registering
 * resources without an error: the preview or update succeeds with resources
 * silently missing (seen here: a preview of an invalid Order that passed
 * because the Order never reached the engine). A private pool per client
 * cannot be handed a stale subchannel. The option is read when each run
 * creates its clients, so setting it at import covers every later run.
 */
export function useLocalSubchannelPool(runtime: RuntimeLike = pulumi.runtime as unknown as RuntimeLike): void {
  const options = runtime.grpcClientOptions;
  if (options && typeof options === "object") options[LOCAL_SUBCHANNEL_POOL] = 1;
}

useLocalSubchannelPool();
