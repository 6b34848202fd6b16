/**
 * `pulumi-resource-certreseller`: the provider plugin's process. The engine
 * starts it with its own address as the first argument and reads the port
 * the plugin listens on from its first line of output. `journal …` as the
 * first argument runs the journal command instead (cmd/certreseller.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { shellWord, useJournalRunner } from "../journal/command-line.js";
import { useEngineAddress } from "../provider/engine-log.js";
import { watchEngine } from "../plugin/engine-watch.js";
import { grpc, proto } from "../plugin/protocol.js";
import { CertresellerProvider } from "../plugin/server.js";
import { runFromCommandLine as runJournalCommand } from "./certreseller.js";

/** The engine's address among the arguments (the engine may add logging flags before it). */
function engineAddress(argv: readonly string[]): string | undefined {
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--tracing") i++;
    else if (arg !== "--logtostderr" && !arg.startsWith("-v=") && !arg.startsWith("--")) rest.push(arg);
  }
  return rest[0];
}

/**
 * A killed engine closes the plugin's stdout and stderr pipes; the next log
 * line then fails with EPIPE, which, unhandled, ends the process — possibly
 * between CreateOrder's answer and the journal write, leaving a paid order
 * recorded nowhere. Such a write is dropped instead: the log line is lost,
 * the purchase is not (the work in flight finishes, see plugin/engine-watch.ts).
 *
 * @example
 * survivePipeLoss(); // before anything is served
 */
export function survivePipeLoss(streams: NodeJS.WritableStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) stream.on("error", () => undefined);
}

/**
 * Serves the provider on a loopback port and prints the port.
 *
 * @example
 * await serve(process.argv.slice(2)); // prints "43121"
 */
export async function serve(argv: readonly string[]): Promise<void> {
  survivePipeLoss();
  const address = engineAddress(argv);
  if (address) useEngineAddress(address);
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  const provider = new CertresellerProvider();
  server.addService(proto.providerService.ResourceProviderService, provider.service() as never);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound)));
  });
  // The engine reads the port from the first line; as a string, so Node does not colour it.
  process.stdout.write(`${port}\n`);
  if (address) {
    // A plugin whose engine was killed is reparented to PID 1 and serves no one: stop (see plugin/engine-watch.ts).
    watchEngine(address, () => {
      void provider.engineGone().finally(() => {
        server.forceShutdown();
        process.exit(0);
      });
    });
  }
}

/**
 * The executable a user runs to reach this plugin's journal command: the
 * packed archive's launcher (scripts/plugin/pack.ts puts it three folders
 * above the package's bin: `<plugin>/pulumi-resource-certreseller` beside
 * `<plugin>/node_modules/pulumi-certreseller/bin/`), else the bin itself
 * (the package's bin run as an ambient plugin).
 *
 * @example
 * pluginExecutable("/h/.pulumi/plugins/resource-certreseller-v0.1.0/node_modules/pulumi-certreseller/bin/pulumi-resource-certreseller")
 * // "/h/.pulumi/plugins/resource-certreseller-v0.1.0/pulumi-resource-certreseller"
 */
export function pluginExecutable(bin: string): string {
  const binDir = path.dirname(path.resolve(bin));
  const launcher = path.join(binDir, "..", "..", "..", "pulumi-resource-certreseller");
  const packed = path.basename(path.dirname(path.dirname(binDir))) === "node_modules" && fs.existsSync(launcher);
  return packed ? launcher : path.resolve(bin);
}

/**
 * Entry of the `pulumi-resource-certreseller` bin. The engine starts it with
 * its address; a user runs `pulumi-resource-certreseller journal …`, the
 * journal command (an address never reads `journal`). Either way this
 * process's messages name this executable for the journal command: a plugin
 * user has no npm package in the project to run it from.
 */
export function runFromCommandLine(): void {
  const argv = process.argv.slice(2);
  useJournalRunner(shellWord(pluginExecutable(process.argv[1] ?? "pulumi-resource-certreseller")));
  if (argv[0] === "journal") {
    void runJournalCommand(argv);
    return;
  }
  serve(argv).catch((error: unknown) => {
    process.stderr.write(`pulumi-resource-certreseller: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
