/**
 * `terraform-provider-certreseller`: the Terraform/OpenTofu provider's
 * process (plugin protocol 6). Terraform starts it with no arguments and its
 * handshake in the environment, reads one line from its stdout, then talks
 * gRPC over the unix socket that line names (terraform/server.ts).
 * `journal …` as the first argument runs the journal command instead
 * (cmd/certreseller.ts): a Terraform user has no npm project to run it from.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { shellWord, useJournalRunner } from "../journal/command-line.js";
import type { TerraformProvider } from "../terraform/contract.js";
import { HandshakeError } from "../terraform/handshake.js";
import { serveTerraform } from "../terraform/server.js";

const PROGRAM = "terraform-provider-certreseller";

/**
 * The provider half's provider (terraform/provider.ts). Required when the
 * process serves, so a start refused at the handshake does not pay for
 * loading the registry and its handlers.
 */
function loadProvider(): TerraformProvider {
  const { createProvider } = require("../terraform/provider.js") as typeof import("../terraform/provider.js");
  return createProvider();
}

/** The mirror's launcher's name: `terraform-provider-certreseller_v<version>` (scripts/terraform/pack.ts). */
const LAUNCHER = /^terraform-provider-certreseller_v[^/]+$/;

/**
 * The executable a Terraform user runs to reach this provider's journal
 * command: the mirror's launcher, three folders above the package's bin
 * (`<os_arch>/terraform-provider-certreseller_v<version>` beside
 * `<os_arch>/node_modules/pulumi-certreseller/bin/`; the launcher runs the
 * bin from its real folder, so this is the mirror's, the plugin cache's or
 * `.terraform/providers`' copy), else the bin itself (a checkout's or an
 * npm install's).
 *
 * @example
 * providerExecutable("/p/.terraform/providers/certreseller.invalid/certreseller/certreseller/0.1.0/linux_amd64/node_modules/pulumi-certreseller/bin/terraform-provider-certreseller")
 * // "/p/.terraform/providers/certreseller.invalid/certreseller/certreseller/0.1.0/linux_amd64/terraform-provider-certreseller_v0.1.0"
 */
export function providerExecutable(bin: string): string {
  const binDir = path.dirname(path.resolve(bin));
  const folder = path.join(binDir, "..", "..", "..");
  if (path.basename(path.dirname(path.dirname(binDir))) !== "node_modules") return path.resolve(bin);
  let names: string[] = [];
  try {
    names = fs.readdirSync(folder);
  } catch {
    // An unreadable folder: the bin still runs the command.
  }
  const launcher = names.filter((name) => LAUNCHER.test(name)).sort()[0];
  return launcher === undefined ? path.resolve(bin) : path.join(folder, launcher);
}

/**
 * Entry of the `terraform-provider-certreseller` bin: serves until Terraform
 * says Shutdown (or is gone); a start Terraform did not make (no magic
 * cookie, no protocol 6) prints why and exits 1. A user runs
 * `terraform-provider-certreseller_v<version> journal …`, the journal
 * command; either way this process's messages name this executable for it.
 */
export function runFromCommandLine(createProvider: () => TerraformProvider = loadProvider): void {
  const argv = process.argv.slice(2);
  useJournalRunner(shellWord(providerExecutable(process.argv[1] ?? PROGRAM)));
  if (argv[0] === "journal") {
    // Loaded here: a provider start does not pay for the journal command's modules.
    const { runFromCommandLine: runJournalCommand } = require("./certreseller.js") as typeof import("./certreseller.js");
    void runJournalCommand(argv);
    return;
  }
  // A closed pipe must not end the process between a purchase and its record (see cmd/pulumi-resource-certreseller.ts).
  for (const stream of [process.stdout, process.stderr]) stream.on("error", () => undefined);
  serveTerraform(createProvider, { program: PROGRAM }).catch((error: unknown) => {
    process.stderr.write(error instanceof HandshakeError ? `${error.message}\n` : `${PROGRAM}: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
