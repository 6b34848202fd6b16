import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM bundle, in order (leaf first for a full chain). */
export function pemCertificates(bundle: string): string[] {
  return bundle.match(PEM_BLOCK) ?? [];
}

/**
 * `openssl verify` of a full chain (leaf first, then intermediates) against a
 * root: the same check a TLS client makes. Returns openssl's output; throws
 * with it when verification fails.
 */
export function opensslVerify(fullChainPem: string, rootPem: string): string {
  const [leaf, ...intermediates] = pemCertificates(fullChainPem);
  if (!leaf) throw new Error("the full chain holds no certificate");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "certreseller-verify-"));
  try {
    fs.writeFileSync(path.join(dir, "root.pem"), rootPem);
    fs.writeFileSync(path.join(dir, "leaf.pem"), `${leaf}\n`);
    fs.writeFileSync(path.join(dir, "untrusted.pem"), intermediates.map((c) => `${c}\n`).join(""));
    const args = ["verify", "-CAfile", "root.pem", ...(intermediates.length ? ["-untrusted", "untrusted.pem"] : []), "leaf.pem"];
    try {
      return execFileSync("openssl", args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string };
      throw new Error(`openssl verify failed:\n${e.stdout ?? ""}${e.stderr ?? ""}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
