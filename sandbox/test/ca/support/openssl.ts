import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Runs the openssl CLI — an implementation independent of the CA's — and
 * returns stdout. A missing openssl fails the test (it must never be skipped
 * silently: CI's Debian base has it).
 */
export function openssl(args: string[], stdin?: string): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve, reject) => {
    const child = execFile("openssl", args, { encoding: "utf8" }, (error, stdout, stderr) => {
      if (error && "code" in error && error.code === "ENOENT") {
        reject(new Error("the openssl CLI is required by the CA tests (apt-get install openssl)", { cause: error }));
        return;
      }
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ stdout, stderr, code });
    });
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

/** A temporary directory for PEM files handed to openssl, removed by `dispose`. */
export async function scratchDir(): Promise<{ path: string; write(name: string, text: string): Promise<string>; dispose(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), "ca-test-"));
  return {
    path,
    async write(name, text) {
      const file = join(path, name);
      await writeFile(file, text, { mode: 0o600 });
      return file;
    },
    dispose: () => rm(path, { recursive: true, force: true }),
  };
}

/** `openssl x509` facts about a PEM certificate. */
export async function describeCertificate(pem: string): Promise<{
  text: string;
  serial: string;
  fingerprint: string;
  notBefore: Date;
  notAfter: Date;
  subject: string;
  sans: string[];
}> {
  const text = await must(openssl(["x509", "-noout", "-text"], pem));
  const facts = await must(openssl(["x509", "-noout", "-serial", "-fingerprint", "-sha256", "-dates", "-dateopt", "iso_8601", "-subject", "-nameopt", "RFC2253"], pem));
  const field = (name: string): string => {
    const line = facts.split("\n").find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}=`));
    if (line === undefined) throw new Error(`openssl printed no ${name}:\n${facts}`);
    return line.slice(line.indexOf("=") + 1).trim();
  };
  const sanLine = /X509v3 Subject Alternative Name:.*\n\s*(.*)/.exec(text)?.[1] ?? "";
  return {
    text,
    serial: field("serial"),
    fingerprint: field("sha256 Fingerprint"),
    notBefore: new Date(field("notBefore").replace(" ", "T")),
    notAfter: new Date(field("notAfter").replace(" ", "T")),
    subject: field("subject"),
    sans: sanLine.split(", ").filter((s) => s !== ""),
  };
}

async function must(run: Promise<{ stdout: string; stderr: string; code: number }>): Promise<string> {
  const { stdout, stderr, code } = await run;
  if (code !== 0) throw new Error(`openssl exited ${code}: ${stderr}`);
  return stdout;
}
