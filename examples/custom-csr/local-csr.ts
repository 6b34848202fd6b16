/**
 * A private key and certificate signing request generated on this machine.
 *
 * A local dynamic resource: the key is created once, kept in state as a
 * SECRET output (encrypted by the stack's secrets provider, like any Pulumi
 * secret) and never sent anywhere; only the CSR goes to the Partner API.
 * Pulumi serializes the provider below into state, so its methods capture
 * nothing and load their modules with `require` when they run.
 */
import type { webcrypto as WebCrypto } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";

/** Key algorithms this resource generates, named like the Order's `keySpec`. */
export type KeySpec = "p-256" | "p-384" | "rsa-2048" | "rsa-3072" | "rsa-4096";

/** Inputs of {@link LocalCsr}. Changing any of them makes a new key and CSR. */
export interface LocalCsrArgs {
  /** The CSR's common name: the order's main domain. */
  commonName: pulumi.Input<string>;
  /** Every name of the order (main, SANs, wildcards) for the subjectAltName extension. */
  dnsNames: pulumi.Input<pulumi.Input<string>[]>;
  /** Key algorithm, default `p-256`. */
  keySpec?: pulumi.Input<KeySpec>;
  /** Organisation (O=) for OV/EV orders, whose CSR must name the company. */
  organization?: pulumi.Input<string>;
}

/** Inputs after defaults, as the provider sees them. */
export interface LocalCsrInputs {
  commonName: string;
  dnsNames: string[];
  keySpec: KeySpec;
  organization?: string;
}

/** Outputs of the provider (`privateKeyPem` is made secret by the class). */
export interface LocalCsrOutputs extends LocalCsrInputs {
  csrPem: string;
  privateKeyPem: string;
  publicKeyPem: string;
}

/**
 * The provider, exported for tests that call `create` directly. It generates
 * the key with WebCrypto (node:crypto) and builds the CSR with @peculiar/x509.
 */
export const localCsrProvider = {
  async check(_olds: unknown, news: Partial<LocalCsrInputs>) {
    const failures: pulumi.dynamic.CheckFailure[] = [];
    const specs = ["p-256", "p-384", "rsa-2048", "rsa-3072", "rsa-4096"];
    const keySpec = news.keySpec ?? "p-256";
    if (!specs.includes(keySpec)) failures.push({ property: "keySpec", reason: `keySpec must be one of ${specs.join(", ")}` });
    if (typeof news.commonName !== "string" || news.commonName.length === 0) {
      failures.push({ property: "commonName", reason: "commonName must be the order's main domain" });
    }
    return { inputs: { ...news, keySpec }, failures };
  },
  async diff(_id: string, olds: LocalCsrOutputs, news: LocalCsrInputs) {
    // A new key is the only way to change anything about a CSR.
    const keys = ["commonName", "dnsNames", "keySpec", "organization"] as const;
    const replaces = keys.filter((k) => JSON.stringify(olds[k] ?? null) !== JSON.stringify(news[k] ?? null));
    return { changes: replaces.length > 0, replaces };
  },
  async create(inputs: LocalCsrInputs): Promise<{ id: string; outs: LocalCsrOutputs }> {
    require("reflect-metadata"); // @peculiar/x509 needs the Reflect polyfill at load
    const x509 = require("@peculiar/x509") as typeof import("@peculiar/x509");
    const { webcrypto, createHash } = require("node:crypto") as typeof import("node:crypto");
    const subtle = webcrypto.subtle;
    const rsaBits = /^rsa-(\d+)$/.exec(inputs.keySpec)?.[1];
    const algorithm = rsaBits
      ? { name: "RSASSA-PKCS1-v1_5", modulusLength: Number(rsaBits), publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }
      : { name: "ECDSA", namedCurve: inputs.keySpec === "p-384" ? "P-384" : "P-256" };
    const signing = rsaBits ? algorithm : { name: "ECDSA", hash: inputs.keySpec === "p-384" ? "SHA-384" : "SHA-256" };
    type CreateParams = Parameters<typeof x509.Pkcs10CertificateRequestGenerator.create>;
    // Node's and the DOM's WebCrypto typings differ in detail (Pulumi's TypeScript runner may load the DOM lib).
    const keys = (await subtle.generateKey(algorithm, true, ["sign", "verify"])) as WebCrypto.CryptoKeyPair;
    const escape = (v: string) => v.replace(/([,+"\\<>;=])/g, "\\$1");
    const subject = [`CN=${escape(inputs.commonName)}`, ...(inputs.organization ? [`O=${escape(inputs.organization)}`] : [])].join(", ");
    const csr = await x509.Pkcs10CertificateRequestGenerator.create(
      {
        name: subject,
        keys: keys as unknown as CreateParams[0]["keys"],
        signingAlgorithm: signing,
        extensions: [new x509.SubjectAlternativeNameExtension(inputs.dnsNames.map((value) => ({ type: "dns" as const, value })))],
      },
      webcrypto as unknown as CreateParams[1],
    );
    const pem = (label: string, der: ArrayBuffer) =>
      `-----BEGIN ${label}-----\n${Buffer.from(der).toString("base64").replace(/.{1,64}/g, "$&\n")}-----END ${label}-----\n`;
    const publicDer = await subtle.exportKey("spki", keys.publicKey);
    const outs: LocalCsrOutputs = {
      ...inputs,
      csrPem: csr.toString("pem") + "\n",
      privateKeyPem: pem("PRIVATE KEY", await subtle.exportKey("pkcs8", keys.privateKey)),
      publicKeyPem: pem("PUBLIC KEY", publicDer),
    };
    // The id names the key without revealing it: the SHA-256 of the public key.
    return { id: createHash("sha256").update(Buffer.from(publicDer)).digest("hex"), outs };
  },
};

/**
 * A locally generated key pair and CSR. `privateKeyPem` is a secret output;
 * pass `csrPem` to the Order's `customCsr`.
 *
 * @example
 * ```ts
 * const csr = new LocalCsr("site", { commonName: "example.com", dnsNames: ["example.com", "www.example.com"] });
 * const order = new certs.Order("site", { productCode, domain: "example.com", sanDomains: ["www.example.com"],
 *   signatureAlgorithm: "ecc", keySpec: "p-256", customCsr: csr.csrPem });
 * ```
 */
export class LocalCsr extends pulumi.dynamic.Resource {
  static readonly __pulumiType = "pulumi-nodejs:dynamic/custom-csr:LocalCsr";

  declare readonly commonName: pulumi.Output<string>;
  declare readonly dnsNames: pulumi.Output<string[]>;
  declare readonly keySpec: pulumi.Output<KeySpec>;
  declare readonly organization: pulumi.Output<string | undefined>;
  /** PEM `CERTIFICATE REQUEST`. */
  declare readonly csrPem: pulumi.Output<string>;
  /** PEM PKCS#8 `PRIVATE KEY`; secret. */
  declare readonly privateKeyPem: pulumi.Output<string>;
  /** PEM SPKI `PUBLIC KEY`. */
  declare readonly publicKeyPem: pulumi.Output<string>;

  constructor(name: string, args: LocalCsrArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      localCsrProvider,
      name,
      { ...args, csrPem: undefined, privateKeyPem: undefined, publicKeyPem: undefined },
      { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "privateKeyPem"] },
      "custom-csr",
      "LocalCsr",
    );
  }
}
