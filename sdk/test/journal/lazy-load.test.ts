// Each cloud SDK is loaded at its store's first call, never when the plugin or the package starts: a program on
// the local journal starts no slower (bench/journal/plugin-start.ts measures the difference). Checked on the built
// package in a fresh Node process, whose module cache shows what was loaded.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { skipWithout } from "../../../tests/support/ci.js";

const dist = path.resolve(__dirname, "..", "..", "dist");
const missing = fs.existsSync(path.join(dist, "journal", "open.js")) ? undefined : "the SDK is not built (npm run build; npm test builds it)";

const probe = `
const path = require("node:path");
const loaded = () => ["@aws-sdk/client-s3", "@google-cloud/storage", "@azure/storage-blob", "@azure/identity"]
  .filter((name) => Object.keys(require.cache).some((file) => file.includes(path.join("node_modules", name) + path.sep)));
require(${JSON.stringify(path.join(dist, "cmd", "pulumi-resource-certreseller.js"))});
require(${JSON.stringify(path.join(dist, "index.js"))});
const journal = require(${JSON.stringify(path.join(dist, "journal", "index.js"))});
const atStart = loaded();
const env = { AZURE_STORAGE_ACCOUNT: "acct", AZURE_STORAGE_KEY: "a2V5", AWS_ACCESS_KEY_ID: "k", AWS_SECRET_ACCESS_KEY: "s" };
const stores = ["s3://b/p?endpoint=http://127.0.0.1:9", "gs://b/p", "azblob://c/p"].map((url) => journal.openJournal({ journalDir: "/x", journalUrl: url }, env));
const opened = loaded();
stores[0].read("k").catch(() => undefined).finally(() => {
  console.log(JSON.stringify({ atStart, opened, afterS3Call: loaded() }));
});
`;

describe.skipIf(skipWithout(missing))("the journal's cloud SDKs", () => {
  it("are not loaded by the plugin, the package or opening a bucket journal; the S3 SDK is loaded by the S3 store's first call, the others not", () => {
    const out = execFileSync(process.execPath, ["-e", probe], { encoding: "utf8", env: { ...process.env, STORAGE_EMULATOR_HOST: "" }, timeout: 60_000 });
    expect(JSON.parse(out.trim().split("\n").pop()!)).toEqual({ atStart: [], opened: [], afterS3Call: ["@aws-sdk/client-s3"] });
  });
});
