import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A root → intermediate → leaf chain made with the openssl CLI (real X.509, independent of the SDK). */
export interface TestChain {
  rootPem: string;
  intermediatePem: string;
  leafPem: string;
  leafKeyPem: string;
  otherKeyPem: string;
}

export function makeChain(names: string[] = ["example.com", "www.example.com"]): TestChain {
  const dir = mkdtempSync(join(tmpdir(), "cr-chain-"));
  const run = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  try {
    run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "root.key", "-out", "root.pem", "-subj", "/CN=Test Root", "-days", "30");
    writeFileSync(join(dir, "ca.ext"), "basicConstraints=critical,CA:true\nkeyUsage=critical,keyCertSign,cRLSign\n");
    run("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "int.key", "-out", "int.csr", "-subj", "/CN=Test Intermediate");
    run("x509", "-req", "-in", "int.csr", "-CA", "root.pem", "-CAkey", "root.key", "-CAcreateserial", "-out", "int.pem", "-days", "30", "-extfile", "ca.ext");
    writeFileSync(join(dir, "leaf.ext"), `subjectAltName=${names.map((n) => `DNS:${n}`).join(",")}\n`);
    run("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr", "-subj", `/CN=${names[0]}`);
    run("x509", "-req", "-in", "leaf.csr", "-CA", "int.pem", "-CAkey", "int.key", "-CAcreateserial", "-out", "leaf.pem", "-days", "10", "-extfile", "leaf.ext");
    run("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "other.key");
    const read = (f: string) => readFileSync(join(dir, f), "utf8");
    return { rootPem: read("root.pem"), intermediatePem: read("int.pem"), leafPem: read("leaf.pem"), leafKeyPem: read("leaf.key"), otherKeyPem: read("other.key") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What `openssl x509 -fingerprint -sha256` prints, the independent reference. */
export function opensslFingerprint(pem: string): string {
  const out = execFileSync("openssl", ["x509", "-noout", "-fingerprint", "-sha256"], { input: pem }).toString();
  return out.trim().split("=")[1]!;
}

export function opensslSerial(pem: string): string {
  return execFileSync("openssl", ["x509", "-noout", "-serial"], { input: pem }).toString().trim().split("=")[1]!;
}
