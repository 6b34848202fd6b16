import { execFileSync } from "node:child_process";

export const RSA_2048 = ["-newkey", "rsa:2048"];
export const EC_P256 = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"];

/** A fresh key and CSR for `commonName` (and SANs), made by openssl as a user would; only the CSR is returned. */
export function makeCsr(commonName: string, sans: string[] = [commonName], key: string[] = RSA_2048): string {
  const args = ["req", "-new", ...key, "-nodes", "-keyout", "/dev/null", "-subj", `/CN=${commonName}`];
  if (sans.length) args.push("-addext", `subjectAltName=${sans.map((s) => `DNS:${s}`).join(",")}`);
  return execFileSync("openssl", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}
