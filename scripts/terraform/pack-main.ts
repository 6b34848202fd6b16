// `npm run terraform:pack [-- --out DIR]`: the provider as a filesystem
// mirror for Terraform and OpenTofu, hashicorp/dns's mirror beside it (built
// from third_party/terraform-provider-dns), and the CLI config that installs
// both from them.
import * as path from "node:path";
import { repoRoot } from "../engine/paths.js";
import { DnsProviderUnavailableError, ensureDnsProvider, packDnsMirror, type DnsMirror } from "./dns-provider.js";
import { packTerraformMirror, PROVIDER_SOURCE } from "./pack.js";

async function main(): Promise<void> {
  const at = process.argv.indexOf("--out");
  const outDir = path.resolve(at > 0 ? process.argv[at + 1]! : path.join(repoRoot, "dist-terraform"));
  const log = (line: string) => console.error(line);
  let dns: DnsMirror | undefined;
  try {
    dns = packDnsMirror(await ensureDnsProvider({ log }), { outDir, log });
  } catch (error) {
    if (!(error instanceof DnsProviderUnavailableError)) throw error;
    // Not fatal: without the mirror, `direct` installs hashicorp/dns from its registry where one is reachable.
    console.error(`${error.message}\nThe CLI config names no hashicorp/dns mirror: that provider then installs from its registry.`);
  }
  const { version, mirrorDir, executable, cliConfig, cliConfigPath } = await packTerraformMirror({
    outDir,
    extraMirrors: dns ? [{ path: dns.mirrorDir, include: dns.include }] : [],
    log,
  });
  console.log(mirrorDir);
  console.error(`provider ${PROVIDER_SOURCE} ${version}: ${executable}`);
  if (dns) console.error(`provider hashicorp/dns ${dns.version}: ${dns.mirrorDir}`);
  console.error(`\nCLI config (written to ${cliConfigPath}; use it with TF_CLI_CONFIG_FILE=${cliConfigPath},`);
  console.error("or paste it into ~/.terraformrc or ~/.tofurc):\n");
  console.error(cliConfig);
  const dnsLine = dns ? `    dns = {\n      source  = "hashicorp/dns"\n      version = "${dns.version}"\n    }\n` : "";
  console.error(`and in the program:\n\nterraform {\n  required_providers {\n    certreseller = {\n      source  = "${PROVIDER_SOURCE}"\n      version = "${version}"\n    }\n${dnsLine}  }\n}`);
}

main().catch((error: unknown) => {
  console.error(`terraform:pack: ${(error as Error).message}`);
  process.exit(1);
});
