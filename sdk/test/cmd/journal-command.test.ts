/**
 * The journal command as users reach it (issue 40, items 4 and 7): the
 * command lines messages and docs print never let npx fetch a package (none
 * of these names is published); the plugin's executable runs the journal
 * command; and run in a project's folder, the command reads the selected
 * stack's journal setting, saying which journal it read and why.
 */
import { spawnSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cmd/certreseller.js";
import { pluginExecutable } from "../../src/cmd/pulumi-resource-certreseller.js";
import { INSTALLED_PACKAGE_RUNNER, journalCommandLine, useJournalRunner } from "../../src/journal/command-line.js";
import { openJournal, PurchaseJournal } from "../../src/journal/index.js";
import { defaultJournalDir } from "../../src/provider/config.js";

const REPO = path.resolve(__dirname, "..", "..", "..");
const KEY = "org=organization;backend=b;urn:pulumi:dev::shop::certreseller:index:Order::site";

/** Runs the command in process in `cwd`: its exit code and what it printed. */
async function journalCommand(argv: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await main(argv, env, (l) => lines.push(l), cwd);
  return { code, lines };
}

/** An entry as a create leaves it: an intent, and `orderNo` when CreateOrder answered. */
async function journalEntry(dir: string, orderNo?: string): Promise<string> {
  const journal = openJournal({ journalDir: dir }, {});
  await journal.recordIntent({ key: KEY, urn: KEY.split(";")[2], domain: "shop.example.com", productCode: "sandbox-dv-single", names: ["shop.example.com"] });
  if (orderNo) await journal.recordOrder(KEY, orderNo, { orderNo });
  return PurchaseJournal.nameFor(KEY).replace(".json", "");
}

/** Every `npx …` naming one of this project's bins or its package, with the options before the name. */
function npxOfOurNames(text: string): { options: string; line: string }[] {
  const found: { options: string; line: string }[] = [];
  // certreseller-sandbox is left out: it runs in the clone (a workspace package), with no API key around.
  const pattern = /npx((?:\s+--?[\w-]+(?:=\S+)?)*)\s+(?:pulumi-certreseller|pulumi-resource-certreseller|certreseller(?:-preview-money)?)(?![\w-])/g;
  for (const match of text.matchAll(pattern)) {
    const end = text.indexOf("\n", match.index);
    found.push({ options: match[1]!, line: text.slice(text.lastIndexOf("\n", match.index) + 1, end < 0 ? undefined : end) });
  }
  return found;
}

function filesUnder(dir: string, ext: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(ext)).map((f) => path.join(dir, f));
}

describe("the printed journal command never lets npx fetch a package", () => {
  afterEach(() => useJournalRunner(INSTALLED_PACKAGE_RUNNER));

  it("a TypeScript program's messages run the project's installed bin (npx --no-install), with the journal's location in front", () => {
    const journal = new PurchaseJournal("/var/lib/my journal");
    expect(journal.command("rm 0123")).toBe("CERTRESELLER_JOURNAL_DIR='/var/lib/my journal' npx --no-install certreseller journal rm 0123");
    expect(journalCommandLine("ls")).toBe("npx --no-install certreseller journal ls");
  });

  it("a plugin process's messages run the plugin's own executable", () => {
    useJournalRunner("/h/.pulumi/plugins/resource-certreseller-v0.1.0/pulumi-resource-certreseller");
    expect(new PurchaseJournal("/j").command("ls")).toBe("CERTRESELLER_JOURNAL_DIR=/j /h/.pulumi/plugins/resource-certreseller-v0.1.0/pulumi-resource-certreseller journal ls");
  });

  it("no source file or doc prints an npx of this project's names without --no-install (or --no)", () => {
    const files = [
      ...filesUnder(path.join(REPO, "sdk", "src"), ".ts"),
      ...filesUnder(path.join(REPO, "docs"), ".md"),
      ...["README.md", "sdk/README.md", "policy/README.md"].map((f) => path.join(REPO, f)),
      ...fs.readdirSync(path.join(REPO, "examples")).map((e) => path.join(REPO, "examples", e, "README.md")).filter((f) => fs.existsSync(f)),
    ];
    const unguarded = files.flatMap((file) =>
      npxOfOurNames(fs.readFileSync(file, "utf8"))
        .filter(({ options }) => !/(^|\s)--no(-install)?(\s|$)/.test(`${options} `))
        .map(({ line }) => `${path.relative(REPO, file)}: ${line.trim()}`),
    );
    expect(unguarded).toEqual([]);
    // The scan sees the guarded form it allows.
    expect(npxOfOurNames("run `npx --no-install certreseller journal`")).toEqual([{ options: " --no-install", line: "run `npx --no-install certreseller journal`" }]);
  });
});

describe("the plugin executable's journal subcommand", () => {
  let dir: string;
  beforeAll(() => void (dir = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-plugin-journal-"))));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("names the packed archive's launcher (three folders above the package's bin), else the bin itself", () => {
    const plugin = path.join(dir, "resource-certreseller-v0.1.0");
    const bin = path.join(plugin, "node_modules", "pulumi-certreseller", "bin", "pulumi-resource-certreseller");
    fs.mkdirSync(path.dirname(bin), { recursive: true });
    fs.writeFileSync(bin, "");
    expect(pluginExecutable(bin)).toBe(bin);
    fs.writeFileSync(path.join(plugin, "pulumi-resource-certreseller"), "");
    expect(pluginExecutable(bin)).toBe(path.join(plugin, "pulumi-resource-certreseller"));
    expect(pluginExecutable(path.join(REPO, "sdk", "bin", "pulumi-resource-certreseller"))).toBe(path.join(REPO, "sdk", "bin", "pulumi-resource-certreseller"));
  });

  it("`pulumi-resource-certreseller journal ls` lists the journal and exits, and `journal rm` (as its footer prints it) removes the entry", async () => {
    const journalDir = path.join(dir, "journal");
    const id = await journalEntry(journalDir);
    const bin = path.join(REPO, "sdk", "bin", "pulumi-resource-certreseller");
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: "utf8", timeout: 20_000, env: { ...process.env, CERTRESELLER_JOURNAL_DIR: journalDir } });
    const listed = run("journal", "ls");
    expect(listed.status, listed.stdout + listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^purchase journal ${journalDir} \\(from environment variable CERTRESELLER_JOURNAL_DIR\\): 1 entry\n`));
    expect(listed.stdout).toContain(`${id}  `);
    expect(listed.stdout).toContain(`\`${bin} journal rm <id>\``);
    const removed = run("journal", "rm", id);
    expect(removed.status, removed.stdout + removed.stderr).toBe(0);
    expect(await openJournal({ journalDir }, {}).list()).toEqual([]);
  });
});

describe("run in a project's folder, the journal command reads the stack's journal setting", () => {
  let root: string;
  let project: string;
  let home: string;
  let env: NodeJS.ProcessEnv;
  const stackDir = () => path.join(root, "stack-journal");

  /** The CLI's workspace settings for the project, as `pulumi stack select` writes them. */
  const select = (settings: object) => {
    const file = path.join(project, "Pulumi.yaml");
    const hash = crypto.createHash("sha1").update(file).digest("hex");
    fs.mkdirSync(path.join(home, "workspaces"), { recursive: true });
    fs.writeFileSync(path.join(home, "workspaces", `shop-${hash}-workspace.json`), JSON.stringify(settings));
  };

  beforeAll(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-stack-journal-")));
    project = path.join(root, "project");
    home = path.join(root, "pulumi-home");
    fs.mkdirSync(path.join(project, "sub"), { recursive: true });
    fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: shop\nruntime: yaml\n");
    fs.writeFileSync(path.join(project, "Pulumi.dev.yaml"), `config:\n  certreseller:journalDir: ${stackDir()}\n  certreseller:baseUrl: http://127.0.0.1:1\n`);
    fs.writeFileSync(path.join(project, "Pulumi.prod.yaml"), "config:\n  certreseller:journalDir:\n    secure: v1:abc\n");
    env = { PULUMI_HOME: home, PULUMI_BACKEND_URL: "file:///backends/one" };
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it("lists the selected stack's journal (from a subfolder too), its first line naming the journal and the stack's config as the source", async () => {
    const id = await journalEntry(stackDir(), "CERT202611250001");
    select({ stacks: { "file:///backends/two": "organization/shop/prod", "file:///backends/one": "organization/shop/dev" } });
    for (const cwd of [project, path.join(project, "sub")]) {
      const { code, lines } = await journalCommand(["journal"], env, cwd);
      expect(code).toBe(0);
      expect(lines[0]).toMatch(new RegExp(`^purchase journal ${stackDir()} \\(from stack dev's config, certreseller:journalDir in (\\.\\./)?Pulumi\\.dev\\.yaml\\): 1 entry$`));
      expect(lines).toContain(`${id}  ${path.join(stackDir(), `${id}.json`)}`);
    }
    // An earlier CLI's settings: one selected stack for every backend.
    select({ stack: "dev" });
    expect((await journalCommand(["journal"], env, project)).lines[0]).toContain(`purchase journal ${stackDir()} (from stack dev's config`);
    expect(await journalCommand(["journal", "rm", id], env, project)).toMatchObject({ code: 0, lines: [expect.stringMatching(/^removed .* \(purchase journal .* \(from stack dev's config/)] });
    expect(await openJournal({ journalDir: stackDir() }, {}).list()).toEqual([]);
  });

  it("the footer says what the entries are: not yet held by a stack's state, removed once the engine holds the order; no order number is a lost answer", async () => {
    await journalEntry(stackDir(), "CERT202611250002");
    select({ stack: "dev" });
    const text = (await journalCommand(["journal"], env, project)).lines.join("\n");
    expect(text).not.toContain("An entry stays while a create has not finished");
    expect(text).toContain("Each entry is a purchase whose order its stack's state may not hold yet");
    expect(text).toContain("removed by its Order's next preview, up, refresh or destroy once the engine holds that order");
    expect(text).toContain("An entry with no order number is a CreateOrder whose answer was lost");
    expect(text).toContain("`npx --no-install certreseller journal rm <id>`");
    fs.rmSync(stackDir(), { recursive: true, force: true });
  });

  it("--stack reads that stack's file; a secret setting is named as unreadable and the default is read", async () => {
    select({ stack: "dev" });
    const { lines } = await journalCommand(["journal", "--stack", "prod"], env, project);
    // The default folder is this machine's: whatever it holds.
    expect(lines[0]).toMatch(/: \d+ entr(y|ies)$/);
    expect(lines[0]).toContain(
      `purchase journal ${defaultJournalDir()} (from the default, as stack prod sets neither certreseller:journalUrl nor certreseller:journalDir and no CERTRESELLER_JOURNAL_* variable is set): `,
    );
    expect(lines).toContain("note: stack prod sets certreseller:journalDir as a secret, which this command cannot read: give it in the environment instead");
  });

  it("the project's config in Pulumi.yaml is read when the stack's file sets none", async () => {
    const other = path.join(root, "project-config");
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, "Pulumi.yaml"), `name: shop\nruntime: yaml\nconfig:\n  certreseller:journalDir:\n    default: ${path.join(root, "project-default")}\n`);
    const { lines } = await journalCommand(["journal", "-s", "staging"], env, other);
    expect(lines[0]).toBe(`purchase journal ${path.join(root, "project-default")} (from stack staging's config, certreseller:journalDir in Pulumi.yaml, the project's config): 0 entries`);
  });

  it("the environment's location wins (the provider's printed commands give it so), with a note naming the stack's", async () => {
    select({ stack: "dev" });
    const { lines } = await journalCommand(["journal"], { ...env, CERTRESELLER_JOURNAL_DIR: path.join(root, "env-journal") }, project);
    expect(lines[0]).toBe(`purchase journal ${path.join(root, "env-journal")} (from environment variable CERTRESELLER_JOURNAL_DIR): 0 entries`);
    expect(lines[1]).toBe(`note: stack dev uses ${stackDir()} (certreseller:journalDir in Pulumi.dev.yaml); unset CERTRESELLER_JOURNAL_DIR to read that journal`);
  });

  it("with no stack selected, or no project, it says it read the default and why", async () => {
    fs.rmSync(path.join(home, "workspaces"), { recursive: true, force: true });
    const unselected = await journalCommand(["journal"], env, project);
    expect(unselected.lines[0]).toContain(`purchase journal ${defaultJournalDir()} (from the default, as no CERTRESELLER_JOURNAL_* variable is set and no stack is selected): `);
    expect(unselected.lines.find((l) => l.startsWith("note: "))).toMatch(/^note: no stack of project shop .* is selected here .*: give --stack <name>/);
    const outside = await journalCommand(["journal"], env, root);
    expect(outside.lines[0]).toContain(
      `purchase journal ${defaultJournalDir()} (from the default, as no CERTRESELLER_JOURNAL_* variable is set and no Pulumi.yaml is in this folder or its parents): `,
    );
  });
});
