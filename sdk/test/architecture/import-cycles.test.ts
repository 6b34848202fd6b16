/**
 * No import cycle in `sdk/src`: not between files, not between the top-level
 * folders (client, journal, money, pem, provider, resources, rules, ...), and
 * not between sibling subfolders (`resources/order`, `resources/certificate`,
 * ...). A folder lower down never imports one that imports it: what both need
 * moves down, or the caller passes it in.
 *
 * Every relative import/export-from specifier of every `.ts` file counts,
 * type-only ones too (`import type`, `import("./x.js").T`): a type import is
 * still a dependency of the module's meaning. `npm run cycles` (madge) checks
 * the file level too.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(__dirname, "../../src");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** Every module specifier a file names: imports, export-from, `import x = require()`, `import()` and `require()`. */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const literal = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) literal(node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require")) literal(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The `.ts` file a relative specifier names (`./x.js` is `./x.ts`, `./dir` is `./dir/index.ts`); undefined if none. */
function resolve(from: string, specifier: string): string | undefined {
  const target = path.resolve(path.dirname(from), specifier);
  const candidates = [target.replace(/\.(c|m)?js$/, ".$1ts"), target, `${target}.ts`, path.join(target, "index.ts")];
  return candidates.find((c) => c.endsWith(".ts") && fs.existsSync(c) && fs.statSync(c).isFile());
}

type Graph = Map<string, Map<string, string>>; // node -> (node it imports -> one import that makes the edge)

function addEdge(graph: Graph, from: string, to: string, why: string): void {
  if (!graph.has(from)) graph.set(from, new Map());
  if (!graph.has(to)) graph.set(to, new Map());
  if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, why);
}

/** Every cycle a depth-first search meets (one per back edge), each as its path `a -> b -> ... -> a`. */
function cycles(graph: Graph): string[][] {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of [...graph.get(node)!.keys()].sort()) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

/** A cycle, one line per edge, naming the import that makes it. */
function describeCycle(graph: Graph, cycle: string[]): string {
  const lines = cycle.slice(0, -1).map((node, i) => `  ${node} -> ${cycle[i + 1]}   (${graph.get(node)!.get(cycle[i + 1])})`);
  return `${cycle.join(" -> ")}\n${lines.join("\n")}`;
}

const files = sourceFiles(SRC);
const rel = (file: string) => path.relative(SRC, file).split(path.sep).join("/");

/** file -> the files of sdk/src it imports, with the specifier it names them by. */
const imports = new Map<string, { target: string; specifier: string }[]>();
const unresolved: string[] = [];
for (const file of files) {
  const targets: { target: string; specifier: string }[] = [];
  for (const specifier of specifiers(file)) {
    if (!specifier.startsWith(".")) continue;
    const target = resolve(file, specifier);
    if (target) targets.push({ target, specifier });
    else if (!path.relative(SRC, path.resolve(path.dirname(file), specifier)).startsWith("..")) unresolved.push(`${rel(file)}: "${specifier}"`);
  }
  imports.set(file, targets);
}

/**
 * The graph between the subfolders of `dir` (relative to sdk/src, "" for
 * sdk/src itself): A -> B when a file under A imports a file under B. Files
 * directly in `dir` are no node (a folder's facade, such as
 * `resources/order.ts`, may import its own subfolders).
 */
function folderGraph(dir: string): Graph {
  const graph: Graph = new Map();
  const childOf = (file: string): string | undefined => {
    const parts = rel(file).split("/");
    const depth = dir === "" ? 0 : dir.split("/").length;
    if (dir !== "" && parts.slice(0, depth).join("/") !== dir) return undefined;
    return parts.length > depth + 1 ? parts.slice(0, depth + 1).join("/") : undefined;
  };
  for (const [file, targets] of imports) {
    const from = childOf(file);
    if (!from) continue;
    for (const { target, specifier } of targets) {
      const to = childOf(target);
      if (to && to !== from) addEdge(graph, from, to, `${rel(file)} imports "${specifier}"`);
    }
  }
  return graph;
}

describe("imports in sdk/src", () => {
  it("are all read: every relative specifier names a file of sdk/src", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(unresolved, `relative imports this test could not resolve:\n${unresolved.join("\n")}`).toEqual([]);
  });

  it("form no cycle between the top-level folders (client, journal, provider, resources, ...)", () => {
    const graph = folderGraph("");
    expect(graph.size).toBeGreaterThan(5);
    const found = cycles(graph).map((c) => describeCycle(graph, c));
    expect(found, `folder import cycles in sdk/src:\n${found.join("\n\n")}`).toEqual([]);
  });

  it("form no cycle between sibling subfolders (resources/order, resources/certificate, ...)", () => {
    const dirs = [...new Set(files.map((f) => path.dirname(rel(f))))].filter((d) => d !== ".");
    const found = dirs.flatMap((dir) => {
      const graph = folderGraph(dir);
      return cycles(graph).map((c) => describeCycle(graph, c));
    });
    expect(found, `subfolder import cycles in sdk/src:\n${found.join("\n\n")}`).toEqual([]);
  });

  it("form no cycle between files", () => {
    const graph: Graph = new Map();
    for (const [file, targets] of imports) {
      if (!graph.has(rel(file))) graph.set(rel(file), new Map());
      for (const { target, specifier } of targets) addEdge(graph, rel(file), rel(target), `imports "${specifier}"`);
    }
    const found = cycles(graph).map((c) => describeCycle(graph, c));
    expect(found, `file import cycles in sdk/src:\n${found.join("\n\n")}`).toEqual([]);
  });

  it("sees a cycle when there is one (the check itself)", () => {
    const graph: Graph = new Map();
    addEdge(graph, "journal", "resources", "journal/digest.ts imports x");
    addEdge(graph, "resources", "journal", "resources/order/create.ts imports y");
    addEdge(graph, "resources", "client", "z");
    expect(cycles(graph).map((c) => c.join(" -> "))).toEqual(["journal -> resources -> journal"]);
  });
});
