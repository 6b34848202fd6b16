/**
 * Every file generated from the declarations, by path from the repository
 * root: `sdk/schema.json`, each resource's `properties.generated.ts`, and the
 * generated tables of `docs/reference/*.md`. `npm run generate` writes them;
 * a unit test fails when a committed copy differs.
 */
import { PACKAGE } from "./package.js";
import { packageSchema } from "../schema/package-schema.js";
import { inputTable, outputTable, settingsTable, spliceGenerated } from "../schema/reference.js";
import { typescriptTypes } from "../schema/typescript.js";

/** Reads a committed file (repository-relative path); the docs pages are spliced, not replaced. */
export type ReadFile = (path: string) => string;

/**
 * The generated files, by repository-relative path.
 *
 * @example
 * ```ts
 * const files = generatedFiles((p) => fs.readFileSync(p, "utf8"));
 * files.get("sdk/schema.json");
 * ```
 */
export function generatedFiles(read: ReadFile): Map<string, string> {
  const files = new Map<string, string>();
  files.set("sdk/schema.json", `${JSON.stringify(packageSchema(PACKAGE), null, 2)}\n`);
  for (const { declaration, folder, imports } of PACKAGE.typescript) {
    files.set(`sdk/src/${folder}/properties.generated.ts`, typescriptTypes(declaration, imports, `./declaration.ts`));
  }
  for (const { declaration, page } of PACKAGE.pages) {
    const blocks: Record<string, string> = { inputs: inputTable(declaration.properties) };
    if (Object.values(declaration.properties).some((p) => p.input === false && p.output !== false)) blocks.outputs = outputTable(declaration.properties);
    files.set(page, spliceGenerated(read(page), blocks, page));
  }
  const configPage = "docs/configuration.md";
  files.set(configPage, spliceGenerated(read(configPage), { settings: settingsTable(PACKAGE.config, "certreseller") }, configPage));
  return files;
}
