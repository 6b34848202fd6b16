import * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../provider/lazy-provider.js";
import { warnIfApiKeyNotSecret } from "../provider/program-warnings.js";

/** Arguments of {@link Certificate}. */
export interface CertificateArgs {
  /** The order whose certificate to wait for and download (e.g. `order.orderNo`). */
  orderNo: pulumi.Input<string>;
  /** For orders split into installments: which certificate (1-based). Default: the earliest issued. */
  installmentNo?: pulumi.Input<number>;
  /** A specific certificate of the order by its UUID; wins over `installmentNo`. */
  certId?: pulumi.Input<string>;
  /**
   * How long `up` waits for issuance, in minutes (default 60). The status is
   * read at most once per the service's cooldown (180 s), so short timeouts
   * allow only a few checks.
   */
  timeoutMinutes?: pulumi.Input<number>;
}

const certificateProvider = lazyProvider("resources/certificate/handlers.js");

/**
 * An issued certificate: waits until the order's certificate is issued, then
 * downloads and verifies it (the leaf matches the API's fingerprint, the key
 * matches the leaf, the chain links up).
 *
 * While waiting it reads the order status no more often than the service
 * allows (one read per order per cooldown, honouring `retry_after`) and prints
 * which domains are still unverified and when it checks next. Put the
 * validation records it needs in `dependsOn`.
 *
 * `privateKeyPem` is a secret output (encrypted in state). When the order
 * changes (a renewal replaces the Order), the Certificate is replaced
 * create-before-delete: the old material stays in state until the new
 * certificate is issued.
 *
 * @example
 * ```ts
 * const cert = new certs.Certificate("site", { orderNo: order.orderNo, timeoutMinutes: 30 }, { dependsOn: records });
 * export const fullChain = cert.fullChainPem;
 * export const key = cert.privateKeyPem; // secret
 * ```
 */
export class Certificate extends pulumi.dynamic.Resource {
  /** Lets policy packs (`isType`, `validateResourceOfType`) recognise this class. */
  static readonly __pulumiType = "pulumi-nodejs:dynamic/certreseller:Certificate";

  declare readonly orderNo: pulumi.Output<string>;
  /** The certificate's UUID at the service (also the resource id). */
  declare readonly certId: pulumi.Output<string>;
  declare readonly installmentNo: pulumi.Output<number>;
  declare readonly timeoutMinutes: pulumi.Output<number>;
  /** The leaf certificate (PEM). */
  declare readonly certificatePem: pulumi.Output<string>;
  /** The intermediate certificates (PEM), leaf excluded. */
  declare readonly chainPem: pulumi.Output<string>;
  /** Leaf followed by intermediates: what web servers load. */
  declare readonly fullChainPem: pulumi.Output<string>;
  /** SECRET. The private key (PEM); empty when the order used a custom CSR. */
  declare readonly privateKeyPem: pulumi.Output<string>;
  declare readonly csrPem: pulumi.Output<string>;
  /** Uppercase hex, as `openssl x509 -serial` prints it. */
  declare readonly serialNumber: pulumi.Output<string>;
  /** SHA-256 of the leaf (DER), uppercase hex with colons. */
  declare readonly fingerprintSha256: pulumi.Output<string>;
  /** ISO 8601, from the certificate itself. */
  declare readonly notBefore: pulumi.Output<string>;
  declare readonly notAfter: pulumi.Output<string>;
  /** The names the certificate covers. */
  declare readonly domains: pulumi.Output<string[]>;

  constructor(name: string, args: CertificateArgs, opts?: pulumi.CustomResourceOptions) {
    warnIfApiKeyNotSecret();
    const props = {
      orderNo: args.orderNo,
      installmentNo: args.installmentNo,
      certId: args.certId,
      timeoutMinutes: args.timeoutMinutes,
      // Output-only members must be present (undefined) to be registered as outputs.
      certificatePem: undefined,
      chainPem: undefined,
      fullChainPem: undefined,
      privateKeyPem: undefined,
      csrPem: undefined,
      serialNumber: undefined,
      fingerprintSha256: undefined,
      notBefore: undefined,
      notAfter: undefined,
      domains: undefined,
    };
    // A new output the engine cannot infer as secret (no secret input of that
    // name), so it is listed here; the engine re-wraps it after every create/update.
    const secretOpts = pulumi.mergeOptions(opts, { additionalSecretOutputs: ["privateKeyPem"] });
    super(certificateProvider, name, props, secretOpts, "certreseller", "Certificate");
  }
}
