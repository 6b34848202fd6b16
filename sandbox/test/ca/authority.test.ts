import { mkdtemp, readdir, rm, stat, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CA_FILES, CaStoreError, loadOrCreateCa } from "../../src/ca/index.js";
import { describeCertificate, openssl, scratchDir } from "../../../tests/support/openssl.js";

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "ca-store-"));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const leafRequest = () => ({
  names: ["persist.example.com"],
  keySpec: "p-256" as const,
  hashAlgorithm: "sha256" as const,
  notBefore: new Date(Date.now() - 60_000),
  notAfter: new Date(Date.now() + 30 * 86_400_000),
});

describe("the CA hierarchy", () => {
  it("is a self-signed root CA and a pathLen-0 intermediate it signed", async () => {
    const ca = await loadOrCreateCa();
    const root = await describeCertificate(ca.rootPem);
    const intermediate = await describeCertificate(ca.intermediatePem);
    expect(root.subject).toMatch(/^CN=Certreseller Sandbox Root CA [0-9a-f]{6},O=Certreseller Sandbox$/);
    expect(intermediate.subject).toMatch(/^CN=Certreseller Sandbox Intermediate CA [0-9a-f]{6},O=Certreseller Sandbox$/);
    expect(root.text).toMatch(/Basic Constraints: critical\s+CA:TRUE\n/);
    expect(root.text).toMatch(/Key Usage: critical\s+Certificate Sign, CRL Sign\n/);
    expect(intermediate.text).toMatch(/Basic Constraints: critical\s+CA:TRUE, pathlen:0\n/);

    const files = await scratchDir();
    try {
      const rootFile = await files.write("root.pem", ca.rootPem);
      const intermediateFile = await files.write("intermediate.pem", ca.intermediatePem);
      const check = await openssl(["verify", "-x509_strict", "-CAfile", rootFile, intermediateFile]);
      expect(check.stdout.trim()).toBe(`${intermediateFile}: OK`);
    } finally {
      await files.dispose();
    }
  });

  it("is a new one at every in-memory start", async () => {
    const [a, b] = await Promise.all([loadOrCreateCa(), loadOrCreateCa()]);
    expect(a.rootPem).not.toBe(b.rootPem);
  });
});

describe("persistence under dataDir/ca", () => {
  it("reloads the same root and intermediate, and keeps issuing leaves that chain to them", async () => {
    const first = await loadOrCreateCa(dataDir);
    const second = await loadOrCreateCa(dataDir);
    expect(second.rootPem).toBe(first.rootPem);
    expect(second.intermediatePem).toBe(first.intermediatePem);

    const leaf = await second.issue(leafRequest());
    const files = await scratchDir();
    try {
      const args = ["verify", "-CAfile", await files.write("root.pem", first.rootPem), "-untrusted", await files.write("int.pem", first.intermediatePem)];
      const check = await openssl([...args, await files.write("leaf.pem", leaf.leafPem)]);
      expect(check.stdout).toMatch(/: OK\n$/);
    } finally {
      await files.dispose();
    }
  });

  it("writes PEM files, private keys readable by the owner only, and leaves no staging directory", async () => {
    await loadOrCreateCa(dataDir);
    expect((await readdir(join(dataDir, "ca"))).sort()).toEqual(Object.values(CA_FILES).sort());
    expect(await readdir(dataDir)).toEqual(["ca"]);
    for (const key of [CA_FILES.rootKey, CA_FILES.intermediateKey]) {
      expect((await stat(join(dataDir, "ca", key))).mode & 0o777).toBe(0o600);
    }
  });

  it("makes one CA when several sandboxes start on the same empty data dir at once", async () => {
    const cas = await Promise.all([loadOrCreateCa(dataDir), loadOrCreateCa(dataDir), loadOrCreateCa(dataDir)]);
    expect(new Set(cas.map((ca) => ca.rootPem)).size).toBe(1);
    expect(await readdir(dataDir)).toEqual(["ca"]);
  });

  it("refuses a data dir with a missing file instead of silently making a new root", async () => {
    await loadOrCreateCa(dataDir);
    await unlink(join(dataDir, "ca", CA_FILES.intermediateKey));
    await expect(loadOrCreateCa(dataDir)).rejects.toThrow(CaStoreError);
    await expect(loadOrCreateCa(dataDir)).rejects.toThrow(/missing intermediate-key\.pem; restore it, or delete/);
  });

  it("refuses a key that does not belong to its certificate", async () => {
    await loadOrCreateCa(dataDir);
    const other = await mkdtemp(join(tmpdir(), "ca-other-"));
    try {
      await loadOrCreateCa(other);
      const { readFile } = await import("node:fs/promises");
      await writeFile(join(dataDir, "ca", CA_FILES.intermediateKey), await readFile(join(other, "ca", CA_FILES.intermediateKey)));
      await expect(loadOrCreateCa(dataDir)).rejects.toThrow(/intermediate-key\.pem does not belong to the certificate/);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});
