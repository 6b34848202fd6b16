// `npm run terraform:tools`: make OpenTofu and Terraform available (PATH,
// cache, or built from the Go module proxy) and say where they are.
// Progress goes to stderr; the summary to stdout.
import { elapsed } from "../engine/go-build.js";
import { ensureTerraformTools, TerraformToolUnavailableError } from "./provision.js";

async function main(): Promise<void> {
  const started = Date.now();
  const tools = await ensureTerraformTools({ log: (line) => console.error(`[terraform] ${line}`) });
  for (const tool of Object.values(tools)) {
    const how = { path: "from PATH", cache: "cached", built: "built now" }[tool.source];
    console.log(`${tool.name} ${tool.version} (${how}): ${tool.path}`);
  }
  console.log(`  ready in ${elapsed(started)}`);
  console.log("Then `npm run terraform:pack` for the provider's filesystem mirror and the CLI config that uses it.");
}

main().catch((error: unknown) => {
  console.error(error instanceof TerraformToolUnavailableError ? `[terraform] ${error.message}` : error);
  process.exitCode = 1;
});
