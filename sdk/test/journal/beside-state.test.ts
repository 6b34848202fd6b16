// With no journal setting, a bucket backend keeps the journal beside its state: same bucket, same root, under
// .certreseller/journal, with the backend URL's options. A setting always wins; file:// and Pulumi Cloud keep the
// local folder (and Cloud keeps the CI warning).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cachedBinary, MINIO, startMinio, type RunningStore } from "../../../scripts/journal-stores/index.js";
import { skipWithout } from "../../../tests/support/ci.js";
import { main as journalCommand } from "../../src/cmd/certreseller.js";
import {
  BESIDE_STATE_PREFIX,
  ephemeralJournalWarning,
  journalUrlBesideState,
  openBucketStore,
  openJournal,
  resetCiWarningForTests,
  resetStoreClientsForTests,
  resolveJournal,
} from "../../src/journal/index.js";
import { defaultJournalDir, readSettings } from "../../src/provider/config.js";

describe("the journal's place beside the state", () => {
  it("is the backend's bucket and root under .certreseller/journal, keeping the backend URL's options", () => {
    expect(BESIDE_STATE_PREFIX).toBe(".certreseller/journal");
    expect(journalUrlBesideState("s3://acme-state")).toBe("s3://acme-state/.certreseller/journal");
    expect(journalUrlBesideState("s3://acme-state/infra/?region=eu-west-1&endpoint=https://minio.acme:9000&awssdk=v2")).toBe(
      "s3://acme-state/infra/.certreseller/journal?region=eu-west-1&endpoint=https://minio.acme:9000&awssdk=v2",
    );
    expect(journalUrlBesideState("gs://acme-state/pulumi")).toBe("gs://acme-state/pulumi/.certreseller/journal");
    expect(journalUrlBesideState("azblob://state?storage_account=acme")).toBe("azblob://state/.certreseller/journal?storage_account=acme");
    expect(journalUrlBesideState("AZBLOB://state")).toBe("azblob://state/.certreseller/journal");
    for (const other of ["file:///home/me/state", "file://~", "https://api.pulumi.com", "http://pulumi.internal", "postgres://db/state"]) {
      expect(journalUrlBesideState(other), other).toBeUndefined();
    }
  });

  it("is used only when no setting names the journal: a setting always wins", () => {
    const home = defaultJournalDir();
    const unset = readSettings(undefined, {});
    expect(unset).toMatchObject({ journalDir: home, journalDirDefaulted: true });
    expect(resolveJournal(unset, {}, "s3://acme-state/infra?region=eu-west-1")).toEqual({
      url: "s3://acme-state/infra/.certreseller/journal?region=eu-west-1",
      dir: home,
      why: "beside the stack's state in s3://acme-state/infra, as no journal setting is set",
    });
    expect(resolveJournal(unset, {}, "file:///srv/state").url).toBeUndefined();
    expect(resolveJournal(unset, {}, "https://api.pulumi.com")).toEqual({ dir: home, why: "the default folder, as no journal setting is set and the stack's backend is not a bucket" });
    const dirSet = readSettings({ get: (k) => (k === "certreseller:journalDir" ? "/srv/journal" : undefined) }, {});
    expect(dirSet.journalDirDefaulted).toBeUndefined();
    expect(resolveJournal(dirSet, {}, "gs://acme-state")).toEqual({ dir: "/srv/journal", why: "the journalDir setting" });
    expect(readSettings(undefined, { CERTRESELLER_JOURNAL_DIR: "/srv/j" }).journalDirDefaulted).toBeUndefined();
    const urlSet = readSettings(undefined, { CERTRESELLER_JOURNAL_URL: "azblob://journal/ci" });
    expect(resolveJournal(urlSet, {}, "gs://acme-state").url).toBe("azblob://journal/ci");
    // Settings built by hand with a folder (tests, callers) keep the folder.
    expect(resolveJournal({ journalDir: "/x" }, {}, "s3://acme-state").url).toBeUndefined();
  });

  it("reads the backend as the CLI does (PULUMI_BACKEND_URL first) when none is given", () => {
    expect(resolveJournal({ journalDir: "/x", journalDirDefaulted: true }, { PULUMI_BACKEND_URL: "gs://acme-state/p" }).url).toBe("gs://acme-state/p/.certreseller/journal");
    expect(openJournal({ journalDir: "/x", journalDirDefaulted: true }, { PULUMI_BACKEND_URL: "gs://acme-state/p" }).location).toBe("gs://acme-state/p/.certreseller/journal");
  });

  it("prints commands that reach it with the URL's options (a custom endpoint is named only there), and no secret", () => {
    const journal = openJournal({ journalDir: "/x", journalDirDefaulted: true }, { AWS_SECRET_ACCESS_KEY: "not-the-secret-123" }, "s3://state/team?endpoint=http://127.0.0.1:9000&region=us-east-1");
    expect(journal.location).toBe("s3://state/team/.certreseller/journal");
    const command = journal.command("ls");
    expect(command).toMatch(/^CERTRESELLER_JOURNAL_URL='s3:\/\/state\/team\/\.certreseller\/journal\?endpoint=http:\/\/127\.0\.0\.1:9000&region=us-east-1' /);
    expect(command).not.toContain("not-the-secret-123");
    expect(openJournal({ journalDir: "/srv/j" }, {}).command("ls")).toMatch(/^CERTRESELLER_JOURNAL_DIR=\/srv\/j /);
  });

  it("draws no CI warning; a local journal in CI still does, naming the settings and the bucket backends", () => {
    resetCiWarningForTests();
    expect(ephemeralJournalWarning({ journalDir: "/home/runner/.certreseller/journal", journalDirDefaulted: true }, { CI: "true" }, "s3://acme-state")).toBeUndefined();
    const warning = ephemeralJournalWarning({ journalDir: "/home/runner/.certreseller/journal", journalDirDefaulted: true }, { CI: "true" }, "https://api.pulumi.com");
    expect(warning).toMatch(/certreseller:journalUrl.*CERTRESELLER_JOURNAL_URL.*s3:\/\/.*gs:\/\/.*azblob:\/\/.*beside the state/s);
    resetCiWarningForTests();
  });
});

// Provided (built or found cached) by the sdk project's global setup before any file runs.
const missing = fs.existsSync(cachedBinary(MINIO)) ? undefined : `MinIO is not at ${cachedBinary(MINIO)} (sdk/test/journal/global-setup.ts builds it with Go)`;

describe.skipIf(skipWithout(missing))("a journal beside an s3:// backend's state, on MinIO", () => {
  let minio: RunningStore;
  let project: string;
  beforeAll(async () => {
    minio = await startMinio((line) => console.error(`[minio] ${line}`), ["state"]);
    project = fs.mkdtempSync(path.join(os.tmpdir(), "beside-state-"));
  }, 20 * 60_000);
  afterAll(async () => {
    await minio?.stop();
    if (project) fs.rmSync(project, { recursive: true, force: true });
  });

  it("writes under .certreseller/journal/ of the backend's bucket, never under Pulumi's .pulumi/, and the journal command finds it there", async () => {
    // What Pulumi's own diy backend keeps in the bucket.
    const backend = `s3://state/team?endpoint=${encodeURIComponent(minio.endpoint)}&region=us-east-1&awssdk=v2`;
    const { AWS_ENDPOINT_URL_S3: _endpointFromUrl, ...credentials } = minio.env;
    const env = { ...credentials, PULUMI_BACKEND_URL: backend, HOME: project };
    resetStoreClientsForTests();
    const pulumiRoot = openBucketStore("s3://state/team/.pulumi", {}, { ...env, AWS_ENDPOINT_URL_S3: minio.endpoint });
    await pulumiRoot.put("meta.json", "{}");

    const journal = openJournal(readSettings(undefined, env), env);
    expect(journal.location).toBe("s3://state/team/.certreseller/journal");
    const key = "org=organization;backend=abc;urn:pulumi:dev::proj::certreseller:index:Order::site";
    await journal.recordIntent({ key, domain: "example.com", productCode: "p", names: ["example.com"] });
    expect((await journal.list()).map((e) => e.entry?.key)).toEqual([key]);
    expect(await pulumiRoot.list()).toEqual(["meta.json"]);

    const lines: string[] = [];
    expect(await journalCommand(["journal", "--json"], env, (l) => lines.push(l), project)).toBe(0);
    const listing = JSON.parse(lines.join("\n")) as { journal: string; entries: unknown[] };
    expect(listing.journal).toBe("s3://state/team/.certreseller/journal");
    expect(listing.entries).toHaveLength(1);
    lines.length = 0;
    await journalCommand(["journal"], env, (l) => lines.push(l), project);
    expect(lines[0]).toMatch(/s3:\/\/state\/team\/\.certreseller\/journal \(from beside the stack's state in s3:\/\/state\/team, as no journal setting is set; /);
  });
});
