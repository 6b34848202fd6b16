import { execFileSync } from "node:child_process";

/** A fresh key and CSR for `commonName` (and SANs), made by openssl as a user would; only the CSR is returned. */
export function makeCsr(commonName: string, sans: string[] = [commonName], keySpec = "rsa:2048"): string {
  const args = ["req", "-new", "-newkey", keySpec, "-nodes", "-keyout", "/dev/null", "-subj", `/CN=${commonName}`];
  if (sans.length) args.push("-addext", `subjectAltName=${sans.map((s) => `DNS:${s}`).join(",")}`);
  return execFileSync("openssl", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}
