// Claims the docs make that code can check: the sandbox port every example
// uses, the Node.js version (from `engines`), the troubleshooting table
// against the client's error kinds, and that each command a newcomer types
// is run by a test (tests/support/docs.ts lists where).
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMAND_DOCS, DOC_COMMAND_RUNS, DOCS_SANDBOX_PORT, REPO_ROOT, docCommands, readDoc, shellWords, tables } from "../../../tests/support/docs.js";

/** Every Markdown file a reader meets: the READMEs and docs/. */
function markdownFiles(): string[] {
  const files = ["README.md", "sandbox/README.md", "sdk/README.md"];
  for (const entry of fs.readdirSync(path.join(REPO_ROOT, "docs"), { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith(".md")) files.push(path.relative(REPO_ROOT, path.join(entry.parentPath, entry.name)));
  }
  for (const example of fs.readdirSync(path.join(REPO_ROOT, "examples"))) {
    if (fs.existsSync(path.join(REPO_ROOT, "examples", example, "README.md"))) files.push(`examples/${example}/README.md`);
  }
  return files;
}

describe("the sandbox port in the docs", () => {
  // A sandbox port is one typed after `--port`, in a base URL, or in a management URL (any language's spelling).
  const SANDBOX_PORT = /(?:certreseller-sandbox[^\n]*?--port |certreseller:baseUrl http:\/\/127\.0\.0\.1:|anagement_?[Uu]rl[^\n]*?127\.0\.0\.1:|"url":"http:\/\/127\.0\.0\.1:)(\d+)/g;

  it(`every sandbox started, configured or published to in the docs is on ${DOCS_SANDBOX_PORT}`, () => {
    const found: string[] = [];
    for (const file of markdownFiles()) {
      for (const [match, port] of readDoc(file).matchAll(SANDBOX_PORT)) {
        found.push(file);
        expect(Number(port), `${file}: ${match}`).toBe(DOCS_SANDBOX_PORT);
      }
    }
    // The places a reader follows together: a sandbox started by one doc must be the one the others name.
    expect(new Set(found)).toEqual(new Set(["README.md", "docs/sandbox.md", "docs/languages.md", "sandbox/README.md", "examples/quickstart/README.md"]));
  });
});

describe("the Node.js version in the docs", () => {
  const engines = (file: string) => (JSON.parse(readDoc(file)) as { engines: { node: string } }).engines.node;

  it("every stated minimum is the one `engines` declares (root and package)", () => {
    const declared = engines("package.json");
    expect(engines("sdk/package.json")).toBe(declared);
    const minimum = /^>=(\d+\.\d+)$/.exec(declared)?.[1];
    expect(minimum, `engines.node ${declared}`).toBeDefined();
    const stated: string[] = [];
    for (const file of markdownFiles()) {
      for (const [claim, atLeast, orLater] of readDoc(file).matchAll(/Node(?:\.js)?\s*(?:≥|>=)\s*(\d+(?:\.\d+)*)|Node(?:\.js)?\s+(\d+(?:\.\d+)*)\s+or later/g)) {
        stated.push(`${file}: ${claim}`);
        expect(atLeast ?? orLater, `${file}: "${claim}"`).toBe(minimum);
      }
    }
    expect(stated.length).toBeGreaterThanOrEqual(4);
  });
});

describe("docs/troubleshooting.md", () => {
  /** The kinds of `PartnerErrorKind`, read from its declaration. */
  function errorKinds(): string[] {
    const source = readDoc("sdk/src/client/errors.ts");
    const union = /export type PartnerErrorKind =([^;]*);/.exec(source)?.[1];
    if (!union) throw new Error("sdk/src/client/errors.ts: no PartnerErrorKind union");
    return [...union.matchAll(/"([a-z_]+)"/g)].map((m) => m[1]!);
  }

  it("its table has a row for every error kind of the client", () => {
    const table = tables(readDoc("docs/troubleshooting.md")).find((t) => t.header[0] === "code / kind");
    expect(table).toBeDefined();
    const documented = table!.rows.flatMap((row) => [...row[0]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!));
    const kinds = errorKinds();
    expect(kinds.length).toBeGreaterThan(10);
    expect(kinds.filter((kind) => !documented.includes(kind))).toEqual([]);
    expect(documented.filter((kind) => !kinds.includes(kind))).toEqual([]);
  });
});

describe("every command a newcomer types is run by a test", () => {
  it("each command of README.md, docs/install.md, docs/sandbox.md and docs/languages.md is listed with the test that runs it", () => {
    for (const doc of COMMAND_DOCS) {
      const listed = DOC_COMMAND_RUNS.filter((run) => run.doc === doc).map((run) => run.command);
      expect(docCommands(doc), doc).toEqual(expect.arrayContaining(listed));
      expect(listed, doc).toEqual(expect.arrayContaining(docCommands(doc)));
    }
  });

  it("each listed test exists and shows that it runs the command", () => {
    for (const run of DOC_COMMAND_RUNS) {
      const file = path.join(REPO_ROOT, run.test);
      expect(fs.existsSync(file), `${run.command}: ${run.test}`).toBe(true);
      expect(fs.readFileSync(file, "utf8"), `${run.command}: ${run.test}`).toContain(run.shows);
    }
  });

  it("splits command lines as a shell does", () => {
    expect(shellWords('pulumi config set --secret certreseller:apiKey "ak_…:…"')).toEqual(["pulumi", "config", "set", "--secret", "certreseller:apiKey", "ak_…:…"]);
    expect(shellWords(`pulumi import certreseller:index:Certificate site "CERT1/<certificate id>"`)).toEqual(["pulumi", "import", "certreseller:index:Certificate", "site", "CERT1/<certificate id>"]);
  });
});
