// `npx tsx scripts/dns/main.ts`: make BIND 9 available (installing Debian's
// package when it is missing) and start one server for a look, as the e2e
// suite starts it; `--keep` leaves it running until Ctrl-C.
import { startBind } from "./bind.js";
import { BindUnavailableError, ensureBind } from "./provision.js";

async function main(): Promise<void> {
  const started = Date.now();
  const bind = await ensureBind({ log: (line) => console.error(`[bind] ${line}`) });
  console.log(`BIND ${bind.version} (${bind.source}): ${bind.namedPath}, ready in ${Date.now() - started} ms`);
  const server = await startBind();
  console.log(`named on ${server.address} for zone ${server.zone} (key ${server.keyName}, ${server.algorithm}), started in ${server.startupMs} ms`);
  if (!process.argv.includes("--keep")) {
    await server.stop();
    return;
  }
  console.log(`config and zone files: ${server.dir}; Ctrl-C stops it`);
  await new Promise<void>((resolve) => process.once("SIGINT", resolve));
  await server.stop();
}

main().catch((error: unknown) => {
  console.error(error instanceof BindUnavailableError ? `[bind] ${error.message}` : error);
  process.exitCode = 1;
});
