/**
 * The reference tables of `docs/reference/*.md`, generated from the
 * declarations. A page is written by hand around its tables; the command
 * replaces only what lies between the generated markers.
 */
import { codes, entries, isInput, isOutput, outputText, storageNote, type PropertyDeclaration, type PropertyTable, type SchemaType } from "../schema/property.js";

/** The type column of one property. */
export function typeColumn(p: PropertyDeclaration): string {
  // A pipe ends a table cell even inside backticks; codes() escapes its own.
  return p.typeNote ? p.typeNote.replace(/(?<!\\)\|/g, "\\|") : typeText(p.type);
}

function typeText(type: SchemaType): string {
  switch (type.kind) {
    case "string":
    case "number":
    case "boolean":
      return type.kind;
    case "integer":
      return "number (whole)";
    case "any":
      return "any JSON value";
    case "enum":
      return codes(type.values);
    case "array":
      return `${typeText(type.items).replace(/ \(whole\)$/, "")}[]`;
    case "map":
      return `map of ${typeText(type.values)}`;
    case "object":
      return `\`{ ${entries(type.properties)
        .map(([name, p]) => (p.required ? name : `${name}?`))
        .join(", ")} }\``;
  }
}

const oneLine = (text: string): string => text.replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();

/** The change column as the reference words it: the effect, then its note. */
export function changeColumn(p: PropertyDeclaration): string {
  const word = p.change === "update" ? "**update**" : (p.change ?? "");
  return p.changeNote ? `${word}; ${p.changeNote}` : word;
}

/** The input table: input | type | default | change | description. */
export function inputTable(table: PropertyTable): string {
  const rows = entries(table)
    .filter(([, p]) => isInput(p))
    .map(([name, p]) => {
      const dflt = p.defaultNote ?? (p.required ? "— (required)" : "—");
      const secret = p.secret ? " (secret)" : "";
      const asOutput = [p.outputDescription, storageNote(p)].filter(Boolean).join(" ");
      const description = asOutput ? `${p.description} As an output: ${asOutput}` : p.description;
      return `| \`${name}\` | ${typeColumn(p)}${secret} | ${dflt} | ${changeColumn(p)} | ${oneLine(description)} |`;
    });
  // A table with a header and no row reads as a page left unfinished.
  if (rows.length === 0) return "None: it takes no inputs.";
  return ["| input | type | default | change | description |", "|---|---|---|---|---|", ...rows].join("\n");
}

/** The table of what the resource adds to its inputs: output | type | description. */
export function outputTable(table: PropertyTable): string {
  const rows = entries(table)
    .filter(([, p]) => isOutput(p) && !isInput(p))
    .map(([name, p]) => `| \`${name}\` | ${typeColumn(p)}${p.secret ? " (secret)" : ""} | ${oneLine([outputText(p), storageNote(p)].filter(Boolean).join(" "))} |`);
  return ["| output | type | description |", "|---|---|---|", ...rows].join("\n");
}

/** The settings table of the provider configuration: setting | type | environment | description. */
export function settingsTable(table: PropertyTable, prefix: string): string {
  const rows = entries(table).map(
    ([name, p]) =>
      `| \`${prefix}:${name}\` | ${typeColumn(p)}${p.secret ? " (secret)" : ""} | ${(p.env ?? []).map((e) => `\`${e}\``).join(", ") || "—"} | ${oneLine(p.description)} |`,
  );
  return ["| setting | type | environment | description |", "|---|---|---|---|", ...rows].join("\n");
}

const BEGIN = (name: string) => `<!-- BEGIN GENERATED ${name} (npm run generate; edit the declaration, not this table) -->`;
const END = (name: string) => `<!-- END GENERATED ${name} -->`;

/**
 * A page with each named block replaced; a block whose markers are missing
 * is an error (the page was edited by hand past its markers).
 *
 * @example
 * spliceGenerated(page, { inputs: inputTable(ORDER.properties) })
 */
export function spliceGenerated(page: string, blocks: Readonly<Record<string, string>>, where: string): string {
  let out = page;
  for (const [name, content] of Object.entries(blocks)) {
    const begin = out.indexOf(BEGIN(name));
    const end = out.indexOf(END(name));
    if (begin < 0 || end < begin) throw new Error(`${where}: no generated block "${name}" (markers ${BEGIN(name)} … ${END(name)})`);
    out = `${out.slice(0, begin)}${BEGIN(name)}\n${content}\n${out.slice(end)}`;
  }
  return out;
}

/** The two markers of a block, for a new page. */
export function emptyBlock(name: string): string {
  return `${BEGIN(name)}\n${END(name)}`;
}
