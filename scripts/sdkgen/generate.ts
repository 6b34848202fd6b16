import { execFile } from "node:child_process";
import * as path from "node:path";
import type { Log } from "../engine/go-build.js";
import type { CacheLayout } from "../engine/paths.js";
import { ensureGenerator, FLAVORS, LANGUAGES, type Language } from "./build.js";

export interface GenerateSdksOptions {
  schemaPath: string;
  /** Each language is written to `<outDir>/<language>/`, replacing what an earlier run wrote there. */
  outDir: string;
  /** Default: all of {@link LANGUAGES}. */
  languages?: readonly Language[];
  /** Package version to stamp instead of the schema's own. */
  version?: string;
  /** Build progress and the generators' warnings. */
  log?: Log;
  /** Engine cache override (tests; default: the user's cache). */
  layout?: CacheLayout;
}

export interface GeneratedSdk {
  language: Language;
  dir: string;
  files: number;
}

/** The generator refused or failed: a schema that does not bind, a bad argument, an unwritable folder. */
export class SdkGenerationError extends Error {
  override name = "SdkGenerationError";
  constructor(
    message: string,
    /** The generator's exit code (1: the schema or the generation failed; 2: usage). */
    readonly exitCode: number | null,
    /** Everything it printed on stderr, every binding diagnostic included. */
    readonly stderr: string,
  ) {
    super(message);
  }
}

/**
 * Generates the SDKs of `schemaPath` for the given languages, building the
 * generator first when the cache has no build of its current source.
 *
 * @example
 * const sdks = await generateSdks({ schemaPath: "sdk/schema.json", outDir: "generated-sdks", languages: ["go", "python"] });
 * // [{ language: "go", dir: "generated-sdks/go", files: 21 }, { language: "python", ... }]
 */
export async function generateSdks(options: GenerateSdksOptions): Promise<GeneratedSdk[]> {
  const log = options.log ?? (() => {});
  const wanted = options.languages ?? LANGUAGES;
  for (const language of wanted) {
    if (!LANGUAGES.includes(language)) throw new Error(`unknown language ${JSON.stringify(language)}; known: ${LANGUAGES.join(", ")}`);
  }
  const results = new Map<Language, GeneratedSdk>();
  // One run per build of the generator; builds one after the other (two cores).
  for (const flavor of FLAVORS) {
    const languages = flavor.languages.filter((language) => wanted.includes(language));
    if (languages.length === 0) continue;
    const binary = await ensureGenerator(flavor, { layout: options.layout, log });
    const args = ["--schema", path.resolve(options.schemaPath), "--out", path.resolve(options.outDir), "--lang", languages.join(",")];
    if (options.version) args.push("--version", options.version);
    for (const sdk of parseSummary(await runGenerator(binary, args, log))) results.set(sdk.language, sdk);
  }
  return wanted.map((language) => {
    const sdk = results.get(language);
    if (!sdk) throw new Error(`the generator reported nothing for ${language}`);
    return sdk;
  });
}

function runGenerator(binary: string, args: string[], log: Log): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(binary, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (!error) {
        for (const line of stderr.split("\n")) if (line) log(line);
        return resolve(stdout);
      }
      const exitCode = typeof error.code === "number" ? error.code : null;
      reject(new SdkGenerationError(`${path.basename(binary)} failed (exit ${error.code ?? error.signal}):\n${stderr.trim()}`, exitCode, stderr));
    });
  });
}

/** `go: 21 files in /abs/out/go`, one line per language. */
function parseSummary(stdout: string): GeneratedSdk[] {
  const sdks: GeneratedSdk[] = [];
  for (const line of stdout.split("\n")) {
    const match = /^(\w+): (\d+) files in (.+)$/.exec(line);
    if (match) sdks.push({ language: match[1] as Language, files: Number(match[2]), dir: match[3]! });
  }
  return sdks;
}
