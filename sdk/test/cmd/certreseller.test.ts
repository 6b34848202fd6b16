/**
 * `certreseller journal` (sdk/src/cmd/certreseller.ts): its arguments, exit codes and
 * output, in process against a file journal and an S3 journal, and once
 * through the committed bin (sdk/bin/certreseller.js → dist/cmd/certreseller.js).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cmd/certreseller.js";
import { openJournal, PurchaseJournal } from "../../src/journal/index.js";
import { startLocalS3, type LocalS3 } from "../journal/s3-server.js";

const KEY = "org=o;backend=b;urn:pulumi:dev::proj::pulumi-nodejs:dynamic/certreseller:Order::site";

/** Runs the command in process, in a folder with no Pulumi project: its exit code and what it printed. */
async function journalCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; text: string }> {
  const lines: string[] = [];
  const code = await main(argv, env, (l) => lines.push(l), os.tmpdir());
  return { code, text: lines.join("\n") };
}

describe("certreseller journal: arguments", () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-cli-"));
    // Only the journal: no API key, so nothing is asked of a service.
    env = { CERTRESELLER_JOURNAL_DIR: dir };
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("journal --help (and -h) prints the usage and exits 0, touching no journal", async () => {
    for (const flag of ["--help", "-h"]) {
      const { code, text } = await journalCommand(["journal", flag], { CERTRESELLER_JOURNAL_DIR: path.join(dir, "never-created") });
      expect(code).toBe(0);
      expect(text).toMatch(/^usage: certreseller journal \[ls\] \[--json\]/);
      expect(text).toContain("certreseller journal rm <entry-id>");
      expect(text).toContain("CERTRESELLER_JOURNAL_URL");
    }
    expect(fs.existsSync(path.join(dir, "never-created"))).toBe(false);
  });

  it("an unknown command, or none, prints the usage and exits 2", async () => {
    for (const argv of [["orders"], []]) {
      const { code, text } = await journalCommand(argv, env);
      expect(code).toBe(2);
      expect(text).toMatch(/^usage: certreseller journal/);
    }
    // --help is still help under any command.
    expect((await journalCommand(["orders", "--help"], env)).code).toBe(0);
  });

  it("an unknown subcommand prints the usage and exits 2", async () => {
    const { code, text } = await journalCommand(["journal", "prune"], env);
    expect(code).toBe(2);
    expect(text).toMatch(/^usage: certreseller journal/);
  });

  it("rm without an entry id, or with one that is not 32 hex digits, exits 2 naming what to give", async () => {
    for (const argv of [["journal", "rm"], ["journal", "rm", "not-an-id"]]) {
      const { code, text } = await journalCommand(argv, env);
      expect(code).toBe(2);
      expect(text).toMatch(/^certreseller journal rm: give the entry id \(32 hex digits\)/);
    }
  });

  it("ls (the default) and --json list an empty journal, exit 0", async () => {
    for (const argv of [["journal"], ["journal", "ls"]]) {
      const { code, text } = await journalCommand(argv, env);
      expect(code).toBe(0);
      expect(text).toMatch(/^purchase journal .*: 0 entries$/);
    }
    const json = await journalCommand(["journal", "--json"], env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.text)).toMatchObject({ entries: [] });
  });

  it("lists a file journal's entry (an order the service was not asked about) and removes it by id", async () => {
    const journal = openJournal({ journalDir: dir }, {});
    await journal.recordIntent({ key: KEY, urn: KEY.split(";")[2], domain: "file.example.com", productCode: "p", names: [] });
    const id = PurchaseJournal.nameFor(KEY).replace(".json", "");
    const listed = await journalCommand(["journal", "ls", "--json"], env);
    expect(listed.code).toBe(0);
    const { entries } = JSON.parse(listed.text) as { entries: { id: string; domain: string; state: string }[] };
    expect(entries).toEqual([expect.objectContaining({ id, domain: "file.example.com", state: expect.stringMatching(/MAY have been charged/) })]);
    expect(await journalCommand(["journal", "rm", id], env)).toMatchObject({ code: 0, text: expect.stringMatching(/^removed /) });
    expect(await journal.list()).toEqual([]);
  });
});

describe("certreseller journal against an S3 journal", () => {
  let s3: LocalS3;
  beforeAll(async () => {
    s3 = await startLocalS3();
  });
  afterAll(async () => {
    await s3?.stop();
  });

  it("the journal command lists entries from the bucket and removes one by id", async () => {
    const url = `s3://${s3.bucket}/cli`;
    const journal = openJournal({ journalDir: "/x", journalUrl: url }, s3.env);
    const key = "org=o;backend=b;urn:pulumi:dev::proj::pulumi-nodejs:dynamic/certreseller:Order::site";
    await journal.recordIntent({ key, urn: key.split(";")[2], domain: "cli.example.com", productCode: "p", names: [] });
    const lines: string[] = [];
    const env = { ...s3.env, CERTRESELLER_JOURNAL_URL: url };
    expect(await main(["journal"], env, (l) => lines.push(l), os.tmpdir())).toBe(0);
    const text = lines.join("\n");
    expect(text).toContain(`purchase journal ${url} (from environment variable CERTRESELLER_JOURNAL_URL): 1 entry`);
    expect(text).toContain("cli.example.com");
    expect(text).toContain("MAY have been charged");
    const id = PurchaseJournal.nameFor(key).replace(".json", "");
    expect(journal.command(`rm ${id}`)).toBe(`CERTRESELLER_JOURNAL_URL=${url} npx --no-install certreseller journal rm ${id}`);
    expect(await main(["journal", "rm", id], env, () => undefined, os.tmpdir())).toBe(0);
    expect(await journal.list()).toEqual([]);
    // Pointed at another journal: names the one it read and why, and how to name another, exit 1.
    const missing: string[] = [];
    expect(await main(["journal", "rm", id], env, (l) => missing.push(l), os.tmpdir())).toBe(1);
    expect(missing.join("\n")).toMatch(new RegExp(`no entry ${id} in the purchase journal ${url} \\(from environment variable CERTRESELLER_JOURNAL_URL\\).*--stack <name>`));
  });
});

describe("the certreseller bin", () => {
  // The committed shim runs dist/cmd/certreseller.js (built by `npm run build`, as `npm test` does first).
  const bin = path.resolve(__dirname, "../../bin/certreseller.js");
  const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", env: { ...process.env, CERTRESELLER_JOURNAL_DIR: os.tmpdir() } });

  it("journal --help exits 0 with the usage on stdout", () => {
    const r = run("journal", "--help");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^usage: certreseller journal/);
  });

  it("an unknown command exits 2", () => {
    const r = run("frobnicate");
    expect(r.status, r.stderr).toBe(2);
    expect(r.stdout).toMatch(/^usage: certreseller journal/);
  });
});
