/**
 * The openssl CLI for every test project (sdk, sandbox, examples, e2e): an
 * X.509 implementation independent of the code under test, to make keys,
 * CSRs and chains as a user's tooling would and to check what the SDK and
 * the sandbox produce the way a TLS client would. A missing openssl fails
 * the test; it must never be skipped silently (CI's Debian base has it).
 */
import { execFile, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";

const MISSING = "the openssl CLI is required by these tests (apt-get install openssl)";

function isMissing(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && (error as { code: unknown }).code === "ENOENT";
}

// ---------------------------------------------------------------------------
// Running openssl

/** Runs openssl and returns stdout; throws with openssl's stderr when it exits non-zero. */
export function opensslSync(args: string[], options: { input?: string; cwd?: string } = {}): string {
  return opensslOutput(args, options).stdout;
}

/** Runs openssl; stdout and stderr (some commands, e.g. `pkcs12 -info`, report on stderr). Throws when it exits non-zero. */
export function opensslOutput(args: string[], options: { input?: string; cwd?: string } = {}): { stdout: string; stderr: string } {
  const r = spawnSync("openssl", args, { cwd: options.cwd, input: options.input, encoding: "utf8", stdio: "pipe" });
  if (r.error) throw isMissing(r.error) ? new Error(MISSING, { cause: r.error }) : r.error;
  if (r.status !== 0) throw new Error(`openssl ${args.join(" ")} exited ${r.status ?? r.signal}:\n${r.stdout}${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}

/** Runs openssl without blocking; resolves with its output and exit code, whatever the code. */
export function openssl(args: string[], stdin?: string): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve, reject) => {
    const child = execFile("openssl", args, { encoding: "utf8" }, (error, stdout, stderr) => {
      if (error && isMissing(error)) {
        reject(new Error(MISSING, { cause: error }));
        return;
      }
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ stdout, stderr, code });
    });
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

/** A temporary directory for files handed to openssl, removed by `dispose`. */
export async function scratchDir(): Promise<{ path: string; write(name: string, text: string): Promise<string>; dispose(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "openssl-test-"));
  return {
    path: dir,
    async write(name, text) {
      const file = path.join(dir, name);
      await writeFile(file, text, { mode: 0o600 });
      return file;
    },
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Runs `fn` in a fresh temporary directory, removed afterwards. */
function inTempDir<T>(prefix: string, fn: (dir: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    return fn(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------
// Reading certificates

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM bundle, in order (leaf first for a full chain). */
export function pemCertificates(bundle: string): string[] {
  return bundle.match(PEM_BLOCK) ?? [];
}

/**
 * `openssl verify` of a full chain (leaf first, then intermediates) against a
 * root: the same check a TLS client makes, at `attime` (Unix seconds; the
 * sandbox's clock may be ahead of real time) or now. Returns openssl's
 * output (`leaf.pem: OK`); throws with it when verification fails.
 */
export function opensslVerify(fullChainPem: string, rootPem: string, options: { attime?: number } = {}): string {
  const [leaf, ...intermediates] = pemCertificates(fullChainPem);
  if (!leaf) throw new Error("the full chain holds no certificate");
  return inTempDir("certreseller-verify-", (dir) => {
    fs.writeFileSync(path.join(dir, "root.pem"), rootPem);
    fs.writeFileSync(path.join(dir, "leaf.pem"), `${leaf}\n`);
    fs.writeFileSync(path.join(dir, "untrusted.pem"), intermediates.map((c) => `${c}\n`).join(""));
    const args = [
      "verify",
      ...(options.attime === undefined ? [] : ["-attime", String(Math.floor(options.attime))]),
      "-CAfile",
      "root.pem",
      ...(intermediates.length ? ["-untrusted", "untrusted.pem"] : []),
      "leaf.pem",
    ];
    try {
      return opensslSync(args, { cwd: dir });
    } catch (error) {
      throw new Error(`openssl verify failed:\n${(error as Error).message}`);
    }
  });
}

/** What `openssl x509 -fingerprint -sha256` prints (`AB:CD:…`), the independent reference. */
export function opensslFingerprint(pem: string): string {
  return opensslSync(["x509", "-noout", "-fingerprint", "-sha256"], { input: pem }).trim().split("=")[1]!;
}

/** What `openssl x509 -serial` prints (hex, upper case). */
export function opensslSerial(pem: string): string {
  return opensslSync(["x509", "-noout", "-serial"], { input: pem }).trim().split("=")[1]!;
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

// ---------------------------------------------------------------------------
// PKCS#12

function withPfxFile<T>(pfxBase64: string, fn: (file: string) => T): T {
  return inTempDir("certreseller-pfx-", (dir) => {
    const file = path.join(dir, "bundle.pfx");
    fs.writeFileSync(file, Buffer.from(pfxBase64, "base64"));
    return fn(file);
  });
}

/**
 * `openssl pkcs12` (OpenSSL 3, no -legacy) on a base64 bundle: its
 * certificates (`-nokeys`) or its key unencrypted (`-nocerts`). Throws with
 * openssl's message when it refuses the bundle or the password.
 */
export function opensslPkcs12(pfxBase64: string, password: string, what: "-nokeys" | "-nocerts"): string {
  return withPfxFile(pfxBase64, (file) => opensslSync(["pkcs12", "-in", file, "-passin", `pass:${password}`, what, "-nodes"]));
}

/** `openssl pkcs12 -info`: the bundle's algorithms (printed on stderr) and contents. */
export function opensslPkcs12Info(pfxBase64: string, password: string): string {
  return withPfxFile(pfxBase64, (file) => {
    const { stdout, stderr } = opensslOutput(["pkcs12", "-in", file, "-passin", `pass:${password}`, "-info", "-nodes"]);
    return stderr + stdout;
  });
}

// ---------------------------------------------------------------------------
// Making keys, CSRs and certificates

/** Key types `openssl req -newkey` makes. */
export type OpensslKey = "rsa:2048" | "rsa:3072" | "ec-p256" | "ec-p384";

function newKeyArgs(key: OpensslKey): string[] {
  return key.startsWith("rsa") ? ["-newkey", key] : ["-newkey", "ec", "-pkeyopt", `ec_paramgen_curve:${key === "ec-p256" ? "P-256" : "P-384"}`];
}

/**
 * A fresh key and a CSR made by `openssl req`, as a user would; only the CSR
 * is returned. `sans` are DNS names or IP addresses.
 */
export function opensslCsr(opts: { cn?: string; sans?: string[]; org?: string; key?: OpensslKey }): string {
  return inTempDir("openssl-csr-", (dir) => {
    const subject = [opts.cn === undefined ? "" : `CN=${opts.cn}`, opts.org === undefined ? "" : `O=${opts.org}`].filter(Boolean).join("/");
    const args = ["req", "-new", ...newKeyArgs(opts.key ?? "rsa:2048"), "-nodes", "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "csr.pem"), "-subj", `/${subject}`];
    if (opts.sans !== undefined && opts.sans.length > 0) {
      args.push("-addext", `subjectAltName=${opts.sans.map((s) => (/^[\d.:]+$/.test(s) ? `IP:${s}` : `DNS:${s}`)).join(",")}`);
    }
    opensslSync(args);
    return fs.readFileSync(path.join(dir, "csr.pem"), "utf8");
  });
}

/** A self-signed P-256 certificate for `name` and its key, as openssl writes them. */
export function opensslSelfSigned(name: string): { keyPem: string; certificatePem: string } {
  return inTempDir("openssl-self-signed-", (dir) => {
    opensslSync(["req", "-x509", ...newKeyArgs("ec-p256"), "-nodes", "-keyout", "key.pem", "-out", "cert.pem", "-subj", `/CN=${name}`, "-days", "30"], { cwd: dir });
    return { keyPem: fs.readFileSync(path.join(dir, "key.pem"), "utf8"), certificatePem: fs.readFileSync(path.join(dir, "cert.pem"), "utf8") };
  });
}

/** A root → intermediate → leaf chain made with the openssl CLI (real X.509, independent of the SDK), and a key that is not the leaf's. */
export interface TestChain {
  rootPem: string;
  intermediatePem: string;
  leafPem: string;
  leafKeyPem: string;
  otherKeyPem: string;
}

/** P-256 throughout; the leaf (10 days) certifies `names`, the first as its CN. */
export function opensslChain(names: string[] = ["example.com", "www.example.com"]): TestChain {
  return inTempDir("cr-chain-", (dir) => {
    const run = (...args: string[]) => opensslSync(args, { cwd: dir });
    run("req", "-x509", ...newKeyArgs("ec-p256"), "-nodes", "-keyout", "root.key", "-out", "root.pem", "-subj", "/CN=Test Root", "-days", "30");
    fs.writeFileSync(path.join(dir, "ca.ext"), "basicConstraints=critical,CA:true\nkeyUsage=critical,keyCertSign,cRLSign\n");
    run("req", ...newKeyArgs("ec-p256"), "-nodes", "-keyout", "int.key", "-out", "int.csr", "-subj", "/CN=Test Intermediate");
    run("x509", "-req", "-in", "int.csr", "-CA", "root.pem", "-CAkey", "root.key", "-CAcreateserial", "-out", "int.pem", "-days", "30", "-extfile", "ca.ext");
    fs.writeFileSync(path.join(dir, "leaf.ext"), `subjectAltName=${names.map((n) => `DNS:${n}`).join(",")}\n`);
    run("req", ...newKeyArgs("ec-p256"), "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr", "-subj", `/CN=${names[0]}`);
    run("x509", "-req", "-in", "leaf.csr", "-CA", "int.pem", "-CAkey", "int.key", "-CAcreateserial", "-out", "leaf.pem", "-days", "10", "-extfile", "leaf.ext");
    run("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "other.key");
    const read = (f: string) => fs.readFileSync(path.join(dir, f), "utf8");
    return { rootPem: read("root.pem"), intermediatePem: read("int.pem"), leafPem: read("leaf.pem"), leafKeyPem: read("leaf.key"), otherKeyPem: read("other.key") };
  });
}
