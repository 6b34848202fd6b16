import * as path from "node:path";
import { consoleSink, type LogSink } from "./log.js";

/*
 * Why talk to the engine directly: the CLI (v3.259, verified) drops whatever
 * a provider plugin prints during a PREVIEW, so a warning from `check` or a
 * renewal reason from `diff` printed to stdout never reaches the user when it
 * matters most. The dynamic-provider host is started with the engine's
 * address as its first argument but never connects to it; this module does,
 * and sends the lines through the engine's Log RPC, which previews show as
 * diagnostics — but only lines that carry a resource URN (the engine drops
 * the others silently; they go to stdout, which `up` and `destroy` show).
 */

type EngineClient = { log(request: unknown, callback: (error: unknown) => void): void };
type EngineProto = { LogRequest: new () => any; LogSeverity: { INFO: number; WARNING: number } };

let engine: { client: EngineClient; proto: EngineProto } | null | undefined;
const pending = new Set<Promise<void>>();
/** Set by the provider plugin (cmd/pulumi-resource-certreseller.ts), which is started with the engine's address too. */
let pluginEngineAddress: string | undefined;

/**
 * Lines logged from now on go to the engine at `address` (the provider
 * plugin's first argument), as they do inside the dynamic-provider host.
 *
 * @example
 * useEngineAddress(process.argv[2]); // "127.0.0.1:45123"
 */
export function useEngineAddress(address: string): void {
  pluginEngineAddress = address;
  engine = undefined;
}

function connect(): { client: EngineClient; proto: EngineProto } | null {
  if (engine !== undefined) return engine;
  engine = null;
  const main = require.main?.filename ?? "";
  const address = pluginEngineAddress ?? process.argv[2] ?? "";
  const inHost = pluginEngineAddress !== undefined || /dynamic-provider[\\/]index\.js$/.test(main);
  if (!inHost || !/^(\[[0-9a-f:.]+\]|[\w.-]+):\d+$/i.test(address)) return engine;
  try {
    // grpc-js as @pulumi/pulumi itself resolves it (it is that package's dependency, not ours).
    const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
    const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
    const { EngineClient } = require("@pulumi/pulumi/proto/engine_grpc_pb");
    const proto = require("@pulumi/pulumi/proto/engine_pb") as EngineProto;
    engine = { client: new EngineClient(address, grpc.credentials.createInsecure()), proto };
  } catch {
    engine = null;
  }
  return engine;
}

/**
 * Where provider lines go in a front end that has no Pulumi engine (the
 * Terraform provider: its diagnostics); undefined: the engine, else stdout.
 *
 * @example
 * useLogSink((level, line) => collected.push({ level, line }));
 */
export function useLogSink(sink: LogSink | undefined): void {
  sinkOverride = sink;
}

let sinkOverride: LogSink | undefined;

/**
 * A sink that logs through the engine when running inside the
 * dynamic-provider host, the one {@link useLogSink} set, or undefined elsewhere (tests, scripts).
 */
export function engineSink(): LogSink | undefined {
  if (sinkOverride) return sinkOverride;
  const connected = connect();
  if (!connected) return undefined;
  return (level, line, urn) => {
    if (!urn) return consoleSink(level, line);
    const request = new connected.proto.LogRequest();
    request.setSeverity(level === "warn" ? connected.proto.LogSeverity.WARNING : connected.proto.LogSeverity.INFO);
    request.setMessage(line);
    request.setUrn(urn);
    request.setStreamid(0);
    request.setEphemeral(false);
    const sent = new Promise<void>((resolve) => {
      connected.client.log(request, (error) => {
        // The line must not be lost if the engine refuses it.
        if (error) console.log(line);
        resolve();
      });
    });
    pending.add(sent);
    void sent.then(() => pending.delete(sent));
  };
}

/** Waits until every line sent so far reached the engine (a method returns only after its lines). */
export async function flushEngineLog(timeoutMs = 5_000): Promise<void> {
  if (pending.size === 0) return;
  // A log line is never worth hanging a provider method for (an engine that went away).
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
    timer.unref();
  });
  await Promise.race([Promise.all([...pending]), timeout]);
  clearTimeout(timer);
}
