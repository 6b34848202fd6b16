// `npm run terraform:pack [-- --out DIR]`: the provider as a filesystem
// mirror for Terraform and OpenTofu, and the CLI config that installs it.
import { packTerraformMirror, PROVIDER_SOURCE } from "./pack.js";

const at = process.argv.indexOf("--out");
packTerraformMirror({ outDir: at > 0 ? process.argv[at + 1] : undefined, log: (line) => console.error(line) })
  .then(({ version, mirrorDir, executable, cliConfig, cliConfigPath }) => {
    console.log(mirrorDir);
    console.error(`provider ${PROVIDER_SOURCE} ${version}: ${executable}`);
    console.error(`\nCLI config (written to ${cliConfigPath}; use it with TF_CLI_CONFIG_FILE=${cliConfigPath},`);
    console.error("or paste it into ~/.terraformrc or ~/.tofurc):\n");
    console.error(cliConfig);
    console.error(`and in the program:\n\nterraform {\n  required_providers {\n    certreseller = {\n      source  = "${PROVIDER_SOURCE}"\n      version = "${version}"\n    }\n  }\n}`);
  })
  .catch((error: unknown) => {
    console.error(`terraform:pack: ${(error as Error).message}`);
    process.exit(1);
  });
