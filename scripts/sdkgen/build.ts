import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { goBinary, goBuild, scratchDir, type Log } from "../engine/go-build.js";
import { pulumiPkgGoMod } from "../engine/builds.js";
import { cacheLayout, type CacheLayout } from "../engine/paths.js";
import { PULUMI_VERSION } from "../engine/version.js";

/** The languages `certreseller-sdkgen` writes, in the order they are generated and reported. */
export const LANGUAGES = ["go", "python", "dotnet", "nodejs"] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * pkg/v3 lost its .NET generator before v3.259.0 and its new home
 * (pulumi-dotnet) is not served by the Go module proxy here, so .NET gets a
 * build of its own against v3.206.0, the pkg/v3 the YAML language host
 * already needs (see generator/dotnet.go).
 */
export const DOTNET_CODEGEN_VERSION = "3.206.0";

/** One build of the generator: the Pulumi modules it links, the sources it compiles, the languages it has. */
export interface GeneratorFlavor {
  /** Cached as `certreseller-sdkgen<suffix>-<hash>`. */
  suffix: string;
  pulumiVersion: string;
  /** Files of `generator/` copied into the scratch module; the others are left out (they need another pkg/v3). */
  sources: readonly string[];
  languages: readonly Language[];
}

export const FLAVORS: readonly GeneratorFlavor[] = [
  { suffix: "", pulumiVersion: PULUMI_VERSION, sources: ["main.go", "languages.go"], languages: ["go", "python", "nodejs"] },
  { suffix: "-dotnet", pulumiVersion: DOTNET_CODEGEN_VERSION, sources: ["main.go", "dotnet.go"], languages: ["dotnet"] },
];

/** The generator's Go source, committed beside this file. */
export const GENERATOR_SOURCE_DIR = path.join(__dirname, "generator");

export function flavorFor(language: Language): GeneratorFlavor {
  return FLAVORS.find((flavor) => flavor.languages.includes(language))!;
}

// Like the CLI's scratch module: pkg/v3's go.mod has replace lines a dependant does not inherit.
const generatorGoMod = (flavor: GeneratorFlavor): string => pulumiPkgGoMod("example.com/certreseller-sdkgen", flavor.pulumiVersion);

function readSources(flavor: GeneratorFlavor): Record<string, string> {
  return Object.fromEntries(flavor.sources.map((name) => [name, fs.readFileSync(path.join(GENERATOR_SOURCE_DIR, name), "utf8")]));
}

/**
 * The cached binary's path. Its name carries a hash of go.mod and the
 * sources, so an edited generator (or a new Pulumi pin) is a different file:
 * it is rebuilt, never run stale.
 */
export function generatorPath(flavor: GeneratorFlavor, layout: CacheLayout = cacheLayout(PULUMI_VERSION)): string {
  const hash = createHash("sha256").update(generatorGoMod(flavor));
  for (const [name, content] of Object.entries(readSources(flavor))) hash.update(`\0${name}\0${content}`);
  return path.join(layout.sdkgenDir, `certreseller-sdkgen${flavor.suffix}-${hash.digest("hex").slice(0, 12)}`);
}

/**
 * The generator binary for `flavor`, built into the engine cache from the Go
 * module proxy when missing (the sources changed, or a fresh machine).
 *
 * @example
 * const binary = await ensureGenerator(flavorFor("go"), { log: console.error });
 * execFileSync(binary, ["--schema", "sdk/schema.json", "--out", "generated-sdks", "--lang", "go"]);
 */
export async function ensureGenerator(flavor: GeneratorFlavor, options: { layout?: CacheLayout; log?: Log } = {}): Promise<string> {
  const layout = options.layout ?? cacheLayout(PULUMI_VERSION);
  const output = generatorPath(flavor, layout);
  if (fs.existsSync(output)) return output;
  if (!goBinary()) {
    throw new Error(`the SDK generator is built from Go modules and there is no \`go\` on PATH; install Go 1.26 or later (not cached: ${output})`);
  }
  await goBuild(
    {
      label: `SDK generator${flavor.suffix ? ` (${flavor.suffix.slice(1)})` : ""}, Pulumi codegen v${flavor.pulumiVersion}`,
      scratchDir: scratchDir(`sdkgen${flavor.suffix}`),
      goMod: generatorGoMod(flavor),
      files: readSources(flavor),
      pkg: ".",
      version: `v${flavor.pulumiVersion}`,
      output,
      expectedDuration: "seconds with a warm Go build cache, 1–2 min cold on 2 cores",
    },
    options.log ?? (() => {}),
  );
  removeOtherBuilds(output);
  return output;
}

/** Earlier builds of the same flavor (older sources): ~50 MB each, never run again. */
function removeOtherBuilds(current: string): void {
  const prefix = path.basename(current).replace(/[0-9a-f]{12}$/, "");
  for (const name of fs.readdirSync(path.dirname(current))) {
    if (name !== path.basename(current) && new RegExp(`^${prefix}[0-9a-f]{12}$`).test(name)) {
      fs.rmSync(path.join(path.dirname(current), name), { force: true });
    }
  }
}
