// `npm run engine`: make the Pulumi engine available and say where it is.
// Progress goes to stderr; the summary to stdout.
import { elapsed } from "./go-build.js";
import { ensureEngine, EngineUnavailableError } from "./provision.js";

async function main(): Promise<void> {
  const started = Date.now();
  const engine = await ensureEngine({ log: (line) => console.error(`[engine] ${line}`) });
  const how = { env: "from PULUMI_BINARY", path: "from PATH", cache: "cached", built: "built now" }[engine.source];
  console.log(`pulumi v${engine.version} (${how}): ${engine.pulumiPath}`);
  console.log(`  language host (directory programs): ${engine.languageHostDir ?? "none"}`);
  console.log(`  YAML language host (YAML programs): ${engine.yamlLanguageHostDir ?? "none"}`);
  console.log(`  policy analyzer (policy packs):     ${engine.analyzerDir}`);
  console.log(`  ready in ${elapsed(started)} (${Date.now() - started} ms)`);
}

main().catch((error: unknown) => {
  if (error instanceof EngineUnavailableError) {
    console.error(`[engine] ${error.message}`);
  } else {
    console.error("[engine] failed:", error);
  }
  process.exitCode = 1;
});
