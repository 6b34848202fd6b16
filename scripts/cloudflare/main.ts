// `npm run cloudflare-plugin`: make the Pulumi Cloudflare provider plugin available and say where it came from.
import { ensureEngine } from "../engine/index.js";
import { CloudflarePluginUnavailableError, ensureCloudflarePlugin } from "./plugin.js";

async function main(): Promise<void> {
  const engine = await ensureEngine({ build: false, languageHost: false, yamlHost: false });
  const plugin = await ensureCloudflarePlugin({ pulumiPath: engine.pulumiPath, log: (line) => console.error(`[cloudflare] ${line}`) });
  console.log(`cloudflare plugin v${plugin.version} (${plugin.source}) in ${plugin.elapsedMs} ms: ${plugin.binaryPath}`);
}

main().catch((error: unknown) => {
  console.error(`[cloudflare] ${error instanceof CloudflarePluginUnavailableError ? error.message : String(error)}`);
  process.exitCode = 1;
});
