// The journal command for a Terraform user, who has no npm project: the
// provider's messages name the mirror's launcher (`…_v<version> journal …`),
// and that command runs as printed, from any folder.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIRROR_LAUNCHER } from "../../../scripts/terraform/pack.js";
import { providerExecutable } from "../../src/cmd/terraform-provider-certreseller.js";
import { openJournal, PurchaseJournal } from "../../src/journal/index.js";

const SDK = path.resolve(__dirname, "..", "..");
const KEY = "org=terraform;backend=b;certreseller_order:ref=site";

let dir: string;
beforeAll(() => void (dir = fs.mkdtempSync(path.join(os.tmpdir(), "tfcr-journal-"))));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A mirror's platform folder as scripts/terraform/pack.ts writes it, the package linked to this checkout's built SDK. */
function mirrorFolder(): { launcher: string; bin: string } {
  const folder = path.join(dir, "certreseller.invalid", "certreseller", "certreseller", "0.1.0", "linux_amd64");
  const launcher = path.join(folder, "terraform-provider-certreseller_v0.1.0");
  fs.mkdirSync(path.join(folder, "node_modules"), { recursive: true });
  if (!fs.existsSync(path.join(folder, "node_modules", "pulumi-certreseller"))) fs.symlinkSync(SDK, path.join(folder, "node_modules", "pulumi-certreseller"));
  fs.writeFileSync(launcher, MIRROR_LAUNCHER, { mode: 0o755 });
  return { launcher, bin: path.join(folder, "node_modules", "pulumi-certreseller", "bin", "terraform-provider-certreseller") };
}

describe("terraform-provider-certreseller journal", () => {
  it("names the mirror's launcher (three folders above the package's bin), else the bin itself", () => {
    const { launcher, bin } = mirrorFolder();
    expect(providerExecutable(bin)).toBe(launcher);
    const checkout = path.join(SDK, "bin", "terraform-provider-certreseller");
    expect(providerExecutable(checkout)).toBe(checkout);
  });

  it("the launcher runs `journal ls`; the command its footer prints runs as printed and removes the entry", async () => {
    const { launcher } = mirrorFolder();
    const journalDir = path.join(dir, "journal");
    const journal = openJournal({ journalDir }, {});
    await journal.recordIntent({ key: KEY, urn: "certreseller_order:ref=site", domain: "shop.example.com", productCode: "sandbox-dv-single", names: ["shop.example.com"] });
    const id = PurchaseJournal.nameFor(KEY).replace(".json", "");
    // A Terraform project: no package.json, no node_modules; `node` on PATH, as the launcher needs.
    const project = fs.mkdtempSync(path.join(dir, "project-"));
    const env = { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`, CERTRESELLER_JOURNAL_DIR: journalDir };
    const sh = (command: string) => spawnSync("/bin/sh", ["-c", command], { cwd: project, encoding: "utf8", timeout: 30_000, env });

    const listed = sh(`${launcher} journal ls`);
    expect(listed.status, listed.stdout + listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`${id}  `);
    const printed = /`([^`]* journal rm <id>)`/.exec(listed.stdout)?.[1];
    expect(printed, listed.stdout).toBe(`${launcher} journal rm <id>`);
    expect(listed.stdout).not.toContain("npx");

    const removed = sh(printed!.replace("<id>", id));
    expect(removed.status, removed.stdout + removed.stderr).toBe(0);
    expect(await openJournal({ journalDir }, {}).list()).toEqual([]);
  });
});
