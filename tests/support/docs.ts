/**
 * The docs as a newcomer reads them: the commands they type (fenced `sh`
 * blocks and the README's command tables) and the rows of a table. Shared by
 * the unit doc tests (`sdk/test/docs/`) and the e2e run of the commands
 * (`tests/e2e/docs-commands.test.ts`), so both read the same lines.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** The repository root (this file lives in `tests/support/`). */
export const REPO_ROOT = path.resolve(__dirname, "..", "..");

/** The docs whose every command a test runs or points to a test that runs it. */
export const COMMAND_DOCS = ["README.md", "docs/install.md", "docs/sandbox.md", "docs/languages.md"] as const;
export type CommandDoc = (typeof COMMAND_DOCS)[number];

export function readDoc(relativePath: string): string {
  return fs.readFileSync(path.join(REPO_ROOT, relativePath), "utf8");
}

/**
 * Every command line the doc gives to type: each line of its ```sh blocks
 * without the trailing `# comment`, and each backticked cell of a table
 * column headed `command`.
 *
 * @example
 * docCommands("docs/sandbox.md")[0] // "npx certreseller-sandbox --port 8080"
 */
export function docCommands(relativePath: string): string[] {
  const text = readDoc(relativePath);
  const commands: string[] = [];
  for (const [, block] of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const line of block!.split("\n")) {
      const command = line.replace(/\s+#\s.*$/, "").trim();
      if (command !== "" && !command.startsWith("#")) commands.push(command);
    }
  }
  for (const table of tables(text)) {
    const column = table.header.indexOf("command");
    if (column < 0) continue;
    for (const row of table.rows) {
      const cell = /^`([^`]+)`$/.exec(row[column] ?? "");
      if (cell) commands.push(cell[1]!);
    }
  }
  return commands;
}

/** The one command of `doc` that starts with `prefix`, exactly as written there. */
export function docCommand(doc: CommandDoc, prefix: string): string {
  const found = docCommands(doc).filter((c) => c.startsWith(prefix));
  if (found.length !== 1) throw new Error(`${doc}: expected one command starting with ${JSON.stringify(prefix)}, found ${JSON.stringify(found)}`);
  return found[0]!;
}

export interface MarkdownTable {
  header: string[];
  rows: string[][];
}

/** The Markdown tables of `text`, cells trimmed. */
export function tables(text: string): MarkdownTable[] {
  const found: MarkdownTable[] = [];
  const lines = text.split("\n");
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\||\|$/g, "")
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i]!.trim().startsWith("|") || !/^\|(\s*:?-+:?\s*\|)+\s*$/.test(lines[i + 1]!.trim())) continue;
    const table: MarkdownTable = { header: cells(lines[i]!), rows: [] };
    for (i += 2; i < lines.length && lines[i]!.trim().startsWith("|"); i++) table.rows.push(cells(lines[i]!));
    found.push(table);
  }
  return found;
}

/** The sandbox port every doc's examples use (`--port`, `baseUrl`, `managementUrl`); the port itself is the reader's choice. */
export const DOCS_SANDBOX_PORT = 8080;

/**
 * Where each command of {@link COMMAND_DOCS} is run as written: `test` is the
 * file that runs it and `shows` a text of that file that proves it does
 * (`sdk/test/docs/commands.test.ts` holds the table to the docs both ways:
 * a new command in a doc fails until it is listed here).
 */
export interface DocCommandRun {
  doc: CommandDoc;
  command: string;
  test: string;
  shows: string;
}

const HERE = "tests/e2e/docs-commands.test.ts";
const PLUGIN_PACK = { test: "tests/e2e/global-setup.ts", shows: "packPlugin(" }; // what `npm run plugin:pack` runs (scripts/plugin/main.ts), once per e2e run
// The Python section's virtualenv commands, run as printed for every Python program world.
const PYTHON_VENV = { test: "tests/e2e/harness/python.ts", shows: "pythonDocs().commands" };
const PLUGIN_INSTALL = { test: "tests/e2e/global-setup.ts", shows: "The README's install step, word for word" };

export const DOC_COMMAND_RUNS: readonly DocCommandRun[] = [
  { doc: "README.md", command: "npm run demo", test: HERE, shows: '"npm run demo"' },
  // The suite itself: `npm test` is `npm run build && vitest run` (package.json).
  { doc: "README.md", command: "npm install && npm test", test: "package.json", shows: '"test": "npm run build && vitest run"' },
  { doc: "README.md", command: "npm install && npm run plugin:pack", ...PLUGIN_PACK },
  // What `npm run terraform:pack` runs (scripts/terraform/pack-main.ts), once per e2e run.
  { doc: "README.md", command: "npm install && npm run terraform:pack", test: "tests/e2e/global-setup.ts", shows: "packTerraformMirror(" },
  { doc: "README.md", command: "pulumi plugin install resource certreseller 0.1.0 --file dist-plugin/pulumi-resource-certreseller-v0.1.0.tar.gz", ...PLUGIN_INSTALL },
  { doc: "README.md", command: "npm run sdks -- --lang go,python,dotnet", test: "tests/e2e/generated-sdks.test.ts", shows: "generateSdks(" },
  { doc: "README.md", command: "pulumi config set certreseller:baseUrl https://partner.example.net", test: HERE, shows: '"pulumi config set certreseller:baseUrl https://"' },
  { doc: "README.md", command: 'pulumi config set --secret certreseller:apiKey "ak_…:…"', test: HERE, shows: `'pulumi config set --secret certreseller:apiKey "ak_'` },
  { doc: "docs/install.md", command: "npm install && npm run build && npm pack -w sdk", test: HERE, shows: '"npm install && npm run build && npm pack"' },
  { doc: "docs/install.md", command: "npm install <clone>/pulumi-certreseller-0.1.0.tgz @pulumi/pulumi", test: HERE, shows: '"npm install <clone>/"' },
  { doc: "docs/sandbox.md", command: "npm install && npm run build", test: "package.json", shows: '"test": "npm run build && vitest run"' },
  { doc: "docs/sandbox.md", command: "npx certreseller-sandbox --port 8080", test: HERE, shows: '"npx certreseller-sandbox"' },
  { doc: "docs/sandbox.md", command: "pulumi login --local", test: HERE, shows: '"pulumi login --local"' },
  { doc: "docs/sandbox.md", command: "pulumi stack init dev", test: HERE, shows: '"pulumi stack init"' },
  { doc: "docs/sandbox.md", command: "pulumi config set certreseller:baseUrl http://127.0.0.1:8080", test: HERE, shows: '"pulumi config set certreseller:baseUrl http://"' },
  { doc: "docs/sandbox.md", command: "pulumi config set --secret certreseller:apiKey <an apiKey it printed>", test: HERE, shows: '"pulumi config set --secret certreseller:apiKey <"' },
  { doc: "docs/sandbox.md", command: "pulumi up", test: HERE, shows: '"pulumi up"' },
  { doc: "docs/languages.md", command: "npm install && npm run plugin:pack", ...PLUGIN_PACK },
  { doc: "docs/languages.md", command: "pulumi plugin install resource certreseller 0.1.0 --file dist-plugin/pulumi-resource-certreseller-v0.1.0.tar.gz", ...PLUGIN_INSTALL },
  { doc: "docs/languages.md", command: "python3 -m venv venv", ...PYTHON_VENV },
  { doc: "docs/languages.md", command: "venv/bin/pip wheel --use-pep517 --no-deps --wheel-dir dist <clone>/generated-sdks/python", ...PYTHON_VENV },
  { doc: "docs/languages.md", command: "venv/bin/pip install pulumi==3.259.0 dist/pulumi_certreseller-0.1.0-py3-none-any.whl", ...PYTHON_VENV },
  { doc: "docs/languages.md", command: "pulumi import certreseller:index:Order site CERT202611250001", test: "tests/e2e/plugin/import.test.ts", shows: "certreseller:index:Order" },
  { doc: "docs/languages.md", command: 'pulumi import certreseller:index:Certificate site "CERT202611250001/<certificate id>"', test: "tests/e2e/harness/plugin-scenarios.ts", shows: "certreseller:index:Certificate" },
];

/**
 * A command line split into words as a POSIX shell would (quotes removed;
 * no expansions, which the docs' commands do not use).
 *
 * @example
 * shellWords('pulumi config set --secret certreseller:apiKey "ak_…:…"') // ["pulumi", "config", "set", "--secret", "certreseller:apiKey", "ak_…:…"]
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const [, double, single, bare] of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(double ?? single ?? bare!);
  return words;
}
