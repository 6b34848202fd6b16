/**
 * `terraform-provider-certreseller`: the Terraform/OpenTofu provider's
 * process (plugin protocol 6). Terraform starts it with no arguments and its
 * handshake in the environment, reads one line from its stdout, then talks
 * gRPC over the unix socket that line names (terraform/server.ts).
 */
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

/**
 * Entry of the `terraform-provider-certreseller` bin: serves until Terraform
 * says Shutdown; a start Terraform did not make (no magic cookie, no
 * protocol 6) prints why and exits 1.
 */
export function runFromCommandLine(createProvider: () => TerraformProvider = loadProvider): void {
  // A closed pipe must not end the process between a purchase and its record (see cmd/pulumi-resource-certreseller.ts).
  for (const stream of [process.stdout, process.stderr]) stream.on("error", () => undefined);
  serveTerraform(createProvider, { program: PROGRAM }).catch((error: unknown) => {
    process.stderr.write(error instanceof HandshakeError ? `${error.message}\n` : `${PROGRAM}: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
