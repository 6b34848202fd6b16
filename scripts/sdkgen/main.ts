// `npm run sdks [-- --out <dir>] [--lang go,python,dotnet,nodejs] [--schema <file>] [--version <semver>]`:
// the package's SDKs for other languages, by default from sdk/schema.json into generated-sdks/.
// Progress goes to stderr; the summary to stdout.
import * as path from "node:path";
import { parseArgs } from "node:util";
import { elapsed } from "../engine/go-build.js";
import { repoRoot } from "../engine/paths.js";
import { LANGUAGES, type Language } from "./build.js";
import { generateSdks, SdkGenerationError } from "./generate.js";

async function main(): Promise<void> {
  const started = Date.now();
  const { values } = parseArgs({
    options: {
      schema: { type: "string", default: path.join(repoRoot, "sdk", "schema.json") },
      out: { type: "string", default: path.join(repoRoot, "generated-sdks") },
      lang: { type: "string", default: LANGUAGES.join(",") },
      version: { type: "string" },
    },
    strict: true,
  });
  const languages = values.lang.split(",").map((name) => name.trim()) as Language[];
  const sdks = await generateSdks({
    schemaPath: values.schema,
    outDir: values.out,
    languages,
    version: values.version,
    log: (line) => console.error(`[sdkgen] ${line}`),
  });
  for (const sdk of sdks) console.log(`${sdk.language.padEnd(6)} ${String(sdk.files).padStart(3)} files  ${shown(sdk.dir)}`);
  console.log(`generated in ${elapsed(started)} (${Date.now() - started} ms)`);
}

/** Relative to the current folder when inside it, else absolute. */
function shown(dir: string): string {
  const relative = path.relative(process.cwd(), dir);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : dir;
}

main().catch((error: unknown) => {
  console.error(error instanceof SdkGenerationError || error instanceof Error ? `[sdkgen] ${error.message}` : error);
  process.exitCode = 1;
});
