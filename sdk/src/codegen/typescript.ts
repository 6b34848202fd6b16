/**
 * The TypeScript argument and output types of a resource, generated from
 * its declaration so that a property is written once: `<Name>Args` (what a
 * program passes) and `<Name>Properties` (the `Output`s the class exposes,
 * merged into the class by an interface of the same name).
 */
import { alwaysSet, entries, isInput, isOutput, outputText, type Change, type PropertyDeclaration, type ResourceDeclaration, type SchemaType } from "../schema/property.js";

/** Where the generated file finds the named types it mentions: module → names. */
export type TypeImports = Readonly<Record<string, readonly string[]>>;

/** What a changed input does, as the last sentence of its TSDoc. */
function changeSentences(resource: ResourceDeclaration): Record<Change, string> {
  return {
    replace: `Changing it ${resource.replacement ?? "replaces the resource"}.`,
    update: "Changes in place.",
    none: "Changing it alone changes nothing.",
  };
}

function tsType(type: SchemaType, input: boolean): string {
  switch (type.kind) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "any":
      return "unknown";
    case "enum":
    case "object":
      return type.name;
    case "array": {
      const item = tsType(type.items, input);
      return input ? `pulumi.Input<${item}>[]` : `${item}[]`;
    }
    case "map":
      return `Record<string, ${tsType(type.values, input)}>`;
  }
}

/** A TSDoc block, wrapped at about 100 columns, indented by `indent`. */
function doc(text: string, indent: string): string {
  const words = text.replace(/\s+/g, " ").trim().split(" ");
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line !== "" && indent.length + 3 + line.length + 1 + word.length > 100) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  if (lines.length === 1 && indent.length + 8 + lines[0]!.length <= 110) return `${indent}/** ${lines[0]!.replace(/\*\//g, "*\\/")} */`;
  return [`${indent}/**`, ...lines.map((l) => `${indent} * ${l.replace(/\*\//g, "*\\/")}`), `${indent} */`].join("\n");
}

const article = (word: string): string => (/^[AEIOU]/.test(word) ? "an" : "a");

/** A TSDoc block with an `@example` fenced program fragment. */
function exampleDoc(text: string, example: string | undefined): string {
  if (example === undefined) return doc(text, "");
  return ["/**", ` * ${text}`, " *", " * @example", " * ```ts", ...example.trim().split("\n").map((l) => ` * ${l}`.trimEnd()), " * ```", " */"].join("\n");
}


function inputDoc(p: PropertyDeclaration, sentences: Record<string, string>): string {
  const parts = [p.description];
  const unset = /^—\s*\((.*)\)$/.exec(p.defaultNote ?? "")?.[1];
  if (p.defaultNote && !p.defaultNote.startsWith("—") && !p.required) parts.push(`Default: ${p.defaultNote}.`);
  else if (unset && !p.required) parts.push(`Unset: ${unset}.`);
  if (p.change) parts.push(p.changeNote ? `${sentences[p.change]!.replace(/\.$/, "")} (${p.changeNote}).` : sentences[p.change]!);
  if (p.secret) parts.push("A secret.");
  if (p.outputDescription) parts.push(`As an output: ${p.outputDescription}`);
  return parts.join(" ");
}

/**
 * The source of the generated types module of one resource.
 *
 * @example
 * ```ts
 * const source = typescriptTypes(ORDER, { "../../client/types.js": ["CompanyInfo"] });
 * ```
 */
export function typescriptTypes(resource: ResourceDeclaration, imports: TypeImports, from: string): string {
  const sentences = changeSentences(resource);
  const args: string[] = [];
  const values: string[] = [];
  const outputs: string[] = [];
  for (const [name, p] of entries(resource.properties)) {
    if (isInput(p) && !p.pluginOnly) {
      const type = p.tsType ?? tsType(p.type, true);
      // A TypeScript-only argument (an `Order` object, a callback) is taken as it is and never reaches the provider.
      const arg = p.tsOnly ? type : `pulumi.Input<${type}>`;
      args.push(doc(inputDoc(p, sentences), "  "), `  ${name}${p.required && p.filledBy === undefined ? "" : "?"}: ${arg};`);
      const plain = p.tsType ?? tsType(p.type, false);
      // What the handlers hold after `check`: a required input or one `check` fills in.
      if (!p.tsOnly && !p.presentation) values.push(`  ${name}${p.required || p.fallback ? "" : "?"}: ${plain};`);
    }
    if (isOutput(p)) {
      const type = p.tsOutputType ?? p.tsType ?? tsType(p.type, false);
      const description = outputText(p);
      const text = p.secret ? `${description} A secret.` : description;
      const open = alwaysSet(p) || type.endsWith("| undefined") ? "" : " | undefined";
      outputs.push(doc(text, "  "), `  readonly ${name}: pulumi.Output<${type}${open}>;`);
    }
  }
  const body = [...args, ...values, ...outputs].join("\n");
  const used = Object.entries(imports)
    .map(([module, names]) => [module, names.filter((n) => new RegExp(`\\b${n}\\b`).test(body))] as const)
    .filter(([, names]) => names.length > 0);
  return [
    `// Generated by \`npm run generate\` from ${from}: edit the declaration, not this file.`,
    `import type * as pulumi from "@pulumi/pulumi";`,
    ...used.map(([module, names]) => `import type { ${[...names].sort().join(", ")} } from "${module}";`),
    "",
    exampleDoc(`Arguments of ${article(resource.name)} {@link ${resource.name}}.`, resource.example),
    `export interface ${resource.name}Args {`,
    ...args,
    "}",
    "",
    doc(`The inputs of ${article(resource.name)} {@link ${resource.name}} as its provider holds them after \`check\`: plain values, the defaults filled in.`, ""),
    `export interface ${resource.name}InputValues {`,
    ...values,
    "}",
    "",
    doc(`What ${article(resource.name)} {@link ${resource.name}} reports: every input, as normalised, and what the resource adds.`, ""),
    `export interface ${resource.name}Properties {`,
    ...outputs,
    "}",
    "",
  ].join("\n");
}
