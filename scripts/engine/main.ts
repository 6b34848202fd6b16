// `npm run engine`: make the Pulumi engine available and say where it is.
// Progress goes to stderr; the summary to stdout.
import { elapsed } from "./go-build.js";
import { ensureEngine, EngineUnavailableError } from "./provision.js";
import { exportPathLine, shellPathDirs } from "./shell-path.js";

async function main(): Promise<void> {
  const started = Date.now();
  const engine = await ensureEngine({ log: (line) => console.error(`[engine] ${line}`) });
  const how = { env: "from PULUMI_BINARY", path: "from PATH", cache: "cached", built: "built now" }[engine.source];
  console.log(`pulumi v${engine.version} (${how}): ${engine.pulumiPath}`);
  console.log(`  language host (directory programs): ${engine.languageHostDir ?? "none"}`);
  console.log(`  YAML language host (YAML programs): ${engine.yamlLanguageHostDir ?? "none"}`);
  console.log(`  policy analyzer (policy packs):     ${engine.analyzerDir}`);
  console.log(`  ready in ${elapsed(started)} (${Date.now() - started} ms)`);
  // The CLI finds language hosts only beside itself or on PATH: say exactly what a shell needs.
  const missing = [engine.yamlLanguageHostDir ? "" : "YAML", engine.languageHostDir ? "" : "Node"].filter(Boolean);
  console.log("");
  console.log(`To run this pulumi from a shell (\`pulumi up\` in a project folder), paste this line there: it puts the workspace's Node, the CLI and the language hosts first on PATH`);
  console.log(exportPathLine(shellPathDirs(engine)));
  if (missing.length > 0) console.log(`(no ${missing.join(" or ")} language host here: run \`npm run engine\` with \`go\` on PATH to build it)`);
  if (engine.languageHostDir) {
    console.log(`(\`--policy-pack\` fails while the Node language host is on PATH: for policy packs, leave out ${engine.languageHostDir} and add ${engine.analyzerDir})`);
  }
}

main().catch((error: unknown) => {
  if (error instanceof EngineUnavailableError) {
    console.error(`[engine] ${error.message}`);
  } else {
    console.error("[engine] failed:", error);
  }
  process.exitCode = 1;
});
