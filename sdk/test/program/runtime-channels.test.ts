import { createRequire } from "node:module";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import * as pulumi from "@pulumi/pulumi";
import "../../src/index.js";
import { LOCAL_SUBCHANNEL_POOL } from "../../src/program/runtime-channels.js";

// The grpc-js copy the Pulumi runtime itself uses.
const pulumiRequire = createRequire(path.join(path.dirname(require.resolve("@pulumi/pulumi/package.json")), "index.js"));
const grpc = pulumiRequire("@grpc/grpc-js") as typeof import("@grpc/grpc-js");

const json = { serialize: (x: unknown) => Buffer.from(JSON.stringify(x)), deserialize: (b: Buffer) => JSON.parse(b.toString()) as unknown };
const service = {
  ping: {
    path: "/probe.Probe/Ping",
    requestStream: false,
    responseStream: false,
    requestSerialize: json.serialize,
    requestDeserialize: json.deserialize,
    responseSerialize: json.serialize,
    responseDeserialize: json.deserialize,
  },
};
const ProbeClient = grpc.makeGenericClientConstructor(service, "Probe");
type Probe = InstanceType<typeof ProbeClient> & { ping(req: unknown, cb: (e: { code: number; details: string } | null) => void): void };

function serve(port: number): Promise<{ server: import("@grpc/grpc-js").Server; port: number }> {
  const server = new grpc.Server();
  server.addService(service, { ping: (_call: unknown, cb: (e: null, r: unknown) => void) => cb(null, {}) });
  return new Promise((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve({ server, port: p }))),
  );
}

const ping = (client: Probe) => new Promise<string>((resolve) => client.ping({}, (e) => resolve(e ? `${e.code} ${e.details}` : "ok")));

/**
 * What an Automation API process goes through: run 1's engine client is never
 * closed, its engine exits, run 2's engine listens on the same port and run 2
 * opens a new client with the same options.
 */
async function secondRunOnReusedPort(options: Record<string, unknown>): Promise<string> {
  const first = await serve(0);
  const leaked = new ProbeClient(`127.0.0.1:${first.port}`, grpc.credentials.createInsecure(), options) as Probe;
  expect(await ping(leaked)).toBe("ok");
  first.server.forceShutdown();
  await ping(leaked); // fails: the shared subchannel now backs off
  const second = await serve(first.port);
  const fresh = new ProbeClient(`127.0.0.1:${first.port}`, grpc.credentials.createInsecure(), options) as Probe;
  try {
    return await ping(fresh);
  } finally {
    second.server.forceShutdown();
    leaked.close();
    fresh.close();
  }
}

describe("the runtime's engine clients keep private gRPC subchannels", () => {
  const runtimeOptions = (pulumi.runtime as unknown as { grpcClientOptions: Record<string, unknown> }).grpcClientOptions;

  it("importing the package sets the option on the runtime's client options", () => {
    expect(runtimeOptions[LOCAL_SUBCHANNEL_POOL]).toBe(1);
  });

  // The failure exists while the shared subchannel backs off (1 s by default): a loaded
  // machine could outlast that between the two pings, so both cases back off for a minute.
  const LONG_BACKOFF = { "grpc.initial_reconnect_backoff_ms": 60_000 };

  it("a later run's client to a reused port connects", async () => {
    const { interceptors: _interceptors, ...channelOptions } = runtimeOptions;
    expect(await secondRunOnReusedPort({ ...channelOptions, ...LONG_BACKOFF })).toBe("ok");
  });

  // The cause, kept visible: if this starts to pass, grpc-js or the runtime
  // fixed it upstream and runtime-channels.ts can go.
  it("without it, the later client gets the dead subchannel (the upstream failure)", async () => {
    expect(await secondRunOnReusedPort({ ...LONG_BACKOFF })).toMatch(/^14 No connection established\. Last error: null/);
  });
});
