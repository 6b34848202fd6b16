import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import {
  backendFingerprint,
  backendUrl,
  changedInputs,
  detectCi,
  ephemeralJournalWarning,
  journalEntryKey,
  normalizeBackendUrl,
  parseEntryKey,
  purchaseDigest as digestOf,
  purchaseInputDigests as inputDigestsOf,
  resetCiWarningForTests,
} from "../../src/journal/index.js";
import { PURCHASE_INPUTS, purchaseInputsOf } from "../../src/resources/order/journal-entry.js";
import { REPLACE_KEYS } from "../../src/resources/order/inputs.js";
import { normalizeOrder } from "../../src/resources/order/normalize.js";

const normal = (raw: Record<string, unknown>) => normalizeOrder({ journalKey: "urn:pulumi:dev::p::t::n", ...raw }).values as Record<string, unknown>;
// The Order's callers pass their purchase inputs to the journal; so do these tests.
const purchaseDigest = (inputs: Record<string, unknown>) => digestOf(inputs, purchaseInputsOf(inputs));
const purchaseInputDigests = (inputs: Record<string, unknown>) => inputDigestsOf(inputs, purchaseInputsOf(inputs));
const base = { productCode: "sandbox-dv-multi", domain: "example.com", sanDomains: ["www.example.com", "api.example.com"] };

describe("purchaseDigest", () => {
  it("covers every input whose change replaces the Order, from the declaration", () => {
    expect([...PURCHASE_INPUTS].sort()).toEqual(REPLACE_KEYS.filter((k) => k !== "adoptOrderNo").sort());
    expect(PURCHASE_INPUTS).toContain("companyInfo");
  });

  it("changes with each purchase input, names the one that changed, and ignores what is not a purchase", () => {
    const digest = purchaseDigest(normal(base));
    const variants: [string, Record<string, unknown>][] = [
      ["months", { months: 24 }],
      ["keySpec", { keySpec: "rsa-4096" }],
      ["companyInfo", { companyInfo: { companyName: "Acme", countryCode: "DE", contactFirst: "A", contactLast: "B", email: "a@example.com" } }],
      ["couponCode", { couponCode: "SAVE10" }],
      ["sanDomains", { sanDomains: ["www.example.com"] }],
      ["productCode", { productCode: "sandbox-ov" }],
    ];
    for (const [name, change] of variants) {
      const changed = normal({ ...base, ...change });
      expect(purchaseDigest(changed), name).not.toBe(digest);
      expect(changedInputs(purchaseInputDigests(normal(base)), purchaseInputDigests(changed))).toEqual([name]);
    }
    // Not purchases: the method changes in place, renewal and adoption buy nothing new themselves.
    expect(purchaseDigest(normal({ ...base, verificationMethod: "dns", renewBeforeDays: 30 }))).toBe(digest);
  });

  it("is the same for the same purchase written differently", () => {
    const digest = purchaseDigest(normal({ ...base, years: 2 }));
    expect(purchaseDigest(normal({ ...base, months: 24 }))).toBe(digest);
    expect(purchaseDigest(normal({ ...base, years: 2, sanDomains: ["API.example.com", "www.example.com"] }))).toBe(digest);
    expect(purchaseDigest(normal({ ...base, years: 2, signatureAlgorithm: "rsa", hashAlgorithm: "sha256", paymentMethod: "balance" }))).toBe(digest);
  });
});

describe("the journal key", () => {
  const urn = "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/certreseller:Order::site";

  it("is the URN alone for state of an earlier release, else organisation + backend + URN", () => {
    expect(journalEntryKey({ journalKey: urn }, "ffff")).toBe(urn);
    const key = journalEntryKey({ journalKey: urn, journalScope: "org=acme" }, "0123456789abcdef");
    expect(key).toBe(`org=acme;backend=0123456789abcdef;${urn}`);
    expect(parseEntryKey(key)).toEqual({ organization: "acme", backend: "0123456789abcdef", urn });
    expect(journalEntryKey({ journalKey: urn, journalScope: "org=other" }, "0123456789abcdef")).not.toBe(key);
    expect(journalEntryKey({ journalKey: urn, journalScope: "org=acme" }, "fedcba9876543210")).not.toBe(key);
  });

  it("finds the backend as the CLI does: PULUMI_BACKEND_URL, then Pulumi.yaml, then the current login", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "backend-"));
    try {
      const home = path.join(dir, "home");
      fs.mkdirSync(home);
      // Nothing named: the CLI's default, Pulumi Cloud.
      expect(backendUrl({ PULUMI_HOME: home }, dir)).toBe("https://api.pulumi.com");
      fs.writeFileSync(path.join(home, "credentials.json"), JSON.stringify({ current: "https://app.pulumi.com" }));
      expect(backendUrl({ PULUMI_HOME: home }, dir)).toBe("https://app.pulumi.com");
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: p\nruntime: nodejs\nbackend:\n  url: s3://state-bucket/team\n");
      expect(backendUrl({ PULUMI_HOME: home }, dir)).toBe("s3://state-bucket/team");
      expect(backendUrl({ PULUMI_HOME: home, PULUMI_BACKEND_URL: "file:///srv/state" }, dir)).toBe("file:///srv/state");
      // The same backend written differently is the same fingerprint; another backend is another.
      const s3 = backendFingerprint({ PULUMI_BACKEND_URL: "s3://state-bucket/team?region=eu-west-1" }, dir);
      expect(backendFingerprint({ PULUMI_BACKEND_URL: "S3://state-bucket/team/" }, dir)).toBe(s3);
      expect(backendFingerprint({ PULUMI_BACKEND_URL: "s3://other-bucket/team" }, dir)).not.toBe(s3);
      expect(normalizeBackendUrl("https://app.pulumi.com/")).toBe(normalizeBackendUrl("https://api.pulumi.com"));
      expect(normalizeBackendUrl("https://user:token@pulumi.example.com/")).toBe("https://pulumi.example.com");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  // Each case: one backend, which used to give two fingerprints.
  it("one backend gives one fingerprint: flow-style Pulumi.yaml, file://~, a CI runner with no login file", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "backend-"));
    try {
      const home = path.join(dir, "home");
      fs.mkdirSync(home);
      const block = backendFingerprint({ PULUMI_BACKEND_URL: "s3://state-bucket/team" }, dir);
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: p\nruntime: nodejs\nbackend: { url: 's3://state-bucket/team' }\n");
      expect(backendFingerprint({ PULUMI_HOME: home }, dir)).toBe(block);
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: p\nruntime: nodejs\nbackend:\n  # the team's bucket\n  url: \"s3://state-bucket/team\" # shared\n");
      expect(backendFingerprint({ PULUMI_HOME: home }, dir)).toBe(block);
      fs.rmSync(path.join(dir, "Pulumi.yaml"));

      expect(normalizeBackendUrl("file://~", "/home/u")).toBe("file:///home/u");
      expect(normalizeBackendUrl("file://~/state/", "/home/u")).toBe("file:///home/u/state");
      expect(normalizeBackendUrl("file:///home/u//state/./x/..", "/home/u")).toBe("file:///home/u/state");

      const laptop = path.join(dir, "laptop");
      fs.mkdirSync(laptop);
      fs.writeFileSync(path.join(laptop, "credentials.json"), JSON.stringify({ current: "https://api.pulumi.com" }));
      // A runner logged in with PULUMI_ACCESS_TOKEN alone has no credentials file.
      expect(backendFingerprint({ PULUMI_HOME: home, PULUMI_ACCESS_TOKEN: "pul-x" }, dir)).toBe(backendFingerprint({ PULUMI_HOME: laptop }, dir));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the CI warning", () => {
  it("is given once per process, in CI, for a local journal only", () => {
    resetCiWarningForTests();
    expect(detectCi({})).toBeUndefined();
    expect(detectCi({ CI: "false" })).toBeUndefined();
    expect(detectCi({ GITHUB_ACTIONS: "true" })).toBe("GITHUB_ACTIONS");
    expect(ephemeralJournalWarning({ journalDir: "/home/runner/.certreseller/journal" }, {})).toBeUndefined();
    expect(ephemeralJournalWarning({ journalDir: "/j", journalUrl: "s3://b/p" }, { GITLAB_CI: "true" })).toBeUndefined();
    const warning = ephemeralJournalWarning({ journalDir: "/home/runner/.certreseller/journal" }, { GITLAB_CI: "true" });
    expect(warning).toMatch(/GITLAB_CI.*\/home\/runner\/\.certreseller\/journal.*certreseller:journalUrl/s);
    expect(ephemeralJournalWarning({ journalDir: "/j" }, { CI: "true" })).toBeUndefined();
    resetCiWarningForTests();
  });
});
