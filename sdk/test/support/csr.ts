import "reflect-metadata";
import { webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** A real PKCS#10 request signed by a fresh key, as a user's own tooling would make it. */
export async function makeCsr(options: {
  commonName: string;
  altNames?: string[];
  organization?: string;
  key?: "rsa-2048" | "p-256" | "p-384";
}): Promise<string> {
  const key = options.key ?? "rsa-2048";
  const algorithm =
    key === "rsa-2048"
      ? { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256", publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 }
      : { name: "ECDSA", namedCurve: key === "p-256" ? "P-256" : "P-384", hash: "SHA-256" };
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"])) as webcrypto.CryptoKeyPair;
  const subject = [`CN=${options.commonName}`, ...(options.organization ? [`O=${options.organization}`] : [])].join(", ");
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: subject,
    keys,
    signingAlgorithm: algorithm,
    extensions: options.altNames
      ? [new x509.SubjectAlternativeNameExtension(options.altNames.map((value) => ({ type: /^[\d.:]+$/.test(value) ? "ip" : "dns", value })))]
      : [],
  });
  return csr.toString("pem");
}
