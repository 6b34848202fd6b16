/**
 * The Order's inputs are declared once (src/resources/order/inputs.ts). The
 * README's `### Order` input table and the TSDoc of `OrderArgs` are written
 * by hand for readers: these tests hold both to the declaration, so a new
 * input, a changed default or a changed "change" effect cannot leave them
 * behind.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { INPUT_DECLARATIONS, REPLACE_KEYS, UPDATE_KEYS, type InputDeclaration } from "../../src/resources/order/inputs.js";

const root = path.resolve(__dirname, "../../..");

/** Cells of a Markdown table row; `\|` inside a cell is a literal pipe, kept escaped as written. */
function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

/** The input table of the README's `### Order` section: one entry per row, by input name. */
function readmeInputTable(): Map<string, string[]> {
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  const start = readme.indexOf("### `Order`\n");
  expect(start, "README has a ### `Order` section").toBeGreaterThanOrEqual(0);
  const section = readme.slice(start, readme.indexOf("\n### ", start + 1));
  const lines = section.split("\n");
  const header = lines.findIndex((line) => /^\|\s*input\s*\|\s*type\s*\|\s*default\s*\|\s*change\s*\|/.test(line));
  expect(header, "the section has an | input | type | default | change | table").toBeGreaterThanOrEqual(0);
  const rows = new Map<string, string[]>();
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith("|")) break;
    const [name, ...rest] = cells(line);
    rows.set(name!.replace(/^`|`$/g, ""), rest);
  }
  return rows;
}

/** The change column as the declaration words it. */
function changeColumn(declaration: InputDeclaration): string {
  const word = declaration.change === "update" ? "**update**" : declaration.change;
  return declaration.changeNote ? `${word}; ${declaration.changeNote}` : word;
}

describe("README ### Order input table", () => {
  const table = readmeInputTable();

  it("lists every declared input, in the declared order, and no other", () => {
    expect([...table.keys()]).toEqual(INPUT_DECLARATIONS.map(([name]) => name));
  });

  for (const [name, declaration] of INPUT_DECLARATIONS) {
    it(`${name}: type, default and change as declared`, () => {
      const row = table.get(name);
      expect(row, `README row for ${name}`).toBeDefined();
      const [type, defaultText, change] = row!;
      expect(change!.replace(/\*\*/g, "").split(/[;\s(]/)[0], "the change word").toBe(declaration.change);
      expect(change).toBe(changeColumn(declaration));
      expect(type).toBe(declaration.type);
      expect(defaultText).toBe(declaration.default);
    });
  }
});

describe("OrderArgs TSDoc", () => {
  const source = fs.readFileSync(path.join(root, "sdk/src/resources/order.ts"), "utf8");
  const body = /export interface OrderArgs \{([\s\S]*?)\n\}/.exec(source)?.[1] ?? "";
  const members = new Map<string, string>();
  for (const match of body.matchAll(/\/\*\*([\s\S]*?)\*\/\s*(\w+)\??:/g)) members.set(match[2]!, match[1]!.replace(/\s*\*\s*/g, " "));
  const phrase: Record<InputDeclaration["change"], string> = {
    replace: "Changing it buys a new order.",
    update: "Changes in place.",
    none: "Changing it alone changes nothing.",
  };

  it("documents exactly the declared inputs", () => {
    expect([...members.keys()].sort()).toEqual(INPUT_DECLARATIONS.map(([name]) => name).sort());
  });
  for (const [name, declaration] of INPUT_DECLARATIONS) {
    it(`${name} says what a change does (${declaration.change})`, () => {
      expect(members.get(name)).toContain(phrase[declaration.change]);
      for (const other of Object.values(phrase).filter((p) => p !== phrase[declaration.change])) expect(members.get(name)).not.toContain(other);
    });
  }
});

describe("keys derived from the declaration", () => {
  it("update in place: the verification method only; replace: every purchase input", () => {
    expect(UPDATE_KEYS).toEqual(["verificationMethod"]);
    expect(REPLACE_KEYS).not.toContain("renewBeforeDays");
    expect(REPLACE_KEYS).toEqual(expect.arrayContaining(["productCode", "domain", "years", "months", "companyInfo", "adoptOrderNo"]));
  });
});
